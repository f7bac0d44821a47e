// The goodput chart's data (issue 38): the engine's goodput.scaling, the same run at 1/16 to 64 times its chips with a
// perfect step while failures grow with the chips, as two series of time to train over chips. Plain data (no Plot),
// so the page's first load and the unit tests read it without the chart library; plots.ts draws it.
import type { GoodputResult } from '../engine/types';
import { COLOURS, fmtCount, fmtPercent, fmtSeconds } from './format';
import type { LegendEntry } from './legend';

export type GoodputSeries = 'useful' | 'wall';

export const GOODPUT = {
  colour: { useful: COLOURS.compute, wall: COLOURS.memory },
  label: { useful: 'Failure-free', wall: 'With failures' },
  current: COLOURS.highlight,
} as const;

export interface GoodputDatum {
  chips: number;
  series: GoodputSeries;
  time_s: number;
  /** The chip count on screen. */
  current: boolean;
}

/** Both series, failure-free first; a size whose job never finishes (wall_time_s null) has no wall-time point. */
export function goodputData(g: GoodputResult, chips: number): GoodputDatum[] {
  const point = (chipsAt: number, series: GoodputSeries, time_s: number): GoodputDatum => ({
    chips: chipsAt,
    series,
    time_s,
    current: chipsAt === chips,
  });
  return [
    ...g.scaling.map((p) => point(p.chips, 'useful', p.useful_time_s)),
    ...g.scaling.flatMap((p) => (p.wall_time_s === null ? [] : [point(p.chips, 'wall', p.wall_time_s)])),
  ];
}

/** Where adding chips stops paying, in the engine's number (its null: still paying at 1,024 times these chips). */
export function goodputNote(g: GoodputResult): string {
  if (g.scaling.every((p) => p.wall_time_s === null))
    return 'At none of these sizes does the job finish: it fails faster than it can save and restart.';
  const n = g.chips_at_shortest_wall_time;
  return n === null
    ? 'Adding chips still shortens the run at 1,024 times these chips, failures included.'
    : `Past ${fmtCount(n)} chips, failures cost more time than the chips save.`;
}

/** The chart's numbers as table rows: chips, failure-free, with failures, goodput. */
export function goodputRows(g: GoodputResult, chips: number): string[][] {
  return g.scaling.map((p) => [
    `${fmtCount(p.chips)}${p.chips === chips ? ' (current)' : ''}`,
    fmtSeconds(p.useful_time_s),
    p.wall_time_s === null ? 'never finishes' : fmtSeconds(p.wall_time_s),
    fmtPercent(p.goodput_frac),
  ]);
}

export function goodputLegend(data: readonly GoodputDatum[]): LegendEntry[] {
  const out: LegendEntry[] = (['useful', 'wall'] as const)
    .filter((s) => data.some((d) => d.series === s))
    .map((s) => ({
      label: `${GOODPUT.label[s]}: time to train`,
      swatch: { kind: 'line', colour: GOODPUT.colour[s], dot: true },
    }));
  if (data.some((d) => d.current))
    out.push({ label: 'current chip count', swatch: { kind: 'ring', colour: GOODPUT.current } });
  return out;
}
