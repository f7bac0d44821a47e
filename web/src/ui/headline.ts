// <ss-headline>: the answer in view. The headline numbers of the plan on screen, greyed and labelled when the plan
// does not fit or cannot run; with the engine's calibrated estimate, its error band and the book's ideal beside it
// (and a toggle for which of the two the charts draw) once the engine gives both; and, while every efficiency is
// the book's 1.0, a plain sentence that the numbers are an ideal bound. `compact` is the phone's summary strip:
// step (or latency), memory against HBM, fits or not, cost.
import { LitElement, html, nothing, type TemplateResult } from 'lit';
import { FEATURES, type State, type Value } from '../state/params';
import { profileForChip } from '../state/profile';
import {
  atBookEfficiency,
  fidelityOf,
  isServing,
  servingOf,
  trainingOf,
  type Metric,
  type PlanStatus,
  type Results,
} from './results';
import { fmtBytes } from '../charts/format';
import type { SetDetail } from './controls';
import { costNoteWords, goodputWords } from './words';

const STRIP: Record<'training' | 'serving', string[]> = {
  training: ['step_s', 'train_time_s', 'train_usd'],
  serving: ['latency_per_token_s', 'ttft_s', 'usd_per_million_output_tokens'],
};

export class SsHeadline extends LitElement {
  static override properties = {
    results: { attribute: false },
    status: { attribute: false },
    metrics: { attribute: false },
    compact: { type: Boolean },
    fitNotes: { attribute: false },
  };

  results!: Results;
  status!: PlanStatus;
  metrics: Metric[] = [];
  compact = false;
  /** What the last "nearest plan that fits" moved, in words (or why nothing fits). */
  fitNotes: string[] = [];

  protected override createRenderRoot(): this {
    return this;
  }

  private set(values: Record<string, Value>, ev: Event): void {
    this.dispatchEvent(new CustomEvent<SetDetail>('ss-set', { detail: { values, ev }, bubbles: true }));
  }

  /** A plan that does not fit offers the engine's nearest that does; what the last one moved is said under it. */
  private fitLine(): TemplateResult | typeof nothing {
    const offer = this.status.kind === 'no-fit';
    if (!offer && !this.fitNotes.length) return nothing;
    const ask = (ev: Event): void => {
      this.dispatchEvent(new CustomEvent<SetDetail>('ss-set', { detail: { fit: true, ev }, bubbles: true }));
    };
    return html`<div class="fit-line" data-fit-line>
      ${offer ? html`<button type="button" data-fit-nearest @click=${ask}>Find the nearest plan that fits</button>` : nothing}
      ${this.fitNotes.length ? html`<ul class="fit-notes" role="status" data-fit-notes>${this.fitNotes.map((n) => html`<li>${n}</li>`)}</ul>` : nothing}
    </div>`;
  }

  private get greyed(): boolean {
    return this.status.kind === 'no-fit' || this.status.kind === 'cannot-run';
  }

  private badge(): TemplateResult {
    const k = this.status.kind;
    const word =
      k === 'ok' ? 'Fits' : k === 'warning' ? 'Fits, with warnings' : k === 'no-fit' ? 'Does not fit' : 'Cannot run';
    return html`<span class="fit ${k}" data-status=${k}>${word}</span>`;
  }

  /** Memory against HBM in one phrase: "3.1 GB of 96 GB per chip". */
  private memoryText(): string {
    const t = trainingOf(this.results);
    if (t) return `${fmtBytes(t.memory.total_bytes)} of ${fmtBytes(t.memory.hbm_capacity_bytes)} per chip`;
    const s = servingOf(this.results);
    return s ? `${fmtBytes(s.memory.total_bytes)} of ${fmtBytes(s.memory.hbm_capacity_bytes)}` : '—';
  }

  private card(m: Metric): TemplateResult {
    return html`<div class="card" data-card=${m.id}><span class="k">${m.label}</span>
      <output class="v" data-metric=${m.id} data-value=${m.value === undefined ? '' : String(m.value)}>${m.text}</output>
      ${m.ideal ? html`<span class="ideal" data-ideal=${m.id} data-value=${String(m.ideal.value)}>${m.ideal.label ?? 'book ideal'} ${m.ideal.text}</span>` : nothing}</div>`;
  }

  /** Which model made the numbers, in words: calibrated with its error band, or the book's ideal bound (none for a
   * plan that cannot run: there are no numbers to speak of, issue 41 #17). */
  private fidelityNote(): TemplateResult | typeof nothing {
    const f = fidelityOf(this.results);
    const s: State = this.results.state;
    if (f.fidelity === 'calibrated') {
      const band = f.calibration?.error_band;
      const profile = f.calibration?.profile;
      // A calibrate result's profile may carry the shipped id and source: say whose it is.
      const yours = profileForChip(s) ? '; yours, loaded in this browser' : '';
      return html`<p class="fidelity" data-fidelity="calibrated">Calibrated estimate${band ? html`: ${band.text}` : nothing}${profile ? html` <span class="muted">(profile ${profile.id}, ${profile.source}${yours})</span>` : nothing}. ${
        f.ideal?.lower_bound === false
          ? html`The book’s ideal is under each number; here it is above the estimate: <span data-ideal-above>${f.ideal.above_estimate?.text ?? 'the book prices this plan above it'}</span>.`
          : 'The book’s ideal, a lower bound, is under each number.'
      }${f.calibration?.what_if ? html` <span data-what-if>The Efficiency settings act as a what-if: ${f.calibration.what_if.text.replace(/^what if: /, '')}.</span>` : nothing}</p>`;
    }
    if (atBookEfficiency(s)) {
      return html`<p class="fidelity ideal-bound" data-fidelity="book">These are the book’s ideal numbers: every chip at its peak FLOP/s and full bandwidth, communication perfectly overlapped. Real runs are slower; under Efficiency, fractions of peak give a realistic estimate${FEATURES.fidelity ? '' : ' (a calibrated model comes with a later engine)'}.</p>`;
    }
    return html`<p class="fidelity" data-fidelity="book">The book’s model at the efficiencies set below (fractions of peak).</p>`;
  }

  /** Under the numbers, the time to train once chips fail (issue 38) in the engine's words, as a warning when the job
   * never finishes; at the book's fidelity, quietly, the engine's note that its time has no failures. None for a plan
   * that does not fit: its numbers are struck out. */
  private goodputLine(): TemplateResult | typeof nothing {
    const t = trainingOf(this.results);
    if (!t || this.greyed) return nothing;
    const g = t.goodput;
    if (g)
      return html`<p class=${g.finishes ? 'goodput' : 'goodput notice-inline'} data-goodput=${String(g.goodput_frac)}>${goodputWords(g)}</p>`;
    return t.cost.note ? html`<p class="help" data-cost-note>${costNoteWords(t.cost.note)}</p>` : nothing;
  }

  private chartsToggle(): TemplateResult | typeof nothing {
    if (!FEATURES.fidelity || fidelityOf(this.results).fidelity !== 'calibrated') return nothing;
    const v = String(this.results.state.values['fid']);
    return html`<div class="toggle" role="group" aria-label="The charts show">
      <span class="muted">Charts show</span>
      ${(['calibrated', 'book'] as const).map((c) => html`<button type="button" data-fid=${c} aria-pressed=${v === c ? 'true' : 'false'} @click=${(e: Event) => this.set({ fid: c }, e)}>${c === 'book' ? 'the book’s ideal' : 'the calibrated estimate'}</button>`)}
    </div>`;
  }

  override render(): TemplateResult {
    if (!this.results) return html``;
    const serving = isServing(this.results.state);
    if (this.compact) {
      const ids = STRIP[serving ? 'serving' : 'training'];
      const shown = ids.map((id) => this.metrics.find((m) => m.id === id)).filter((m): m is Metric => m !== undefined);
      return html`<div class="strip ${this.greyed ? 'invalid' : ''}" data-headline-strip role="status" aria-label="Headline">
        ${shown.map((m) => html`<span class="s"><span class="k">${m.label}</span> <b>${m.text}</b></span>`)}
        <span class="s"><span class="k">Memory</span> <b>${this.memoryText()}</b></span>
        ${this.badge()}
      </div>`;
    }
    return html`<section class="headline-block ${this.greyed ? 'invalid' : ''}" aria-label="Headline numbers" data-headline>
      <div class="status-line">${this.badge()} <span class="status-text" data-status-text>${this.status.text}</span>${this.chartsToggle()}</div>
      ${this.fitLine()}
      <div class="headline">${this.metrics.map((m) => this.card(m))}</div>
      ${this.goodputLine()}
      ${this.status.kind === 'cannot-run' ? nothing : this.fidelityNote()}
    </section>`;
  }
}

customElements.define('ss-headline', SsHeadline);
