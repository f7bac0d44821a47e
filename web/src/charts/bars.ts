// Horizontal stacked bars (time per component, memory per chip) for the explorer and the widgets, built from HTML
// boxes rather than one scaled SVG, so their text stays at reading size (11 px and up) in any column, a phone's
// included (at a narrow width each label moves above its bar). Positions go through cssProps (CSSOM), never a style
// attribute, so the strict Content-Security-Policy holds. A row may carry a ghost: the pinned configuration's total,
// drawn as an outline behind the live bar. Every figure has its numbers as a table too (for screen readers and for
// copying).
import { html, nothing, type TemplateResult } from 'lit';
import { cssProps } from './css-props';

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
  /** The pinned configuration's total for this row (drawn as a ghost bar behind). */
  ghost?: number;
}

export interface Marker {
  value: number;
  label: string;
  colour: string;
  /** Named in the numbers table only: another marker's label above the track says it (two lines too close to label). */
  unlabelled?: boolean;
}

const pct = (v: number, max: number): string => `${((Math.max(0, v) / max) * 100).toFixed(3)}%`;
const total = (r: BarRow): number => r.segments.reduce((a, s) => a + Math.max(0, s.value), 0);

/** The figure's numbers as a table: one row per bar and segment (and the pinned totals). */
function numbersTable(rows: BarRow[], markers: Marker[], format: (v: number) => string, title: string): TemplateResult {
  const ghosts = rows.some((r) => r.ghost !== undefined);
  return html`<details class="numbers"><summary>${title}: the numbers</summary>
    <div class="table-wrap"><table class="data">
      <thead><tr><th scope="col">Bar</th><th scope="col">Part</th><th scope="col">Value</th>${ghosts ? html`<th scope="col">Pinned</th>` : nothing}</tr></thead>
      <tbody>
        ${rows.map(
          (r) => html`
          ${r.segments.filter((s) => s.value > 0).map((s) => html`<tr><th scope="row">${r.label}</th><td>${s.label}</td><td>${format(s.value)}</td>${ghosts ? html`<td></td>` : nothing}</tr>`)}
          <tr class="sum"><th scope="row">${r.label}</th><td>total${r.note ? ` (${r.note})` : ''}</td><td>${format(total(r))}</td>${ghosts ? html`<td>${r.ghost === undefined ? '—' : format(r.ghost)}</td>` : nothing}</tr>`,
        )}
        ${markers.map((m) => html`<tr><th scope="row">marker</th><td>${m.label}</td><td>${format(m.value)}</td>${ghosts ? html`<td></td>` : nothing}</tr>`)}
      </tbody>
    </table></div></details>`;
}

export function bars(rows: BarRow[], markers: Marker[], format: (v: number) => string, title: string): TemplateResult {
  const max =
    Math.max(1e-300, ...rows.map(total), ...rows.map((r) => r.ghost ?? 0), ...markers.map((m) => m.value)) * 1.04;
  const legend = new Map<string, string>();
  for (const r of rows) for (const s of r.segments) if (s.value > 0) legend.set(s.label, s.colour);
  const ghosts = rows.some((r) => r.ghost !== undefined);
  return html`<figure class="hb" aria-label=${title}>
    <figcaption class="hb-title">${title}</figcaption>
    ${
      markers.length
        ? html`<div class="hrow mk-row" aria-hidden="true"><span></span><div class="track">${markers.filter((m) => !m.unlabelled).map((m) => html`<span class="mk-label ${m.value / max > 0.8 ? 'end' : ''}" style=${cssProps({ left: pct(m.value, max), color: m.colour })}>${m.label}</span>`)}</div></div>`
        : nothing
    }
    ${rows.map((r) => {
      let acc = 0;
      const end = total(r) / max;
      const text = `${format(total(r))}${r.note ? ` · ${r.note}` : ''}`;
      return html`<div class="hrow">
        <span class="lbl ${r.emphasis ? 'crit' : ''}">${r.label}</span>
        <div class="track">
          ${r.ghost !== undefined ? html`<span class="ghost" style=${cssProps({ width: pct(r.ghost, max) })} title="pinned: ${format(r.ghost)}"></span>` : nothing}
          ${r.segments
            .filter((s) => s.value > 0)
            .map((s) => {
              const left = pct(acc, max);
              acc += s.value;
              return html`<span class="seg" style=${cssProps({ left, width: pct(s.value, max), background: s.colour })} title="${s.label}: ${format(s.value)}"></span>`;
            })}
          <span class="val ${end > 0.62 ? 'inside' : ''}" style=${cssProps(end > 0.62 ? { right: `${((1 - end) * 100).toFixed(3)}%` } : { left: `${(end * 100).toFixed(3)}%` })}>${text}</span>
          ${markers.map((m) => html`<span class="mk" style=${cssProps({ left: pct(m.value, max), 'border-color': m.colour })}></span>`)}
        </div>
      </div>`;
    })}
    <div class="legend">${[...legend].map(([label, colour]) => html`<span><i style=${cssProps({ background: colour })}></i>${label}</span>`)}${ghosts ? html`<span><i class="ghost-key"></i>pinned</span>` : nothing}</div>
    ${numbersTable(rows, markers, format, title)}
  </figure>`;
}
