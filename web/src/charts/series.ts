// The series of the explorer's charts: the colour each is drawn in (plots.ts reads them here) and its legend entry,
// so a chart's marks and its key cannot drift apart. A legend lists the series a chart draws this time (a chart
// with no point that fails to fit has no "does not fit" key).
import { COLOURS, fmtCount } from './format';
import type { LegendEntry } from './legend';

/** The roofline: the chip's curve, one coloured symbol per matmul, the ridge as a dashed rule. */
export const ROOFLINE = { curve: COLOURS.roofline, ridge: COLOURS.pinned, opFillOpacity: 0.35 } as const;

/** A matmul's key on the roofline: its colour and symbol outline, read from the chart's own scales. */
export interface OpKey {
  name: string;
  colour: string;
  path: string;
}

export function rooflineLegend(ops: readonly OpKey[], ridge: boolean): LegendEntry[] {
  return [
    { label: 'Roofline: attainable FLOP/s per chip', swatch: { kind: 'line', colour: ROOFLINE.curve } },
    ...ops.map((o): LegendEntry => ({
      label: o.name,
      swatch: { kind: 'dot', colour: o.colour, path: o.path, fillOpacity: ROOFLINE.opFillOpacity },
    })),
    ...(ridge
      ? [
          {
            label: 'Ridge point (compute-bound to its right)',
            swatch: { kind: 'line', colour: ROOFLINE.ridge, dashed: true },
          } satisfies LegendEntry,
        ]
      : []),
  ];
}

/** Step time (or latency) against chips: clean points on the line, the current one, hollow ones that warn or do not fit. */
export const SCALING = {
  line: COLOURS.compute,
  current: COLOURS.highlight,
  warned: COLOURS.memory,
  misfit: COLOURS.invalid,
} as const;

export interface ScalingKeyDatum {
  current: boolean;
  fits: boolean;
  warning?: string | undefined;
}

export function scalingLegend(points: readonly ScalingKeyDatum[], valueLabel: string): LegendEntry[] {
  const clean = points.filter((d) => d.fits && !d.warning);
  // The line joins every point; its dots are the clean points, when there are any.
  const out: LegendEntry[] = [
    clean.length
      ? { label: `${valueLabel}, fits in HBM`, swatch: { kind: 'line', colour: SCALING.line, dot: true } }
      : { label: valueLabel, swatch: { kind: 'line', colour: SCALING.line } },
  ];
  if (clean.some((d) => d.current))
    out.push({ label: 'current plan', swatch: { kind: 'dot', colour: SCALING.current } });
  if (points.some((d) => d.fits && d.warning))
    out.push({ label: 'runs, with a warning', swatch: { kind: 'hollow', colour: SCALING.warned } });
  if (points.some((d) => !d.fits))
    out.push({ label: 'does not fit in HBM', swatch: { kind: 'hollow', colour: SCALING.misfit } });
  return out;
}

/** The serving frontier: one point per batch coloured by the batch (a ramp), hollow batches that do not fit, the current batch ringed. */
export const SWEEP = { line: '#999', misfit: COLOURS.invalid, current: COLOURS.highlight } as const;

/** The batch colours low to high (sampled from the chart's colour scale) and the batches they run between. */
export interface BatchRamp {
  colours: readonly string[];
  from: number;
  to: number;
}

export function sweepLegend(ramp: BatchRamp | null, misfits: boolean, current: boolean): LegendEntry[] {
  const out: LegendEntry[] = [];
  if (ramp)
    out.push({
      label: `batch size ${fmtCount(ramp.from)} to ${fmtCount(ramp.to)}, one point each`,
      swatch: { kind: 'ramp', colours: ramp.colours },
    });
  if (misfits) out.push({ label: 'KV caches do not fit in HBM', swatch: { kind: 'hollow', colour: SWEEP.misfit } });
  if (current) out.push({ label: 'current batch', swatch: { kind: 'ring', colour: SWEEP.current } });
  return out;
}
