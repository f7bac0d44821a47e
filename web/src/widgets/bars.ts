// Horizontal bars for widgets, built from HTML boxes rather than one SVG so that their text stays at reading size
// in any column, a phone's included (at a narrow width each label moves above its bar). Same rows and markers as
// the explorer's SVG bars (src/charts/bars.ts).
import { html, nothing, type TemplateResult } from 'lit';
import type { BarRow, Marker } from '../charts/bars';

const pct = (v: number, max: number): string => `${((Math.max(0, v) / max) * 100).toFixed(3)}%`;

export function htmlBars(rows: BarRow[], markers: Marker[], format: (v: number) => string, title: string): TemplateResult {
  const total = (r: BarRow): number => r.segments.reduce((a, s) => a + Math.max(0, s.value), 0);
  const max = Math.max(1e-300, ...rows.map(total), ...markers.map((m) => m.value)) * 1.04;
  const legend = new Map<string, string>();
  for (const r of rows) for (const s of r.segments) if (s.value > 0) legend.set(s.label, s.colour);
  return html`<figure class="hb">
    <figcaption class="hb-title">${title}</figcaption>
    ${markers.length
      ? html`<div class="hrow mk-row"><span></span><div class="track">${markers.map((m) => html`<span class="mk-label ${m.value / max > 0.8 ? 'end' : ''}" style="left:${pct(m.value, max)};color:${m.colour}">${m.label}</span>`)}</div></div>`
      : nothing}
    ${rows.map((r) => {
      let acc = 0;
      const end = total(r) / max;
      return html`<div class="hrow">
        <span class="lbl ${r.emphasis ? 'crit' : ''}">${r.label}</span>
        <div class="track">
          ${r.segments.filter((s) => s.value > 0).map((s) => {
            const left = pct(acc, max);
            acc += s.value;
            return html`<span class="seg" style="left:${left};width:${pct(s.value, max)};background:${s.colour}" title="${s.label}: ${format(s.value)}"></span>`;
          })}
          <span class="val ${end > 0.62 ? 'inside' : ''}" style=${end > 0.62 ? `right:${((1 - end) * 100).toFixed(3)}%` : `left:${(end * 100).toFixed(3)}%`}>${format(total(r))}${r.note ? ` · ${r.note}` : ''}</span>
          ${markers.map((m) => html`<span class="mk" style="left:${pct(m.value, max)};border-color:${m.colour}"></span>`)}
        </div>
      </div>`;
    })}
    <div class="legend">${[...legend].map(([label, colour]) => html`<span><i style="background:${colour}"></i>${label}</span>`)}</div>
  </figure>`;
}
