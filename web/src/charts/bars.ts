// Plain-SVG stacked bars (fast enough to redraw on every slider move): time per component, memory per chip.
import { svg, html, nothing, type TemplateResult } from 'lit';

export interface Segment {
  label: string;
  value: number;
  colour: string;
}

export interface BarRow {
  label: string;
  segments: Segment[];
  note?: string;
  emphasis?: boolean;
}

export interface Marker {
  value: number;
  label: string;
  colour: string;
}

const W = 640;
const ROW_H = 26;
const LABEL_W = 150;
const PAD_R = 20;

/** The value beside a bar, or inside its end when there is no room (a white halo keeps it readable on any colour). */
function valueLabel(xEnd: number, y: number, text: string): TemplateResult {
  const room = W - PAD_R - xEnd - 6 > text.length * 6.2;
  return svg`<text x=${room ? xEnd + 5 : xEnd - 5} y=${y} class="val" text-anchor=${room ? 'start' : 'end'} paint-order="stroke" stroke="#fff" stroke-width="3" stroke-linejoin="round">${text}</text>`;
}

/** Rows of stacked horizontal bars on one linear scale, with optional vertical markers (step time, HBM). */
export function stackedBars(rows: BarRow[], markers: Marker[], format: (v: number) => string, title: string): TemplateResult {
  const total = (r: BarRow): number => r.segments.reduce((a, s) => a + Math.max(0, s.value), 0);
  const max = Math.max(1e-300, ...rows.map(total), ...markers.map((m) => m.value)) * 1.04;
  const plotW = W - LABEL_W - PAD_R;
  const x = (v: number): number => LABEL_W + (Math.max(0, v) / max) * plotW;
  const markerSpace = markers.length ? 18 : 0;
  const h = markerSpace + rows.length * ROW_H + 22;
  const legend = new Map<string, string>();
  for (const r of rows) for (const s of r.segments) if (s.value > 0) legend.set(s.label, s.colour);
  return html`
    <figure class="bars">
      <svg viewBox="0 0 ${W} ${h}" role="img" aria-label=${title} preserveAspectRatio="xMinYMin meet">
        ${rows.map((r, i) => {
          const y = markerSpace + i * ROW_H;
          let acc = 0;
          return svg`
            <text x=${LABEL_W - 8} y=${y + ROW_H / 2 + 4} text-anchor="end" class=${r.emphasis ? 'lbl crit' : 'lbl'}>${r.label}</text>
            ${r.segments.filter((s) => s.value > 0).map((s) => {
              const x0 = x(acc);
              acc += s.value;
              const w = Math.max(0.5, x(acc) - x0);
              return svg`<rect x=${x0} y=${y + 4} width=${w} height=${ROW_H - 8} fill=${s.colour} stroke="#fff" stroke-width="0.5"><title>${s.label}: ${format(s.value)}</title></rect>`;
            })}
            ${valueLabel(x(total(r)), y + ROW_H / 2 + 4, `${format(total(r))}${r.note ? ` · ${r.note}` : ''}`)}`;
        })}
        ${markers.map(
          (m) => svg`
            <line x1=${x(m.value)} x2=${x(m.value)} y1=${markerSpace - 4} y2=${h - 20} stroke=${m.colour} stroke-width="2" stroke-dasharray="4 3"></line>
            <text x=${x(m.value)} y=${11} text-anchor=${x(m.value) > W - 120 ? 'end' : 'middle'} class="mk" fill=${m.colour}>${m.label}</text>`,
        )}
        <line x1=${LABEL_W} x2=${W - PAD_R} y1=${h - 18} y2=${h - 18} stroke="#999"></line>
        <text x=${LABEL_W} y=${h - 5} class="tick">0</text>
        <text x=${W - PAD_R} y=${h - 5} class="tick" text-anchor="end">${format(max)}</text>
      </svg>
      <figcaption class="legend">
        ${[...legend].map(([label, colour]) => html`<span><i style="background:${colour}"></i>${label}</span>`)}
        ${legend.size === 0 ? nothing : ''}
      </figcaption>
    </figure>
  `;
}
