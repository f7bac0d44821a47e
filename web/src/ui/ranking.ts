// Which model ranked a search's answers, in one sentence shared by the training plan list and the serving search:
// the calibrated estimate with its out-of-sample error band, or the book's ideal model (an upper bound on MFU while
// every efficiency is 1.0, so many good plans tie).
import { html, nothing, type TemplateResult } from 'lit';
import type { FidelityInfo } from '../engine/types';
import type { State } from '../state/params';
import { atBookEfficiency } from './results';

/** `after` ends the calibrated sentence (e.g. "; the book’s ideal step is under each."), `ideal` the book's. */
export function rankingNote(
  res: FidelityInfo | undefined,
  state: State,
  tails: { after: string; ideal: string },
): TemplateResult | typeof nothing {
  if (!res) return nothing;
  if (res.fidelity === 'calibrated') {
    const band = res.calibration?.error_band;
    return html`<p class="muted" data-calibrated-ranking>Ranked by the calibrated estimate${band ? ` (${band.text})` : ''}${tails.after}</p>`;
  }
  if (atBookEfficiency(state))
    return html`<p class="notice-inline" data-ideal-ranking>Ranked by the book’s ideal model${tails.ideal}</p>`;
  return html`<p class="muted" data-book-ranking>Ranked by the book’s model at the efficiencies set (fractions of peak).</p>`;
}
