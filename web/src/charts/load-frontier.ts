// The interactivity frontier's data (issue 35): the engine's load.frontier, one point per concurrency, as serving
// benchmarks draw it (output tokens/s per GPU against tokens/s per user), with the concurrency on screen marked.
// Plain data (no Plot), so the unit tests read it without the chart library; plots.ts draws it.
import type { ServingResult } from '../engine/types';
import { COLOURS, fmtCount, fmtSeconds } from './format';
import type { LegendEntry } from './legend';
import type { Dot, PointLabel, Slot } from './labels';

type Load = NonNullable<ServingResult['load']>;

export const LOAD_FRONTIER = {
  line: COLOURS.compute,
  /** Concurrencies past the KV slots: the extra requests queue, and throughput stops growing. */
  queued: COLOURS.invalid,
  current: COLOURS.highlight,
  r: { point: 4, current: 8 },
} as const;

export interface LoadFrontierDatum {
  concurrency: number;
  in_flight: number;
  per_chip: number;
  per_user: number;
  ttft_s: number;
  tpot_s: number;
  /** Some requests wait for a KV slot (fewer in flight than the concurrency). */
  queued: boolean;
}

/** The concurrency on screen (the load itself: it need not be one of the frontier's powers of two). */
export interface LoadFrontierCurrent {
  concurrency: number;
  per_chip: number;
  per_user: number;
}

const drawable = (x: number, y: number): boolean => Number.isFinite(x) && Number.isFinite(y) && x > 0 && y > 0;

/** The frontier's points the log axes can draw, lowest concurrency first. */
export function loadFrontierData(load: Load): LoadFrontierDatum[] {
  return (load.frontier ?? [])
    .map((p) => ({
      concurrency: p.concurrency,
      in_flight: p.in_flight,
      per_chip: p.output_tokens_per_s_per_chip,
      per_user: p.tokens_per_s_per_user,
      ttft_s: p.time_to_first_token_s,
      tpot_s: p.time_per_output_token_s,
      queued: p.in_flight < p.concurrency,
    }))
    .filter((d) => drawable(d.per_user, d.per_chip))
    .sort((a, b) => a.concurrency - b.concurrency);
}

/** The load's own point, when it served anything. */
export function loadFrontierCurrent(load: Load): LoadFrontierCurrent[] {
  return load.fits && drawable(load.tokens_per_s_per_user, load.output_tokens_per_s_per_chip)
    ? [
        {
          concurrency: load.concurrency,
          per_chip: load.output_tokens_per_s_per_chip,
          per_user: load.tokens_per_s_per_user,
        },
      ]
    : [];
}

/** Every point as drawn (labels keep clear of them all). */
export function loadFrontierDots(data: readonly LoadFrontierDatum[], current: readonly LoadFrontierCurrent[]): Dot[] {
  return [
    ...data.map((d) => ({ x: d.per_user, y: d.per_chip, r: LOAD_FRONTIER.r.point })),
    ...current.map((c) => ({ x: c.per_user, y: c.per_chip, r: LOAD_FRONTIER.r.current })),
  ];
}

/** Neighbours' labels on opposite sides of the curve first: where throughput saturates, points crowd side by side. */
const SIDES: readonly (readonly Slot[])[] = [
  ['above-right', 'above', 'right', 'below-left', 'below', 'left'],
  ['below-left', 'below', 'left', 'above-right', 'above', 'right'],
];

/**
 * Labels, most important first: the concurrency on screen (always drawn), then each other point's concurrency; one
 * that would run into another is left out by labels.ts (its tooltip and the table keep it).
 */
export function loadFrontierLabels(
  data: readonly LoadFrontierDatum[],
  current: readonly LoadFrontierCurrent[],
): PointLabel[] {
  const here = new Set(current.map((c) => c.concurrency));
  return [
    ...current.map((c): PointLabel => ({
      x: c.per_user,
      y: c.per_chip,
      r: LOAD_FRONTIER.r.current,
      text: `current: ${fmtCount(c.concurrency)}`,
      fill: LOAD_FRONTIER.current,
      bold: true,
      required: true,
      slots: ['above-right', 'above', 'below-left', 'right', 'below', 'left'],
    })),
    ...data.flatMap((d, i): PointLabel[] =>
      here.has(d.concurrency)
        ? []
        : [
            {
              x: d.per_user,
              y: d.per_chip,
              r: LOAD_FRONTIER.r.point,
              text: fmtCount(d.concurrency),
              fill: '#333',
              fontSize: 10,
              slots: SIDES[i % 2]!,
            },
          ],
    ),
  ];
}

export const loadFrontierTip = (d: LoadFrontierDatum, chip: string): string =>
  `concurrency ${fmtCount(d.concurrency)}${d.queued ? ` (${fmtCount(d.in_flight)} in flight, the rest queued)` : ''}\n${fmtCount(d.per_chip)} tok/s per ${chip}\n${fmtCount(d.per_user)} tok/s per user\nTTFT ${fmtSeconds(d.ttft_s)}, TPOT ${fmtSeconds(d.tpot_s)}`;

/** The chart's numbers as table rows: concurrency, in flight, per chip, per user, TTFT, TPOT. */
export function loadFrontierRows(
  data: readonly LoadFrontierDatum[],
  current: readonly LoadFrontierCurrent[],
): string[][] {
  const here = new Set(current.map((c) => c.concurrency));
  return data.map((d) => [
    `${fmtCount(d.concurrency)}${here.has(d.concurrency) ? ' (current)' : ''}`,
    fmtCount(d.in_flight),
    fmtCount(d.per_chip),
    fmtCount(d.per_user),
    fmtSeconds(d.ttft_s),
    fmtSeconds(d.tpot_s),
  ]);
}

export function loadFrontierLegend(
  data: readonly LoadFrontierDatum[],
  current: readonly LoadFrontierCurrent[],
  chip: string,
): LegendEntry[] {
  const out: LegendEntry[] = [];
  if (data.some((d) => !d.queued))
    out.push({
      label: `one concurrency each (labelled): tokens/s per ${chip} and per user`,
      swatch: { kind: 'line', colour: LOAD_FRONTIER.line, dot: true },
    });
  if (data.some((d) => d.queued))
    out.push({
      label: 'more clients than KV slots: the rest queue',
      swatch: { kind: 'hollow', colour: LOAD_FRONTIER.queued },
    });
  if (current.length)
    out.push({ label: 'current concurrency', swatch: { kind: 'ring', colour: LOAD_FRONTIER.current } });
  return out;
}
