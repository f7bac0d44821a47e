// <ss-plans>: "Find best plans" runs the engine's plan_search for the chips on screen; each plan the engine ranks is
// then checked as the very training step the page would show once applied (the explorer does that), and the list
// keeps only plans that fit and raise no warning. Near-ties (within 1% of the plan above) say what differs, and while
// the efficiencies are the book's 1.0 a sentence says the ranking is of ideal bounds. Apply sets the controls.
import { LitElement, html, nothing, type TemplateResult } from 'lit';
import type { Diagnostic, Evaluation, PlanSearchResult, SearchedPlan } from '../engine/types';
import type { State } from '../state/params';
import { hardwarePreset } from '../state/params';
import { STRATEGY_LABEL, type Strategy } from '../state/mesh';
import { DEGREE_KEY, isCurrentPlan, type SearchedMesh } from '../state/plans';
import { planSearchScenario } from '../state/scenario';
import { fmtBytes, fmtCount, fmtPercent, fmtSeconds, fmtUsd, sig } from '../charts/format';
import { diagnosticsList } from './diagnostics';
import type { Results } from './results';
import { rankingNote } from './ranking';
import { thresholdTitle } from './words';

/** A plan the engine listed, checked as the page would show it once applied. */
export interface CheckedPlan {
  plan: SearchedPlan;
  /** Its place in the engine's ranking (0 = best). */
  rank: number;
  /** Why it is not listed: it does not fit, the applied step warns or fails, or a control cannot hold it. */
  problems: string[];
  warnings: Diagnostic[];
}

/** A plan search the page ran: for which scenario (its text) and on which mesh, and what came back. */
export interface SearchRun {
  key: string;
  mesh: SearchedMesh;
  gpu: boolean;
  ev: Evaluation<PlanSearchResult> | null;
  engineMs: number;
  checked: CheckedPlan[];
  error?: string;
}

/** How many plans the list shows. */
export const PLANS_SHOWN = 10;
/** Plans within this fraction of the step time of the plan above are near-ties. */
const TIE_FRAC = 0.01;

export function degreesText(p: SearchedPlan): string {
  const parts = (Object.keys(DEGREE_KEY) as Strategy[]).filter((k) => (p.degrees[k] ?? 1) > 1).map((k) => `${STRATEGY_LABEL[k]} ${p.degrees[k]}`);
  return parts.length ? parts.join(' · ') : 'one chip';
}

/** The settings of a plan in words, by field (what a near-tie can differ in). */
function settings(p: SearchedPlan): Record<string, string> {
  const mb = p.parallelism.microbatches ?? 1;
  return {
    degrees: degreesText(p),
    mesh: p.mesh ? `mesh ${p.mesh.shape.join('×')}` : '',
    zero: p.degrees.fsdp > 1 ? `ZeRO-${p.parallelism.zero_stage ?? 3}` : '',
    microbatches: `${mb} microbatch${mb === 1 ? '' : 'es'}`,
    remat: `remat ${p.remat}`,
    memory: `${fmtBytes(p.memory_bytes)} per chip`,
    binding: p.binding ? `binding: ${thresholdTitle(p.binding).toLowerCase()}` : '',
  };
}

/** "differs in ZeRO-1 vs ZeRO-3, 4 microbatches vs 1 microbatch; 12 GB vs 20 GB per chip" */
export function tieDifference(p: SearchedPlan, above: SearchedPlan): string {
  const a = settings(p);
  const b = settings(above);
  const diffs = Object.keys(a).filter((k) => a[k] !== b[k] && (a[k] || b[k])).map((k) => `${a[k] || 'none'} vs ${b[k] || 'none'}`);
  return diffs.length ? diffs.join('; ') : 'the same settings on a different axis order';
}

export class SsPlans extends LitElement {
  static override properties = {
    results: { attribute: false },
    run: { attribute: false },
    searching: { attribute: false },
    ready: { attribute: false },
  };

  results!: Results;
  run: SearchRun | null = null;
  searching = false;
  ready = false;

  protected override createRenderRoot(): this {
    return this;
  }

  private emit(name: 'ss-search' | 'ss-apply', detail: unknown): void {
    this.dispatchEvent(new CustomEvent(name, { detail, bubbles: true }));
  }

  private table(state: State, run: SearchRun, stale: boolean): TemplateResult {
    const listed = run.checked.filter((c) => c.problems.length === 0 && c.warnings.length === 0).slice(0, PLANS_SHOWN);
    const hidden = run.checked.length - run.checked.filter((c) => c.problems.length === 0 && c.warnings.length === 0).length;
    const days = (x: number): string => (Number.isFinite(x) ? `${sig(x / 86400)} days` : '—');
    return html`
      ${hidden ? html`<p class="muted" data-plans-hidden=${hidden}>${hidden} of the ${run.checked.length} plans the engine ranked are left out: they do not fit in HBM or raise a warning once applied.</p>` : nothing}
      ${listed.length === 0 ? html`<p class="notice-inline">No plan the engine found fits without a warning; more chips, a smaller batch per chip or another remat may help.</p>` : nothing}
      <div class="table-wrap" data-scroll-hint><table class="plans ${stale ? 'stale' : ''}">
        <thead><tr><th scope="col">#</th><th scope="col">Plan</th><th scope="col">Step</th><th scope="col">MFU</th><th scope="col">Memory per chip</th>
          <th scope="col">Binding threshold</th><th scope="col">Time and cost to train</th><th scope="col"><span class="sr-only">Apply</span></th></tr></thead>
        <tbody>
          ${listed.map((c, i) => {
            const p = c.plan;
            const current = !stale && isCurrentPlan(state, p, run.mesh);
            const s = settings(p);
            const above = i > 0 ? listed[i - 1]!.plan : null;
            const tie = above && Math.abs(p.step_s - above.step_s) <= TIE_FRAC * above.step_s ? tieDifference(p, above) : '';
            return html`<tr data-plan=${i} data-rank=${c.rank} data-step=${String(p.step_s)} class=${current ? 'current' : ''} aria-current=${current ? 'true' : 'false'}>
              <td>${i + 1}</td>
              <th scope="row"><span class="plan-deg">${s.degrees}</span>
                <span class="help">${[s.mesh, s.zero, s.microbatches, s.remat].filter(Boolean).join(' · ')}${current ? html` <span class="badge">on screen</span>` : nothing}</span>
                ${tie ? html`<span class="help tie" data-tie=${i}>Ties with #${i} (within 1%): ${tie}.</span>` : nothing}</th>
              <td>${fmtSeconds(p.step_s)} <span class="help">${p.bound}-bound</span>${p.ideal ? html`<span class="help" data-plan-ideal>book ideal ${fmtSeconds(p.ideal.step_s)}</span>` : nothing}</td>
              <td>${fmtPercent(p.mfu_frac)}</td>
              <td>${fmtBytes(p.memory_bytes)} <span class="ok-mark" aria-label="fits">✓</span></td>
              <td class="wrap">${p.binding ? thresholdTitle(p.binding) : '—'}</td>
              <td>${days(p.train_time_s)} <span class="help">${fmtUsd(p.train_usd)}</span></td>
              <td><button type="button" data-apply=${i} aria-disabled=${stale || current ? 'true' : 'false'}
                @click=${() => !stale && !current && this.emit('ss-apply', p)} aria-label="Apply plan ${i + 1}: ${s.degrees}">${current ? 'Applied' : 'Apply'}</button></td>
            </tr>`;
          })}
        </tbody>
      </table></div>`;
  }

  override render(): TemplateResult {
    const r = this.results;
    if (!r) return html``;
    const sc = planSearchScenario(r.state);
    const key = sc ? JSON.stringify(sc) : '';
    const run = this.run;
    const hw = hardwarePreset(String(r.state.values['hw']));
    const chips = r.mesh.ok ? r.mesh.plan.chips : 0;
    if (!sc || !r.mesh.ok) {
      return html`<section class="panel" aria-labelledby="h-plans" data-plans>
        <h3 id="h-plans">Best plans for these chips</h3>
        <p class="muted">A plan search starts from a mesh the chip can hold; fix the mesh problem above first.</p>
      </section>`;
    }
    const what = hw.kind === 'gpu'
      ? `${chips} GPUs factorised into data × pipeline × tensor (tensor inside the NVLink domain)`
      : `each torus axis of the ${r.mesh.plan.shape.join('×')} slice given to one strategy${r.mesh.plan.slices > 1 ? ', the slices joined by data parallelism' : ''}`;
    const stale = run !== null && run.key !== key;
    const res = run?.ev?.ok ? run.ev.result : undefined;
    const busy = this.searching || !this.ready;
    return html`
      <section class="panel" aria-labelledby="h-plans" data-plans>
        <h3 id="h-plans">Best plans for these chips</h3>
        <p class="muted">The engine tries ${what}, with ZeRO 1 or 3, several microbatch counts and remat none or block, checks each like a
          training step and ranks them; the list keeps the plans that fit in HBM and raise no warning. Batch, sequence, precision and efficiency are the ones set here.</p>
        ${rankingNote(res, r.state, { after: '; the book’s ideal step is under each.', ideal: ': with every efficiency at 1.0 the MFU of good plans is an upper bound, and many tie near 100%; set efficiencies to separate them.' })}
        <div class="plan-actions">
          <button type="button" id="find-plans" aria-disabled=${busy ? 'true' : 'false'} @click=${() => !busy && this.emit('ss-search', null)}>
            ${run && !stale ? 'Search again' : 'Find best plans'}</button>
          <span role="status" aria-live="polite" class="muted">${this.searching ? 'Searching…' : res ? `${fmtCount(res.evaluated)} plans evaluated, ${fmtCount(res.valid)} valid, ${fmtCount(res.fitting)} fit in HBM; ${sig(run!.engineMs)} ms in the engine.` : ''}</span>
        </div>
        ${run?.error ? html`<div class="error" role="alert">${run.error}</div>` : nothing}
        ${run?.ev && !run.ev.ok ? diagnosticsList(run.ev.diagnostics, 'plan_search') : nothing}
        ${stale && res ? html`<p class="notice-inline" data-plans-stale>These plans were found for other settings (chips, model, batch or precision changed); search again to rank plans for these.</p>` : nothing}
        ${res && run ? html`${run.ev!.diagnostics.length ? diagnosticsList(run.ev!.diagnostics, 'plan_search') : nothing}${this.table(r.state, run, stale)}` : nothing}
      </section>`;
  }
}

customElements.define('ss-plans', SsPlans);
