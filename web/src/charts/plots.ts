// Observable Plot charts (loaded lazily, after the first paint): the chip's roofline with the workload's main
// matmuls on it, step time (or latency) against chip count, time to train with failures against chips, the serving
// frontier, and the interactivity frontier under a benchmark's load. Scales, units and colours come from format.ts.
// Each returns the chart and its numbers as a table (table.ts); a configuration that does not fit in HBM is drawn
// hollow and grey, and labelled, never as an ordinary point.
import * as Plot from '@observablehq/plot';
import type { GoodputResult, ServingResult } from '../engine/types';
import { COLOURS, SCALES, fmtCount, fmtSeconds, fmtSecondsTick, siUnit, tickFormatSI } from './format';
import { GOODPUT, goodputData, goodputLegend, goodputRows, type GoodputDatum, type GoodputSeries } from './goodput';
import {
  LOAD_FRONTIER,
  loadFrontierCurrent,
  loadFrontierData,
  loadFrontierDots,
  loadFrontierLabels,
  loadFrontierLegend,
  loadFrontierRows,
  loadFrontierTip,
  type LoadFrontierDatum,
} from './load-frontier';
import { withTable } from './table';
import { withLegend } from './legend';
import { ROOFLINE, SCALING, SWEEP, rooflineLegend, scalingLegend, sweepLegend, type BatchRamp } from './series';
import { symbolPath, type SymbolLike } from './symbol-path';
import { stackLevels } from './roof-stack';
import { pointLabels, type Dot, type PointLabel } from './labels';

export interface RooflinePoint {
  intensity: number;
  attainable: number;
}

export interface OpPoint extends RooflinePoint {
  name: string;
  bound: string;
}

export function rooflineChart(
  curve: RooflinePoint[],
  ops: OpPoint[],
  ridge: number | undefined,
  width: number,
): HTMLElement {
  const marginLeft = 86,
    marginRight = 20,
    r = 6,
    liftPx = r + 7;
  // Overlapping points are lifted a step each (liftPx) so that every one stays visible; their tips and the table
  // give the exact numbers.
  const xs = curve.map((p) => p.intensity);
  const levels = xs.length
    ? stackLevels(
        ops.map((o) => o.intensity),
        [Math.min(...xs), Math.max(...xs)],
        width - marginLeft - marginRight,
        2 * r + 2,
      )
    : ops.map(() => 0);
  const marks: Plot.Markish[] = [
    Plot.line(curve, { x: 'intensity', y: 'attainable', stroke: ROOFLINE.curve, strokeWidth: 2 }),
    ...[...new Set(levels)].map((level) =>
      Plot.dot(
        ops.filter((_, i) => levels[i] === level),
        {
          x: 'intensity',
          y: 'attainable',
          dy: -level * liftPx,
          stroke: 'name',
          fill: 'name',
          fillOpacity: ROOFLINE.opFillOpacity,
          r,
          symbol: 'name',
          strokeWidth: 2,
        },
      ),
    ),
    Plot.tip(
      ops,
      Plot.pointer({
        x: 'intensity',
        y: 'attainable',
        title: (d: OpPoint) =>
          `${d.name}\nintensity ${fmtCount(d.intensity)} FLOPs/byte\n${siUnit(d.attainable, 'FLOP/s')} (${d.bound}-bound)`,
      }),
    ),
  ];
  if (ridge !== undefined && Number.isFinite(ridge)) {
    marks.push(Plot.ruleX([ridge], { stroke: ROOFLINE.ridge, strokeDasharray: '4 3' }));
    marks.push(
      Plot.text([ridge], {
        x: (d: number) => d,
        frameAnchor: 'top',
        dy: 4,
        dx: 4,
        textAnchor: 'start',
        text: () => `ridge ${fmtCount(ridge)} FLOPs/B`,
        fontSize: 10,
        fill: '#555',
      }),
    );
  }
  const chart = Plot.plot({
    width,
    height: 300,
    marginTop: 20 + Math.max(0, ...levels) * liftPx, // room above the roof for the lifted points
    marginLeft,
    marginRight,
    color: { legend: true, type: 'categorical', scheme: 'dark2' },
    symbol: { legend: false },
    style: { fontSize: '11px', background: 'transparent' },
    y: { ...SCALES.attainable, grid: true, ticks: 4, tickFormat: tickFormatSI('FLOP/s') },
    x: { ...SCALES.intensity, grid: true, ticks: 6 },
    marks,
  });
  // The legend's keys from the chart's own colour and symbol scales, so they are the points' (Plot's dot of radius 5 has area 25π).
  const colour = chart.scale('color');
  const symbol = chart.scale('symbol');
  const keys =
    colour && symbol
      ? [...new Set(ops.map((o) => o.name))].map((name) => ({
          name,
          colour: String(colour.apply(name)),
          path: symbolPath(symbol.apply(name) as SymbolLike, 25 * Math.PI),
        }))
      : [];
  return withLegend(
    withTable(chart, {
      caption: 'Roofline',
      columns: ['Matmul', 'Intensity (FLOPs/byte)', 'Attainable per chip', 'Bound'],
      rows: [
        ...ops.map((o) => [o.name, fmtCount(o.intensity), siUnit(o.attainable, 'FLOP/s'), o.bound]),
        ...(ridge !== undefined ? [['ridge point', fmtCount(ridge), '', '']] : []),
      ],
    }),
    rooflineLegend(keys, ridge !== undefined && Number.isFinite(ridge)),
  );
}

export interface ScalingDatum {
  chips: number;
  value: number;
  current: boolean;
  /** Does this configuration fit in HBM? */
  fits: boolean;
  /** The engine's first warning for it (it runs, with a caveat): drawn hollow and labelled, not as a clean point. */
  warning?: string;
}

export function scalingChart(
  points: ScalingDatum[],
  yLabel: string,
  yUnitFormat: (v: number) => string,
  width: number,
): HTMLElement {
  const misfits = points.filter((d) => !d.fits);
  const warned = points.filter((d) => d.fits && d.warning);
  const clean = points.filter((d) => d.fits && !d.warning);
  const radius = (d: ScalingDatum): number => (d.current ? 6 : 4);
  const at = (d: ScalingDatum): Dot => ({ x: d.chips, y: d.value, r: radius(d) });
  // The current point's label first; one that would run into another is left out (the tip and the table keep them all).
  const label = (data: ScalingDatum[], text: string, fill: string): PointLabel[] =>
    data.map((d) => ({
      ...at(d),
      text,
      fill,
      fontSize: 10,
      slots: ['below-right', 'above-left', 'below-left', 'above-right'],
    }));
  const labels: PointLabel[] = [
    ...points
      .filter((d) => d.current)
      .map((d): PointLabel => ({
        ...at(d),
        text: 'current',
        fill: SCALING.current,
        required: true,
        slots: ['above', 'above-left', 'above-right', 'below'],
      })),
    ...label(warned, 'warning', SCALING.warned),
    ...label(misfits, 'does not fit', SCALING.misfit),
  ];
  const chart = Plot.plot({
    width,
    height: 240,
    marginLeft: 86,
    style: { fontSize: '11px', background: 'transparent' },
    x: { ...SCALES.chips, grid: true },
    y: { type: 'log', label: yLabel, grid: true, ticks: 4, tickFormat: yUnitFormat },
    marks: [
      Plot.line(points, { x: 'chips', y: 'value', stroke: SCALING.line, strokeWidth: 2 }),
      Plot.dot(clean, {
        x: 'chips',
        y: 'value',
        fill: (d: ScalingDatum) => (d.current ? SCALING.current : SCALING.line),
        r: radius,
      }),
      Plot.dot(warned, { x: 'chips', y: 'value', fill: '#fff', stroke: SCALING.warned, strokeWidth: 2, r: radius }),
      Plot.dot(misfits, { x: 'chips', y: 'value', fill: '#fff', stroke: SCALING.misfit, strokeWidth: 1.5, r: radius }),
      pointLabels(labels, points.map(at)),
      Plot.tip(
        points,
        Plot.pointer({
          x: 'chips',
          y: 'value',
          title: (d: ScalingDatum) =>
            `${d.chips} chips: ${yUnitFormat(d.value)}${d.fits ? '' : ' (does not fit in HBM)'}${d.fits && d.warning ? ` (warning: ${d.warning})` : ''}`,
        }),
      ),
    ],
  });
  const what = yLabel.replace(/^↑\s*/, '');
  return withLegend(
    withTable(chart, {
      caption: what,
      columns: ['Chips', what, 'Fits in HBM', 'Warning'],
      rows: points.map((d) => [
        `${fmtCount(d.chips)}${d.current ? ' (current)' : ''}`,
        yUnitFormat(d.value),
        d.fits ? 'yes' : 'no',
        d.warning ?? '',
      ]),
    }),
    scalingLegend(points, what),
  );
}

/**
 * Time to train against chips (issue 38): failure-free and with failures, the chip count on screen ringed, and a
 * dashed rule where the engine says adding chips stops paying (when it falls inside the chart).
 */
export function goodputChart(g: GoodputResult, chips: number, width: number): HTMLElement {
  const data = goodputData(g, chips);
  const xs = g.scaling.map((p) => p.chips);
  const stop = g.chips_at_shortest_wall_time;
  const series = (s: GoodputSeries): GoodputDatum[] => data.filter((d) => d.series === s);
  const current = data.filter((d) => d.current);
  const at = (d: GoodputDatum): Dot => ({ x: d.chips, y: d.time_s, r: 4 });
  const labels: PointLabel[] = current.slice(-1).map((d) => ({
    ...at(d),
    r: 7,
    text: 'current',
    fill: GOODPUT.current,
    required: true,
    slots: ['above-right', 'above', 'below-left', 'below'],
  }));
  // Each series named in the right margin by its last point, with failures nudged up (it is never the shorter time).
  const ends = (['wall', 'useful'] as const).flatMap((s) =>
    series(s)
      .slice(-1)
      .map((d) => ({ ...d, dy: s === 'wall' ? -6 : 6 })),
  );
  const chart = Plot.plot({
    width,
    height: 240,
    marginLeft: 86,
    marginRight: 84,
    style: { fontSize: '11px', background: 'transparent' },
    x: { ...SCALES.chips, grid: true },
    y: { type: 'log', label: '↑ Time to train', grid: true, ticks: 4, tickFormat: fmtSecondsTick },
    marks: [
      ...(['useful', 'wall'] as const).flatMap((s) => [
        Plot.line(series(s), { x: 'chips', y: 'time_s', stroke: GOODPUT.colour[s], strokeWidth: 2 }),
        Plot.dot(series(s), { x: 'chips', y: 'time_s', fill: GOODPUT.colour[s], r: 3 }),
      ]),
      Plot.dot(current, { x: 'chips', y: 'time_s', r: 7, stroke: GOODPUT.current, strokeWidth: 2, fill: 'none' }),
      ...(stop !== null && stop >= Math.min(...xs) && stop <= Math.max(...xs)
        ? [Plot.ruleX([stop], { stroke: COLOURS.pinned, strokeDasharray: '4 3' })]
        : []),
      pointLabels(labels, data.map(at)),
      ...ends.map((d) =>
        Plot.text([d], {
          x: 'chips',
          y: 'time_s',
          text: () => GOODPUT.label[d.series].toLowerCase(),
          fill: GOODPUT.colour[d.series],
          textAnchor: 'start',
          dx: 8,
          dy: d.dy,
          fontSize: 10,
        }),
      ),
      Plot.tip(
        data,
        Plot.pointer({
          x: 'chips',
          y: 'time_s',
          title: (d: GoodputDatum) =>
            `${fmtCount(d.chips)} chips, ${GOODPUT.label[d.series].toLowerCase()}: ${fmtSeconds(d.time_s)}`,
        }),
      ),
    ],
  });
  return withLegend(
    withTable(chart, {
      caption: 'Time to train against chips',
      columns: ['Chips', 'Failure-free', 'With failures', 'Goodput'],
      rows: goodputRows(g, chips),
    }),
    goodputLegend(data),
  );
}

/**
 * Throughput per GPU (or chip) against tokens/s per user (issue 35), as serving benchmarks draw it: one point per
 * concurrency of the engine's load.frontier, labelled with it, the concurrency on screen ringed; concurrencies past
 * the KV slots (the rest queue) hollow and grey. Tokens/s per user on a log axis (the concurrencies double from point
 * to point), throughput on a linear one from zero.
 */
export function loadFrontierChart(load: NonNullable<ServingResult['load']>, chip: string, width: number): HTMLElement {
  const data = loadFrontierData(load);
  const current = loadFrontierCurrent(load);
  const served = data.filter((d) => !d.queued);
  const queued = data.filter((d) => d.queued);
  const xy = { x: 'per_user', y: 'per_chip' } as const;
  const chart = Plot.plot({
    width,
    height: 300,
    marginLeft: 64,
    marginRight: 24,
    marginBottom: 40,
    style: { fontSize: '11px', background: 'transparent' },
    x: {
      type: 'log',
      label: 'Tokens/s per user (interactivity) →',
      grid: true,
      ticks: 5,
      tickFormat: (v: number) => fmtCount(v),
      inset: 16,
    },
    // Linear from zero, as the benchmarks draw it: throughput saturates, and the top's ticks stay labelled. Room above the top point for its label.
    y: {
      type: 'linear',
      zero: true,
      label: `↑ Output tokens/s per ${chip}`,
      grid: true,
      ticks: 5,
      tickFormat: (v: number) => fmtCount(v),
      insetTop: 18,
    },
    marks: [
      Plot.line(data, { ...xy, stroke: LOAD_FRONTIER.line, strokeWidth: 1.5 }),
      Plot.dot(served, { ...xy, fill: LOAD_FRONTIER.line, r: LOAD_FRONTIER.r.point, stroke: '#fff', strokeWidth: 0.5 }),
      Plot.dot(queued, {
        ...xy,
        fill: '#fff',
        stroke: LOAD_FRONTIER.queued,
        strokeWidth: 1.5,
        r: LOAD_FRONTIER.r.point,
      }),
      Plot.dot(current, {
        ...xy,
        r: LOAD_FRONTIER.r.current,
        stroke: LOAD_FRONTIER.current,
        strokeWidth: 2,
        fill: 'none',
      }),
      pointLabels(loadFrontierLabels(data, current), loadFrontierDots(data, current)),
      Plot.tip(data, Plot.pointer({ ...xy, title: (d: LoadFrontierDatum) => loadFrontierTip(d, chip) })),
    ],
  });
  return withLegend(
    withTable(chart, {
      caption: `Throughput per ${chip} against tokens/s per user`,
      columns: [
        'Concurrency',
        'In flight',
        `Output tokens/s per ${chip}`,
        'Tokens/s per user',
        'Time to first token',
        'Time per output token',
      ],
      rows: loadFrontierRows(data, current),
    }),
    loadFrontierLegend(data, current, chip),
  );
}

export interface SweepDatum {
  batch: number;
  latency_per_token_s: number;
  tokens_per_s_per_chip: number;
  fits: boolean;
}

export interface SweepCurrent {
  batch: number;
  latency: number;
  throughput: number;
  fits: boolean;
}

const SWEEP_R = { point: 4.5, misfit: 3.5, current: 8 };
const sweepAt = (d: SweepDatum): { x: number; y: number } => ({ x: d.latency_per_token_s, y: d.tokens_per_s_per_chip });
const isPow4 = (b: number): boolean =>
  Math.abs(Math.log(b) / Math.log(4) - Math.round(Math.log(b) / Math.log(4))) < 1e-9;

/** A frontier point's tooltip: its batch and numbers (what its label says, and more). */
export const sweepTip = (d: SweepDatum): string =>
  `batch ${fmtCount(d.batch)}${d.fits ? '' : ' (KV caches do not fit)'}\n${fmtSeconds(d.latency_per_token_s)} per token\n${fmtCount(d.tokens_per_s_per_chip)} tokens/s per chip`;

/** The frontier's points as drawn (`here`: the current batch's ring, if any). */
export function sweepDots(all: readonly SweepDatum[], here: readonly SweepCurrent[]): Dot[] {
  return [
    ...all.map((d) => ({ ...sweepAt(d), r: d.fits ? SWEEP_R.point : SWEEP_R.misfit })),
    ...here.map((d) => ({ x: d.latency, y: d.throughput, r: SWEEP_R.current })),
  ];
}

/**
 * The frontier's labels, most important first: the current batch, the largest batch that fits, then B = 1, 4, 16, ...
 * (a power of 4 too close to the largest is left unlabelled).
 */
export function sweepLabels(pts: readonly SweepDatum[], here: readonly SweepCurrent[]): PointLabel[] {
  const last = pts[pts.length - 1]?.batch ?? 1;
  return [
    ...here.map((d): PointLabel => ({
      x: d.latency,
      y: d.throughput,
      r: SWEEP_R.current,
      text: `current B=${fmtCount(d.batch)}${d.fits ? '' : ' (does not fit)'}`,
      fill: SWEEP.current,
      bold: true,
      required: true,
      slots: ['above', 'above-left', 'above-right', 'below', 'left', 'right'],
    })),
    ...pts
      .filter((d) => d.batch === last)
      .map((d): PointLabel => ({
        ...sweepAt(d),
        r: SWEEP_R.point,
        text: `largest that fits: B=${fmtCount(d.batch)}`,
        fill: '#333',
        slots: ['above-left', 'below-left', 'left', 'above', 'below'],
      })),
    ...pts
      .filter((d) => isPow4(d.batch) && d.batch * 1.9 < last)
      .map((d): PointLabel => ({
        ...sweepAt(d),
        r: SWEEP_R.point,
        text: `B=${fmtCount(d.batch)}`,
        fill: '#333',
        slots: ['below-right', 'right', 'above-left', 'left', 'below', 'above'],
      })),
  ];
}

/**
 * The book's frontier (scaling-book/applied-inference): latency per token against throughput per chip, one point per
 * decode batch size (log axes, points coloured by batch), with labels (sweepLabels); the current batch in red. A label
 * that would run into another is left out (the current batch's never: labels.ts); hovering a point tells its batch and
 * numbers.
 */
export function sweepChart(points: SweepDatum[], current: SweepCurrent, width: number): HTMLElement {
  const all = [...points].sort((a, b) => a.batch - b.batch);
  const pts = all.filter((p) => p.fits);
  const misfits = all.filter((p) => !p.fits);
  const here =
    Number.isFinite(current.latency) &&
    Number.isFinite(current.throughput) &&
    current.latency > 0 &&
    current.throughput > 0
      ? [current]
      : [];
  const chart = Plot.plot({
    width,
    height: 320,
    marginLeft: 70,
    marginRight: 24,
    marginBottom: 40,
    style: { fontSize: '11px', background: 'transparent' },
    x: {
      type: 'log',
      label: 'Latency per token →',
      grid: true,
      ticks: 5,
      tickFormat: (v: number) => fmtSeconds(v),
      inset: 14,
    },
    // Room above the top point and below the lowest for their labels.
    y: {
      type: 'log',
      label: '↑ Throughput (tokens/s per chip)',
      grid: true,
      tickFormat: (v: number) => fmtCount(v),
      inset: 22,
    },
    color: { type: 'log', scheme: 'viridis', label: 'Batch size', legend: true },
    marks: [
      Plot.line(pts, { x: 'latency_per_token_s', y: 'tokens_per_s_per_chip', stroke: SWEEP.line, strokeWidth: 1.5 }),
      Plot.dot(pts, {
        x: 'latency_per_token_s',
        y: 'tokens_per_s_per_chip',
        fill: 'batch',
        r: SWEEP_R.point,
        stroke: '#fff',
        strokeWidth: 0.5,
      }),
      Plot.dot(misfits, {
        x: 'latency_per_token_s',
        y: 'tokens_per_s_per_chip',
        fill: '#fff',
        stroke: SWEEP.misfit,
        strokeWidth: 1.2,
        r: SWEEP_R.misfit,
      }),
      Plot.dot(here, {
        x: 'latency',
        y: 'throughput',
        r: SWEEP_R.current,
        stroke: SWEEP.current,
        strokeWidth: 2,
        fill: 'none',
      }),
      pointLabels(sweepLabels(pts, here), sweepDots(all, here)),
      Plot.tip(all, Plot.pointer({ x: 'latency_per_token_s', y: 'tokens_per_s_per_chip', title: sweepTip })),
    ],
  });
  return withLegend(
    withTable(chart, {
      caption: 'Latency against throughput',
      columns: ['Batch', 'Latency per token', 'Tokens/s per chip', 'Fits in HBM'],
      rows: all.map((d) => [
        fmtCount(d.batch),
        fmtSeconds(d.latency_per_token_s),
        fmtCount(d.tokens_per_s_per_chip),
        d.fits ? 'yes' : 'no (hollow points)',
      ]),
    }),
    sweepLegend(batchRamp(chart, pts), misfits.length > 0, here.length > 0),
  );
}

/** The frontier's batch colours, low to high, sampled from the chart's log colour scale (for the legend's ramp). */
function batchRamp(chart: ReturnType<typeof Plot.plot>, pts: readonly SweepDatum[]): BatchRamp | null {
  const colour = chart.scale('color');
  if (!colour || pts.length === 0) return null;
  const from = Math.min(...pts.map((p) => p.batch));
  const to = Math.max(...pts.map((p) => p.batch));
  const colours = Array.from({ length: 8 }, (_, i) => String(colour.apply(from * (to / from) ** (i / 7))));
  return { colours, from, to };
}

export { paretoChart, type ParetoDatum } from './pareto';
