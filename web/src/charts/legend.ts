// A chart's legend as data (issue 22: an exported chart carries its colour keys): one entry per series, with a swatch
// drawn like the series' marks. The chart functions (plots.ts, from series.ts) attach the entries to the figure they
// return; the export (export.ts) reads them back and draws them into the file (frame.ts).

export type Swatch =
  /** A line (a curve, a rule), with a point on it when the series is drawn as points joined by a line. */
  | { kind: 'line'; colour: string; dashed?: boolean; dot?: boolean }
  /** A filled point; `path` is the symbol's outline centred on 0,0 (a circle without it). */
  | { kind: 'dot'; colour: string; path?: string; fillOpacity?: number }
  /** A hollow point: white inside, the colour as its outline (configurations that do not fit, or warn). */
  | { kind: 'hollow'; colour: string }
  /** A ring around a point (the configuration on screen). */
  | { kind: 'ring'; colour: string }
  /** A colour ramp (a continuous scale), low to high. */
  | { kind: 'ramp'; colours: readonly string[] };

export interface LegendEntry {
  label: string;
  swatch: Swatch;
}

const legends = new WeakMap<Element, readonly LegendEntry[]>();

/** Attaches a chart's legend to the figure a chart function returns. */
export function withLegend<T extends Element>(figure: T, entries: readonly LegendEntry[]): T {
  legends.set(figure, entries);
  return figure;
}

/** The legend attached to a figure (none: an empty list). */
export function legendOf(figure: Element | null | undefined): readonly LegendEntry[] {
  return (figure && legends.get(figure)) || [];
}
