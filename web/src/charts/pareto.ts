// The plan search's Pareto front (docs/api.md `plan_search`: `pareto`, fastest first, memory falling): step time
// against memory per chip, one point per plan, with HBM (and the fit limit a headroom leaves) as lines, so each
// point's memory reads against it. The ranked plans the list shows are ringed and numbered; plans that do not fit
// are hollow and grey. Each point is a button (click, Enter or Space) that picks its plan; the numbers, cost
// included, are the table under the chart.
import * as Plot from '@observablehq/plot';
import type { SearchedPlanCore } from '../engine/types';
import { COLOURS, fmtBytes, fmtSeconds, fmtUsd, sig, tickFormatSI } from './format';
import { withTable } from './table';
import { pointLabels, type PointLabel } from './labels';

export interface ParetoDatum {
  plan: SearchedPlanCore;
  /** Its number in the page's list (1 = best), when listed. */
  listed: number | undefined;
  /** On the front (a listed plan can sit behind it: drawn, but not joined to the front's line). */
  front: boolean;
  /** The plan in words (degrees), for labels and the table. */
  label: string;
}

export interface ParetoOptions {
  hbmBytes: number;
  /** Memory a plan may use to count as fitting: (1 − headroom) × HBM. */
  fitLimitBytes: number;
  width: number;
  /** Called with the datum whose point was clicked or pressed. */
  onPick: (d: ParetoDatum) => void;
}

const pointTitle = (d: ParetoDatum): string =>
  `${d.listed ? `#${d.listed} ` : ''}${d.label}: ${fmtSeconds(d.plan.step_s)} per step, ${fmtBytes(d.plan.memory_bytes)} per chip${d.plan.fits ? '' : ' (does not fit)'}, ${fmtUsd(d.plan.train_usd)} to train`;

/** Makes Plot's dots keyboard and pointer buttons: Plot draws them in data order, one circle per datum. */
function pickable(svg: Element, data: readonly ParetoDatum[], onPick: (d: ParetoDatum) => void): void {
  svg.querySelectorAll('g.pareto-points circle').forEach((c, i) => {
    const d = data[i];
    if (!d) return;
    c.setAttribute('tabindex', '0');
    c.setAttribute('role', 'button');
    c.setAttribute('data-point', String(i));
    c.setAttribute('data-step', String(d.plan.step_s));
    c.setAttribute('aria-label', `Apply ${pointTitle(d)}`);
    c.addEventListener('click', () => onPick(d));
    c.addEventListener('keydown', (e) => {
      const k = (e as KeyboardEvent).key;
      if (k === 'Enter' || k === ' ') {
        e.preventDefault();
        onPick(d);
      }
    });
  });
}

/** The time axis's label; steps within 1% of each other would read as one number on every tick, so it says so. */
function spreadLabel(steps: number[]): string {
  const spread = Math.max(...steps) / Math.min(...steps) - 1;
  return spread < 0.01 ? `Step time (all within ${sig(Math.max(spread * 100, 0.001))}%) →` : 'Step time →';
}

export function paretoChart(data: ParetoDatum[], o: ParetoOptions): HTMLElement {
  const listed = data.filter((d) => d.listed !== undefined);
  const x = (d: ParetoDatum): number => d.plan.step_s;
  const y = (d: ParetoDatum): number => d.plan.memory_bytes;
  const limits = [{ bytes: o.hbmBytes, text: `HBM ${fmtBytes(o.hbmBytes)}` }];
  if (o.fitLimitBytes < o.hbmBytes)
    limits.push({ bytes: o.fitLimitBytes, text: `fit limit ${fmtBytes(o.fitLimitBytes)}` });
  // Log memory: the front runs from plans near HBM down to a few GB, and the slow end would sit on the axis otherwise.
  const top = Math.max(o.hbmBytes, ...data.map(y)) * 1.25;
  const bottom = Math.min(o.fitLimitBytes, ...data.map(y)) / 1.25; // HBM stays in view when nothing fits
  // Log time when the steps span a wide range; plans within a few per cent of each other get a linear axis, whose
  // ticks still land inside the domain.
  const steps = data.map(x);
  const logX = Math.max(...steps) / Math.min(...steps) > 2;
  // The lines' labels at their right ends, HBM's above its line and the fit limit's below (10% headroom puts the two
  // lines close); then the best plan's number (only the best: the listed plans often tie within 1%, and their numbers
  // would pile up) and the first plan that does not fit.
  const labels: PointLabel[] = [
    ...limits.map((l, i): PointLabel => ({
      x: Math.max(...steps),
      y: l.bytes,
      r: 0,
      text: l.text,
      fill: '#333',
      fontSize: 10,
      required: true,
      slots: i === 0 ? ['above-left', 'below-left'] : ['below-left', 'above-left'],
    })),
    ...listed
      .filter((d) => d.listed === 1)
      .map((d): PointLabel => ({
        x: x(d),
        y: y(d),
        r: 8,
        text: '#1',
        fill: COLOURS.highlight,
        bold: true,
        required: true,
        slots: ['right', 'left', 'above', 'below'],
      })),
    ...data
      .filter((d) => !d.plan.fits)
      .slice(0, 1)
      .map((d): PointLabel => ({
        x: x(d),
        y: y(d),
        r: 4.5,
        text: 'does not fit',
        fill: COLOURS.invalid,
        fontSize: 10,
        slots: ['below-right', 'right', 'above-right', 'below-left', 'left', 'above-left'],
      })),
  ];
  const chart = Plot.plot({
    width: o.width,
    height: 260,
    marginLeft: 64,
    marginRight: 16,
    style: { fontSize: '11px', background: 'transparent' },
    x: {
      type: logX ? 'log' : 'linear',
      label: spreadLabel(steps),
      grid: true,
      ticks: logX ? 5 : 4,
      tickFormat: (v: number) => fmtSeconds(v),
      inset: 10,
    },
    // Room above HBM's line for its label.
    y: {
      type: 'log',
      label: '↑ Memory per chip',
      domain: [bottom, top],
      grid: true,
      ticks: 5,
      tickFormat: tickFormatSI('B'),
      insetTop: 12,
    },
    marks: [
      Plot.ruleY(limits.slice(0, 1), { y: 'bytes', stroke: COLOURS.hbmLine }),
      Plot.ruleY(limits.slice(1), { y: 'bytes', stroke: COLOURS.hbmLine, strokeDasharray: '4 3' }),
      Plot.line(
        data.filter((d) => d.front),
        { x, y, stroke: '#999', strokeWidth: 1, curve: 'step-after' },
      ),
      Plot.dot(data, {
        x,
        y,
        r: 4.5,
        className: 'pareto-points',
        strokeWidth: 1.5,
        fill: (d: ParetoDatum) => (d.plan.fits ? COLOURS.compute : '#fff'),
        stroke: (d: ParetoDatum) => (d.plan.fits ? '#fff' : COLOURS.invalid),
        title: pointTitle,
      }),
      Plot.dot(listed, { x, y, r: 8, stroke: COLOURS.highlight, strokeWidth: 2, fill: 'none' }),
      pointLabels(labels, [
        ...data.map((d) => ({ x: x(d), y: y(d), r: 4.5 })),
        ...listed.map((d) => ({ x: x(d), y: y(d), r: 8 })),
      ]),
    ],
  });
  pickable(chart, data, o.onPick);
  return withTable(chart, {
    caption: 'Pareto front',
    columns: ['Plan', 'Step time', 'Memory per chip', 'Of HBM', 'Fits', 'Cost to train', 'In the list'],
    rows: data.map((d) => [
      d.label,
      fmtSeconds(d.plan.step_s),
      fmtBytes(d.plan.memory_bytes),
      `${Math.round((100 * d.plan.memory_bytes) / o.hbmBytes)}%`,
      d.plan.fits ? 'yes' : 'no (hollow point)',
      fmtUsd(d.plan.train_usd),
      d.listed ? `#${d.listed}` : '',
    ]),
  });
}
