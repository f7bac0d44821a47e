// How far a chunked plan search has got: a progress bar (role=progressbar, its value in percent), the plans
// evaluated of the space and the time so far (kept at 100% once done), and a Cancel button while it runs. The bar
// drawn is a native <progress> (hidden from screen readers, which read the labelled progressbar around it): its
// length needs no style attribute, which the site's Content-Security-Policy refuses.
import { html, nothing, type TemplateResult } from 'lit';
import { fmtCount, fmtSeconds } from '../charts/format';
import type { SearchRun } from './plan-list';

export function searchProgress(
  run: SearchRun | null,
  searching: boolean,
  onCancel: () => void,
): TemplateResult | typeof nothing {
  if (!searching && !run?.ev) return nothing;
  const res = run?.ev?.ok ? run.ev.result : undefined;
  const pct = Math.round((run?.progressFrac ?? 0) * 100);
  const words = res ? `${fmtCount(res.progress_frac * res.space)} of ${fmtCount(res.space)} plans` : 'starting';
  const label =
    run?.cancelled && !searching
      ? `Cancelled at ${pct}%: ${words}; the plans below are the best of those.`
      : `${pct}% · ${words} · ${fmtSeconds((run?.wallMs ?? 0) / 1000)}`;
  return html`<div class="search-progress" data-search-progress>
    <div class="progress" role="progressbar" aria-label="Plan search progress" aria-valuemin="0" aria-valuemax="100" aria-valuenow=${pct} aria-valuetext=${label}>
      <progress aria-hidden="true" max="100" .value=${pct}></progress>
    </div>
    <span class="muted">${label}</span>
    ${searching ? html`<button type="button" data-cancel-search @click=${onCancel}>Cancel</button>` : nothing}
  </div>`;
}
