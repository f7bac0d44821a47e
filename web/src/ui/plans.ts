// <ss-plans>: "Find best plans" runs the engine's plan_search for the chips on screen; each plan comes with its fit
// and the warnings its training step raises (the engine's), and the list keeps only plans that fit and raise no
// warning. Each row says where its strategies sit (whole torus axes or parts of
// them), ties say what differs (the engine's list for exact ties; the page groups near-ties within 1% of a group's
// first plan, each saying how it differs from it), plans on the Pareto front are
// marked, and while the efficiencies are the book's 1.0 a sentence says the ranking is of ideal bounds. Apply sets
// the controls; "Launch config" writes the plan as a framework's launch configuration (launch-config.ts, loaded on
// that click). A finished search's ranked plans download as CSV and JSON (search-export.ts).
import { LitElement, html, nothing, type TemplateResult } from 'lit';
import type { PlanSearchResult } from '../engine/types';
import type { State, Value } from '../state/params';
import { hardwarePreset } from '../state/params';
import { isCurrentPlan } from '../state/plans';
import { planSearchScenario } from '../state/scenario';
import { planState } from '../state/launch';
import { fmtBytes, fmtCount, fmtPercent, fmtSeconds, fmtUsd, sig } from '../charts/format';
import { diagnosticsList } from './diagnostics';
import type { Results } from './results';
import { rankingNote } from './ranking';
import { thresholdTitle } from './words';
import { planSettings, settingsDifference, tieDifferenceText } from './plan-words';
import { trainingOf } from './results';
import { searchOptions } from './search-options';
import { searchProgress } from './search-progress';
import type { SetDetail } from './controls';
import { listable, listedPlans, nearTieLeaders, runConstraints, type PlanRow, type SearchRun } from './plan-list';
import { downloadButtons } from './downloads';
import type { LaunchSource } from './launch-config';
import { planSearchCsv, planSearchJson } from './search-export';
import './pareto-chart';
import { QUERY_DEFAULTS } from '../engine/schema-choices';

/**
 * Why a listed plan sits where it does: the engine's exact tie (equal objective, no-overlap step and memory; its own
 * list of differences) or membership of a near-tie group (steps within 1% of the group's first plan, `leader`),
 * saying how it differs from that plan. The group's first plan says which rows follow it.
 */
function tieNote(
  i: number,
  leaders: readonly number[],
  listed: readonly PlanRow[],
  run: SearchRun,
): TemplateResult | typeof nothing {
  const p = listed[i]!.plan;
  const mesh = run.mesh;
  if (p.tie) {
    const at = listed.findIndex((x) => x.plan.rank === p.tie!.with_rank);
    const differs =
      p.tie.differs.map((d) => tieDifferenceText(d, mesh, run.gpu)).join('; ') || 'nothing the engine reports';
    return html`<span class="help tie" data-tie=${p.tie.with_rank} title="the same step time, step without overlap and memory per chip">Ties with ${at >= 0 ? `#${at + 1}` : `the engine’s plan ${p.tie.with_rank}`}: ${differs}.</span>`;
  }
  const leader = leaders[i]!;
  if (leader === i) {
    const last = leaders.lastIndexOf(i);
    if (last === i) return nothing;
    const steps = listed.slice(i, last + 1).map((x) => x.plan.step_s);
    const spread = Math.max(...steps) / Math.min(...steps) - 1;
    return html`<span class="help tie" data-tie-group=${last - i + 1}>#${i + 1}–#${last + 1} step within ${fmtPercent(spread)} of each other, closer than the estimate’s accuracy: choose among them by memory, threshold or cost; each says how it differs from this one.</span>`;
  }
  return html`<span class="help tie" data-near-tie=${leader + 1}>Within 1% of #${leader + 1}: ${settingsDifference(p, listed[leader]!.plan, mesh)}.</span>`;
}

/** "2.94M plans in the space, 2.33M evaluated (604k layouts skipped: ...), ..., 1.39M of them ruled out by a bound, 20 on the Pareto front; 0.9 s in 8 chunks (850 ms in the engine)." */
function searchCounts(res: PlanSearchResult, run: SearchRun): string {
  const skipped = res.counts.equivalent
    ? ` (${fmtCount(res.counts.equivalent)} layouts skipped: they cost what one already tried costs)`
    : '';
  const bounded = res.counts.bounded
    ? `, ${fmtCount(res.counts.bounded)} of them ruled out unpriced (a bound below their calibrated step could not win)`
    : '';
  return (
    `${fmtCount(res.space)} plans in the space, ${fmtCount(res.evaluated)} evaluated${skipped}, ${fmtCount(res.valid)} valid, ` +
    `${fmtCount(res.fitting)} fit in HBM${bounded}, ${fmtCount(res.pareto_size)} on the Pareto front; ` +
    `${fmtSeconds(run.wallMs / 1000)} in ${run.chunks} chunk${run.chunks === 1 ? '' : 's'} (${sig(run.engineMs)} ms in the engine).`
  );
}

export class SsPlans extends LitElement {
  static override properties = {
    results: { attribute: false },
    state: { attribute: false },
    run: { attribute: false },
    searching: { attribute: false },
    ready: { attribute: false },
    launch: { state: true },
  };

  results!: Results;
  /** The controls as they are now (the results may be a moment older). */
  state!: State;
  run: SearchRun | null = null;
  searching = false;
  ready = false;
  /** The plan whose launch config is open, and the search it came from. */
  launch: (LaunchSource & { run: string }) | null = null;

  protected override createRenderRoot(): this {
    return this;
  }

  private readonly onValue = (key: string, value: Value, ev: Event): void => {
    this.dispatchEvent(
      new CustomEvent<SetDetail>('ss-set', { detail: { values: { [key]: value }, ev }, bubbles: true }),
    );
  };

  private emit(name: 'ss-search' | 'ss-apply' | 'ss-cancel-search', detail: unknown): void {
    this.dispatchEvent(new CustomEvent(name, { detail, bubbles: true }));
  }

  /** Opens the launch config of a listed plan: the state its Apply gives, on the search's own settings. */
  private openLaunch(i: number, c: PlanRow, run: SearchRun, degrees: string): void {
    void import('./launch-config');
    this.launch = {
      run: run.key,
      key: `${run.key} #${c.rank}`,
      title: `plan #${i + 1} (${degrees})`,
      state: planState(run.state, c.plan, run.mesh),
    };
  }

  private table(state: State, run: SearchRun, stale: boolean): TemplateResult {
    const listed = listedPlans(run);
    const leaders = nearTieLeaders(listed.map((c) => c.plan.step_s));
    const hidden = run.rows.length - listable(run).length;
    return html`
      ${hidden ? html`<p class="muted" data-plans-hidden=${hidden}>${hidden} of the ${run.rows.length} plans the engine ranked are left out: they do not fit in HBM, raise a warning, or hold a setting this page has no control for.</p>` : nothing}
      ${listed.length === 0 ? html`<p class="notice-inline">No plan the engine found fits without a warning; more chips, a smaller batch per chip or another remat may help.</p>` : nothing}
      <div class="table-wrap" data-scroll-hint><table class="plans ${stale ? 'stale' : ''}">
        <thead><tr><th scope="col">#</th><th scope="col">Plan</th><th scope="col">Step</th><th scope="col">MFU</th><th scope="col">Memory per chip</th>
          <th scope="col">Binding threshold</th><th scope="col">Time and cost to train</th><th scope="col"><span class="sr-only">Apply</span></th></tr></thead>
        <tbody>
          ${listed.map((c, i) => {
            const p = c.plan;
            const current = !stale && isCurrentPlan(state, p, run.mesh);
            const s = planSettings(p, run.mesh);
            const rowClass = [current ? 'current' : '', leaders[i] !== i ? 'near-tie' : ''].filter(Boolean).join(' ');
            return html`<tr data-plan=${i} data-rank=${c.rank} data-step=${String(p.step_s)} data-tp=${p.degrees.tensor} class=${rowClass} aria-current=${current ? 'true' : 'false'}>
              <td>${i + 1}</td>
              <th scope="row"><span class="plan-deg">${s.degrees}</span>${p.pareto ? html` <span class="badge pareto" data-pareto title="On the Pareto front: no other plan is both faster and lighter in memory per chip">Pareto</span>` : nothing}${current ? html` <span class="badge">on screen</span>` : nothing}
                <span class="help" data-plan-layout>${s.layout}</span>
                <span class="help">${[s.zero, s.schedule, s.microbatches, s.remat].filter(Boolean).join(' · ')}</span>
                ${tieNote(i, leaders, listed, run)}
                <button type="button" class="launch" data-launch-plan=${i} aria-expanded=${this.launch?.key === `${run.key} #${c.rank}` ? 'true' : 'false'}
                  @click=${() => this.openLaunch(i, c, run, s.degrees ?? '')} aria-label="Launch config of plan ${i + 1}: ${s.degrees}">Launch config</button></th>
              <td>${fmtSeconds(p.step_s)} <span class="help">${p.bound}-bound</span>${p.ideal ? html`<span class="help" data-plan-ideal>book ideal ${fmtSeconds(p.ideal.step_s)}</span>` : nothing}</td>
              <td>${fmtPercent(p.mfu_frac)}</td>
              <td>${fmtBytes(p.memory_bytes)} ${p.fits ? html`<span class="ok-mark" aria-label="fits">✓</span>` : html`<span class="worse" data-no-fit>✗ does not fit</span>`}
                ${c.warnings.length ? html`<span class="help worse" data-plan-warning>${c.warnings[0]!.message}</span>` : nothing}</td>
              <td class="wrap">${p.binding ? thresholdTitle(p.binding) : '—'}</td>
              <td>${fmtSeconds(p.train_time_s)} <span class="help">${fmtUsd(p.train_usd)}</span></td>
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
    const sc = planSearchScenario(r.state, r.mesh);
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
    const what =
      hw.kind === 'gpu'
        ? `every split of the ${chips} GPUs into DP, FSDP, TP, PP, EP and CP, laid out in every distinct order (tensor inside the NVLink domain first)`
        : `every split of the ${r.mesh.plan.shape.join('×')} slice into DP, FSDP, TP, PP, EP and CP, each strategy on whole torus axes or on parts of them${r.mesh.plan.slices > 1 ? ', the slices joined by DP or FSDP' : ''}`;
    const stale = run !== null && run.key !== key;
    const res = run?.ev?.ok ? run.ev.result : undefined;
    const busy = this.searching || !this.ready;
    const hbmBytes = trainingOf(r)?.memory.hbm_capacity_bytes ?? 0;
    return html`
      <section class="panel" aria-labelledby="h-plans" data-plans>
        <h3 id="h-plans">Best plans for these chips</h3>
        <p class="muted">The engine tries ${what}, with ZeRO 1 to 3, the 1F1B and interleaved schedules, every microbatch size and four remat policies,
          checks each like a training step and ranks them; the list keeps the plans that fit in HBM and raise no warning (unless the search options ask for them), and marks those on the
          Pareto front of step time against memory. Batch, sequence, precision and efficiency are the ones set here.</p>
        ${rankingNote(res, r.state, { after: '; the book’s ideal step is under each.', ideal: ': with every efficiency at 1.0 the MFU of good plans is an upper bound, and many tie near 100%; set efficiencies to separate them.' })}
        <div class="plan-actions">
          <button type="button" id="find-plans" aria-disabled=${busy ? 'true' : 'false'} @click=${() => !busy && this.emit('ss-search', null)}>
            ${run?.complete && !stale ? 'Search again' : 'Find best plans'}</button>
          <span role="status" aria-live="polite" class="muted" data-search-status>${this.searching ? 'Searching…' : res && run?.complete ? searchCounts(res, run) : ''}</span>
        </div>
        ${searchOptions(this.state ?? r.state, this.onValue)}
        ${stale && !this.searching ? nothing : searchProgress(run, this.searching, () => this.emit('ss-cancel-search', null))}
        ${run?.error ? html`<div class="error" role="alert">${run.error}</div>` : nothing}
        ${run?.ev && !run.ev.ok ? diagnosticsList(run.ev.diagnostics, 'plan_search') : nothing}
        ${stale && res ? html`<p class="notice-inline" data-plans-stale>These plans were found for other settings (chips, model, batch, precision or the search options changed); search again to rank plans for these.</p>` : nothing}
        ${
          res && run
            ? html`${run.ev!.diagnostics.length ? diagnosticsList(run.ev!.diagnostics, 'plan_search') : nothing}${this.table(r.state, run, stale)}
          ${
            stale || !run.complete
              ? nothing
              : html`<div class="plan-actions" data-plans-downloads>
            ${downloadButtons({ name: 'scalescope-plans', id: 'plans-', what: 'the ranked plans', json: () => planSearchJson(run), csv: () => planSearchCsv(run) })}
            <span class="muted small">every plan the engine ranked, with the search’s inputs</span></div>`
          }
          ${this.launch?.run === run.key ? html`<ss-launch-config .source=${this.launch} @ss-launch-close=${() => (this.launch = null)}></ss-launch-config>` : nothing}
          ${stale ? nothing : html`<ss-pareto .run=${run} .listed=${listedPlans(run)} .hbmBytes=${hbmBytes} .headroomFrac=${runConstraints(run).memory_headroom_frac ?? QUERY_DEFAULTS.plan_search['/constraints/memory_headroom_frac']}></ss-pareto>`}`
            : nothing
        }
      </section>`;
  }
}

customElements.define('ss-plans', SsPlans);
