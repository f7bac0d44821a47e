// Observable Plot charts for the widgets, loaded only when a widget with a chart has numbers to draw. The roofline
// is the explorer's own chart; the others are lines on log axes (the book's figures use log axes). Scales, units
// and colours come from src/charts/format.ts.
import * as Plot from '@observablehq/plot';
import { COLOURS } from '../charts/format';
import { withTable } from '../charts/table';

export { rooflineChart } from '../charts/plots';

export interface Series {
  name: string;
  points: { x: number; y: number }[];
  colour: string;
  /** Drawn thicker; others thinner and lighter. */
  emphasis?: boolean;
}

export interface Mark {
  x: number;
  y: number;
  label: string;
}

export interface LinesOptions {
  xLabel: string;
  yLabel: string;
  xFormat: (v: number) => string;
  yFormat: (v: number) => string;
  width: number;
  height?: number;
  xLog?: boolean;
  yLog?: boolean;
  marks?: Mark[];
  rules?: { x: number; label: string }[];
}

/** Lines on (log) axes with a legend, highlighted points and vertical rules; its numbers as a table under it. */
export function linesChart(series: Series[], o: LinesOptions): Element {
  const rows = series.flatMap((s) =>
    s.points
      .filter((p) => Number.isFinite(p.x) && Number.isFinite(p.y) && (!o.yLog || p.y > 0) && (!o.xLog || p.x > 0))
      .map((p) => ({ ...p, name: s.name })),
  );
  const strong = new Set(series.filter((s) => s.emphasis !== false).map((s) => s.name));
  const marks: Plot.Markish[] = [
    Plot.line(
      rows.filter((r) => !strong.has(r.name)),
      { x: 'x', y: 'y', z: 'name', stroke: 'name', strokeWidth: 1.3, strokeOpacity: 0.6 },
    ),
    Plot.line(
      rows.filter((r) => strong.has(r.name)),
      { x: 'x', y: 'y', z: 'name', stroke: 'name', strokeWidth: 2.4 },
    ),
  ];
  for (const r of o.rules ?? []) {
    marks.push(Plot.ruleX([r.x], { stroke: COLOURS.pinned, strokeDasharray: '4 3' }));
    marks.push(
      Plot.text([r.x], {
        x: (d: number) => d,
        frameAnchor: 'top',
        dy: 4,
        dx: 4,
        textAnchor: 'start',
        text: () => r.label,
        fontSize: 10,
        fill: '#555',
      }),
    );
  }
  const pts = (o.marks ?? []).filter((m) => Number.isFinite(m.x) && Number.isFinite(m.y));
  marks.push(Plot.dot(pts, { x: 'x', y: 'y', r: 5, fill: COLOURS.highlight, stroke: '#fff' }));
  marks.push(
    Plot.text(pts, { x: 'x', y: 'y', text: 'label', dy: -11, fill: COLOURS.highlight, fontSize: 11, fontWeight: 600 }),
  );
  marks.push(
    Plot.tip(
      rows,
      Plot.pointer({
        x: 'x',
        y: 'y',
        title: (d: { x: number; y: number; name: string }) => `${d.name}\n${o.xFormat(d.x)} → ${o.yFormat(d.y)}`,
      }),
    ),
  );
  const chart = Plot.plot({
    width: o.width,
    height: o.height ?? 260,
    marginLeft: 64,
    marginRight: 16,
    style: { fontSize: '11px', background: 'transparent' },
    x: {
      type: o.xLog === false ? 'linear' : 'log',
      label: o.xLabel,
      grid: true,
      ticks: Math.max(3, Math.floor(o.width / 110)),
      tickFormat: o.xFormat,
    },
    y: { type: o.yLog === false ? 'linear' : 'log', label: o.yLabel, grid: true, ticks: 5, tickFormat: o.yFormat },
    color: { legend: series.length > 1, domain: series.map((s) => s.name), range: series.map((s) => s.colour) },
    marks,
  });
  const xs = [...new Set(rows.map((r) => r.x))].sort((a, b) => a - b);
  return withTable(chart, {
    caption: o.yLabel.replace(/^↑\s*/, ''),
    columns: [o.xLabel.replace(/\s*→$/, ''), ...series.map((s) => s.name)],
    rows: xs.map((x) => [
      o.xFormat(x),
      ...series.map((s) => {
        const p = s.points.find((q) => q.x === x);
        return p && Number.isFinite(p.y) ? o.yFormat(p.y) : '—';
      }),
    ]),
  });
}
