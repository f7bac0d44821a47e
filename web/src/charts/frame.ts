// A chart as a file that reads on its own (issue 22): its title (the page's words) at the top, its legend under it,
// then the plot, all in one SVG. Pure text layout: the plot arrives as markup, text widths come from `measure` (the
// browser's canvas when exporting; a conservative estimate otherwise), and every text is escaped as XML.
import type { LegendEntry, Swatch } from './legend';

export interface FrameInput {
  title: string;
  legend: readonly LegendEntry[];
  /** The plot's own <svg> markup and its size in px. */
  plot: { markup: string; width: number; height: number };
  /** Style rules the plot needs (Plot's, moved off the page's chart by plot-css.ts). */
  css?: string;
  /** Width in px of a text at a font size (bold or not). */
  measure?: (text: string, px: number, bold: boolean) => number;
}

export interface Framed {
  text: string;
  width: number;
  height: number;
}

const FONT = 'system-ui, sans-serif';
const PAD = 14;
const TITLE_PX = 15;
const TITLE_LINE = 20;
const LEGEND_PX = 12;
const LEGEND_ROW = 20;
const SWATCH = 18;
const RAMP = 44;
const GAP = 6;
const ENTRY_GAP = 18;

/** Wide enough for most sans-serif faces, so an estimated layout never overlaps. */
export const estimateWidth = (text: string, px: number, bold: boolean): number =>
  text.length * px * (bold ? 0.64 : 0.6);

export function escapeXml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!);
}

/** Words filled into lines no wider than `max`. */
function wrap(text: string, max: number, width: (t: string) => number): string[] {
  const lines: string[] = [];
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const last = lines.at(-1);
    if (last !== undefined && width(`${last} ${word}`) <= max) lines[lines.length - 1] = `${last} ${word}`;
    else lines.push(word);
  }
  return lines;
}

const swatchWidth = (s: Swatch): number => (s.kind === 'ramp' ? RAMP : SWATCH);

/** A swatch's marks, its left edge at 0 and its middle at y = 0. */
function swatchMarks(s: Swatch): string {
  const c = (v: string): string => escapeXml(v);
  switch (s.kind) {
    case 'line':
      return (
        `<line x1="0" y1="0" x2="${SWATCH}" y2="0" stroke="${c(s.colour)}" stroke-width="2"${s.dashed ? ' stroke-dasharray="4 3"' : ''}/>` +
        (s.dot ? `<circle cx="${SWATCH / 2}" cy="0" r="4" fill="${c(s.colour)}"/>` : '')
      );
    case 'dot':
      return s.path
        ? `<path transform="translate(${SWATCH / 2},0)" d="${c(s.path)}" fill="${c(s.colour)}" fill-opacity="${s.fillOpacity ?? 1}" stroke="${c(s.colour)}" stroke-width="2"/>`
        : `<circle cx="${SWATCH / 2}" cy="0" r="5" fill="${c(s.colour)}"/>`;
    case 'hollow':
      return `<circle cx="${SWATCH / 2}" cy="0" r="4.5" fill="#fff" stroke="${c(s.colour)}" stroke-width="1.5"/>`;
    case 'ring':
      return `<circle cx="${SWATCH / 2}" cy="0" r="7" fill="none" stroke="${c(s.colour)}" stroke-width="2"/>`;
    case 'ramp': {
      const w = RAMP / Math.max(1, s.colours.length);
      return s.colours
        .map(
          (col, i) =>
            `<rect x="${(i * w).toFixed(2)}" y="-5" width="${(w + 0.3).toFixed(2)}" height="10" fill="${c(col)}"/>`,
        )
        .join('');
    }
  }
}

/** The legend's entries flowed into rows within `max` px; returns the markup (top at y = 0) and its height. */
function legendMarkup(
  entries: readonly LegendEntry[],
  max: number,
  measure: NonNullable<FrameInput['measure']>,
): { markup: string; height: number } {
  let x = 0;
  let row = 0;
  const parts: string[] = [];
  for (const e of entries) {
    const w = swatchWidth(e.swatch) + GAP + measure(e.label, LEGEND_PX, false);
    if (x > 0 && x + w > max) {
      x = 0;
      row++;
    }
    const y = row * LEGEND_ROW + LEGEND_ROW / 2;
    parts.push(
      `<g data-legend-entry="" transform="translate(${x.toFixed(1)},${y})">${swatchMarks(e.swatch)}` +
        `<text x="${swatchWidth(e.swatch) + GAP}" y="0" dy="0.35em" font-size="${LEGEND_PX}" fill="#222">${escapeXml(e.label)}</text></g>`,
    );
    x += w + ENTRY_GAP;
  }
  return { markup: parts.join(''), height: entries.length ? (row + 1) * LEGEND_ROW : 0 };
}

/** The title, the legend and the plot in one standalone SVG. */
export function framedSvg(f: FrameInput): Framed {
  const measure = f.measure ?? estimateWidth;
  const width = Math.max(300, Math.round(f.plot.width));
  const inner = width - 2 * PAD;
  const lines = wrap(f.title, inner, (t) => measure(t, TITLE_PX, true));
  const titleMarkup = lines
    .map(
      (l, i) =>
        `<text x="${PAD}" y="${PAD + i * TITLE_LINE}" dy="0.8em" font-size="${TITLE_PX}" font-weight="600" fill="#111">${escapeXml(l)}</text>`,
    )
    .join('');
  const legendTop = PAD + lines.length * TITLE_LINE + 4;
  const legend = legendMarkup(f.legend, inner, measure);
  const plotTop = legendTop + legend.height + (legend.height ? 8 : 0);
  const height = Math.round(plotTop + f.plot.height + PAD / 2);
  const text =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="${FONT}">` +
    `<title>${escapeXml(f.title)}</title>` +
    (f.css ? `<style><![CDATA[\n${f.css.replaceAll(']]>', ']]]]><![CDATA[>')}\n]]></style>` : '') +
    `<rect width="${width}" height="${height}" fill="#fff"/>` +
    `<g data-title="">${titleMarkup}</g>` +
    `<g data-legend="" transform="translate(${PAD},${legendTop})">${legend.markup}</g>` +
    `<svg x="0" y="${plotTop}" width="${Math.round(f.plot.width)}" height="${Math.round(f.plot.height)}" overflow="visible">${f.plot.markup}</svg>` +
    `</svg>`;
  return { text, width, height };
}
