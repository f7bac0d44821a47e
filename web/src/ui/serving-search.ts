// <ss-serving-search>: "fewest chips / cheapest deployment for this latency", answered by the engine's serving search
// (docs/api.md `serving_search`, built by state/scenario.ts servingSearchScenario). The question's own controls sit
// here, by the answer: latency and time-to-first-token targets, what "best" means, a demand, prefill colocated or
// not, and whether the batch and dtypes set in the controls are kept. One search takes a few milliseconds, so the
// explorer runs it in the worker whenever the controls rest (no button). The table lists the best deployments; when
// none meets the targets it says so and lists the fastest there are (the engine's latency x cost front). Apply sets
// the controls to a deployment's replica and the headline to count it as the row does (its replicas, prefill servers
// and cost, from the same engine definition), and the URL reproduces it; "Launch config" writes a deployment's
// replica as a serving engine's launch command (launch-config.ts, loaded on that click). The deployments
// listed download as CSV and JSON (search-export.ts).
import { LitElement, html, nothing, type TemplateResult } from 'lit';
import type { ServingDeployment, ServingResult, ServingSearchResult } from '../engine/types';
import { hardwarePreset, param, type State, type Value } from '../state/params';
import { servingSearchScenario, weightsDtype } from '../state/scenario';
import { chipsText, isCurrentDeployment, replicaText } from '../state/serving-search';
import { deploymentState } from '../state/launch';
import { fmtBytes, fmtCount, fmtRate, fmtSeconds, fmtUsd, sig } from '../charts/format';
import { boolField, enumField, numberField } from './fields';
import { diagnosticsList } from './diagnostics';
import { rankingNote } from './ranking';
import { servingOf, type Results } from './results';
import type { SetDetail } from './controls';
import { downloadButtons } from './downloads';
import { servingSearchCsv, servingSearchJson, type ServingList } from './search-export';
import type { ServingSearchRun } from './serving-run';
import type { LaunchSource } from './launch-config';

/**
 * The deployment table's columns, in order (the Apply button's last). Each cell repeats its column's words as
 * data-label: on a phone a row becomes a card of labelled values (styles.ts), so latency and cost are in view.
 */
const COLUMNS = {
  rank: '#',
  chips: 'Chips',
  replica: 'Replica',
  batch: 'Batch',
  step: 'Decode step',
  latency: 'Latency per token',
  ttft: 'Time to first token',
  rate: 'Tokens/s per chip',
  usd: '$ per 1M output tokens',
  memory: 'Memory of HBM',
  targets: 'Targets',
} as const;

/** How many of the engine's latency x cost front the page lists when no deployment meets the targets. */
const FRONTIER_SHOWN = 10;

const OBJECTIVE_WORDS: Readonly<Record<string, string>> = {
  usd_per_million_tokens: 'cheapest ($ per 1M output tokens)',
  fewest_chips: 'fewest chips',
  tokens_per_s_per_chip: 'most tokens/s per chip',
};
const PREFILL_WORDS: Readonly<Record<string, string>> = {
  both: 'colocated or on prefill servers',
  colocated: 'colocated (on the decode chips)',
  disaggregated: 'on prefill servers (disaggregated)',
};

/** What the panel lists: the ranked deployments, or when none meets the targets the fastest there are. */
function shownList(res: ServingSearchResult, gpu: boolean): ServingList {
  return res.deployments.length
    ? { kind: 'deployment', rows: res.deployments, gpu }
    : { kind: 'frontier', rows: res.frontier.slice(0, FRONTIER_SHOWN), gpu };
}

/** A target starts at the number on screen ("for this latency"), to two significant digits, inside the row's range. */
function startAt(key: string, onScreen: number | undefined, fallback: number): number {
  const p = param(key);
  const v =
    onScreen !== undefined && Number.isFinite(onScreen) && onScreen > 0 ? Number(onScreen.toPrecision(2)) : fallback;
  return Math.min(p.max ?? v, Math.max(p.min ?? v, v));
}

export class SsServingSearch extends LitElement {
  static override properties = {
    results: { attribute: false },
    state: { attribute: false },
    run: { attribute: false },
    announce: { state: true },
    launch: { state: true },
  };

  results!: Results;
  /** The controls as they are now (the results may be a moment older). */
  state!: State;
  run: ServingSearchRun | null = null;
  announce = '';
  /** The deployment whose launch config is open, and the search it came from. */
  launch: (LaunchSource & { run: string }) | null = null;

  protected override createRenderRoot(): this {
    return this;
  }

  private set(values: Record<string, Value>, ev: Event): void {
    this.dispatchEvent(new CustomEvent<SetDetail>('ss-set', { detail: { values, ev }, bubbles: true }));
  }

  private readonly onValue = (key: string, value: Value, ev: Event): void => this.set({ [key]: value }, ev);

  /** A row that may be unset (no target, no demand): a checkbox, and the number once it is on. */
  private optional(key: string, start: number, format: (v: number) => string): TemplateResult {
    const p = param(key);
    const v = this.state.values[key];
    const on = typeof v === 'number';
    return html`<div class="optional" data-optional=${key}>
      <div class="ctl check" title=${p.help}>
        <input type="checkbox" id="ss-${key}-on" data-key="${key}-on" .checked=${on}
          @change=${(e: Event) => this.set({ [key]: (e.target as HTMLInputElement).checked ? start : null }, e)} />
        <label for="ss-${key}-on">${p.label}${on ? '' : ` (no ${p.key === 'sdemand' ? 'demand: one replica' : 'target'})`}</label>
      </div>
      ${on ? numberField({ ...p, label: key === 'sdemand' ? 'Output tokens to serve' : 'Target' }, { id: `ss-${key}`, value: v, badges: html` <span class="hint">= ${format(v)}</span>`, onValue: this.onValue }) : nothing}
    </div>`;
  }

  private question(onScreen: ServingResult | undefined): TemplateResult {
    const v = this.state.values;
    const keepBatch = { ...param('skeepb'), label: `Keep this batch (${fmtCount(Number(v['sbatch']))})` };
    const keepDtypes = {
      ...param('skeepdt'),
      label: `Keep these dtypes (${weightsDtype(this.state)} weights, ${String(v['kvdt'])} KV)`,
    };
    return html`<div class="search-question" role="group" aria-label="What the serving search looks for">
      ${this.optional('slat', startAt('slat', onScreen?.deployment?.latency_per_token_s ?? onScreen?.latency_per_token_s, 0.05), fmtSeconds)}
      ${this.optional('sttft', startAt('sttft', onScreen?.time_to_first_token_s, 2), fmtSeconds)}
      ${this.optional('sdemand', 1e4, (x) => fmtRate(x, 'tok/s'))}
      ${enumField(param('sobj'), 'ss-sobj', v['sobj'] ?? null, this.onValue, OBJECTIVE_WORDS)}
      ${enumField(param('sprefill'), 'ss-sprefill', v['sprefill'] ?? null, this.onValue, PREFILL_WORDS)}
      <div>${boolField(keepBatch, 'ss-skeepb', v['skeepb'] ?? null, this.onValue)}${boolField(keepDtypes, 'ss-skeepdt', v['skeepdt'] ?? null, this.onValue)}</div>
    </div>`;
  }

  /** What the engine tries, in words, from the question as set (the engine's defaults where it is not). */
  private space(gpu: boolean): string {
    const v = this.state.values;
    const replicas = gpu
      ? 'every GPU count in powers of two up to 64'
      : 'every slice of the pod in powers of two up to 256 chips (its most balanced shape)';
    const dtypes =
      v['skeepdt'] === true
        ? `${weightsDtype(this.state)} weights and ${String(v['kvdt'])} KV`
        : `bf16 or ${gpu ? 'fp8' : 'int8'} weights and KV`;
    const batch =
      v['skeepb'] === true
        ? `a batch of ${fmtCount(Number(v['sbatch']))}`
        : 'batches in powers of two up to the largest that fits';
    return (
      `The engine tries ${replicas}, split into tensor (and, for a mixture of experts, expert) parallelism, with ${dtypes}, ${batch}, ` +
      `prompts prefilled ${PREFILL_WORDS[String(v['sprefill'])] ?? ''}, for the prompt, generated and KV lengths set here; it costs each with the chips of all its replicas and prefill servers.`
    );
  }

  private emitApply(d: ServingDeployment, label: string): void {
    this.announce = `Applied ${label}; the headline counts it as this row does.`;
    this.dispatchEvent(new CustomEvent<ServingDeployment>('ss-apply-deployment', { detail: d, bubbles: true }));
  }

  /** Opens a deployment's launch config: its replica as its Apply sets it, on the search's own settings. */
  private openLaunch(d: ServingDeployment, id: string, label: string): void {
    const run = this.run!;
    void import('./launch-config');
    this.launch = { run: run.key, key: `${run.key} ${id}`, title: label, state: deploymentState(run.state, d) };
  }

  /** `targets`: a column saying whether each row meets them (the frontier's; every ranked deployment does). */
  private table(
    rows: readonly ServingDeployment[],
    kind: 'deployment' | 'frontier',
    gpu: boolean,
    targets: boolean,
    stale: boolean,
  ): TemplateResult {
    const shown = this.results.state;
    const heads = Object.entries(COLUMNS).filter(([key]) => targets || key !== 'targets');
    return html`<div class="table-wrap" data-scroll-hint><table class="plans deployments ${stale ? 'stale' : ''}" data-table=${kind}>
      <caption class="sr-only">${kind === 'deployment' ? 'The best serving deployments, best first' : 'The fastest deployments, each the cheapest at its latency'}</caption>
      <thead><tr>${heads.map(([, words]) => html`<th scope="col">${words}</th>`)}<th scope="col"><span class="sr-only">Apply</span></th></tr></thead>
      <tbody>
        ${rows.map((d, i) => {
          const current = !stale && isCurrentDeployment(shown, d);
          const replica = replicaText(d, gpu);
          const label = `deployment ${i + 1}: ${d.total_chips} chips, ${replica}, batch ${d.batch}`;
          return html`<tr data-deployment=${kind === 'deployment' ? i : nothing} data-frontier=${kind === 'frontier' ? i : nothing} data-chips=${d.total_chips} data-step=${String(d.decode_step_s)} data-latency=${String(d.latency_per_token_s)} data-ttft=${String(d.time_to_first_token_s)} data-usd=${String(d.usd_per_million_output_tokens)}
              data-meets=${d.meets_targets ? 'yes' : 'no'} class=${current ? 'current' : ''} aria-current=${current ? 'true' : 'false'}>
            <td data-label=${COLUMNS.rank}>${i + 1}</td>
            <td data-label=${COLUMNS.chips}><strong>${d.total_chips}</strong><span class="help">${chipsText(d)}</span></td>
            <th scope="row"><span class="plan-deg">${replica}</span>
              <span class="help">${d.dtypes.weights} weights · ${d.dtypes.kv} KV · ${d.disaggregated ? 'prefill servers' : 'prefill colocated'}${current ? html` <span class="badge">on screen</span>` : nothing}</span>
              <button type="button" class="launch" data-launch-deployment=${`${kind}-${i}`} aria-expanded=${this.launch?.key === `${this.run?.key} ${kind}-${i}` ? 'true' : 'false'}
                @click=${() => this.openLaunch(d, `${kind}-${i}`, label)} aria-label="Launch config of ${label}">Launch config</button></th>
            <td data-label=${COLUMNS.batch}>${fmtCount(d.batch)}</td>
            <td data-label=${COLUMNS.step}>${fmtSeconds(d.decode_step_s)}</td>
            <td data-label=${COLUMNS.latency}>${fmtSeconds(d.latency_per_token_s)}<span class="help">${d.disaggregated ? 'the step' : d.bound === 'prefill' ? 'mostly prefills' : 'step + prefills'}</span></td>
            <td data-label=${COLUMNS.ttft}>${fmtSeconds(d.time_to_first_token_s)}</td>
            <td data-label=${COLUMNS.rate}>${fmtRate(d.tokens_per_s_per_chip, 'tok/s')}</td>
            <td data-label=${COLUMNS.usd}>${fmtUsd(d.usd_per_million_output_tokens)}</td>
            <td data-label=${COLUMNS.memory}>${fmtBytes(d.memory_bytes)}<span class="help">of ${fmtBytes(d.hbm_capacity_bytes)}</span></td>
            ${targets ? html`<td data-label=${COLUMNS.targets}>${d.meets_targets ? html`<span class="ok-mark">✓</span> meets` : html`<span class="worse">✗ misses</span>`}</td>` : nothing}
            <td><button type="button" data-apply-deployment=${`${kind}-${i}`} aria-disabled=${stale || current ? 'true' : 'false'}
              @click=${() => !stale && !current && this.emitApply(d, label)} aria-label="Apply ${label}">${current ? 'Applied' : 'Apply'}</button></td>
          </tr>`;
        })}
      </tbody>
    </table></div>`;
  }

  /** The answer: the ranked deployments, or plainly that none meets the targets and the fastest there are. */
  private answer(res: ServingSearchResult, gpu: boolean, stale: boolean): TemplateResult {
    const v = this.state.values;
    const targets = [
      typeof v['slat'] === 'number' ? `latency per token at most ${fmtSeconds(v['slat'])}` : '',
      typeof v['sttft'] === 'number' ? `time to first token at most ${fmtSeconds(v['sttft'])}` : '',
    ].filter(Boolean);
    const none = this.run?.ev?.diagnostics.find((d) => d.code === 'no_deployment_meets_targets');
    const list = shownList(res, gpu);
    if (list.kind === 'frontier') {
      // The engine's warning says which: nothing fits in HBM at all, or nothing fast enough.
      const why =
        res.fitting === 0
          ? ` Nothing fits in HBM (${none?.message ?? 'allow larger replicas or smaller dtypes'}).`
          : '';
      return html`<p class="notice-inline" role="status" data-no-deployment><strong>No deployment meets the targets.</strong>${why}</p>
        ${
          list.rows.length
            ? html`<p class="muted">The fastest there are, each the cheapest at its latency (${fmtCount(res.frontier_size)} on the latency × cost front):</p>
          ${this.table(list.rows, 'frontier', gpu, targets.length > 0, stale)}`
            : nothing
        }`;
    }
    return html`${targets.length ? html`<p class="muted" data-targets-met>Every deployment listed meets the targets: ${targets.join(' and ')}.</p>` : nothing}
      ${this.table(list.rows, 'deployment', gpu, false, stale)}`;
  }

  /** The listed deployments as CSV and JSON, with the search's inputs (only for the search of the controls on screen). */
  private downloads(res: ServingSearchResult, gpu: boolean): TemplateResult {
    const run = this.run!;
    const list = shownList(res, gpu);
    return html`<div class="plan-actions" data-deployments-downloads>
      ${downloadButtons({ name: 'scalescope-deployments', id: 'deployments-', what: 'the deployments listed', json: () => servingSearchJson(run, list), csv: () => servingSearchCsv(run, list) })}
      <span class="muted small">the deployments listed, with the search’s inputs</span></div>`;
  }

  override render(): TemplateResult | typeof nothing {
    const r = this.results;
    const sc = this.state ? servingSearchScenario(this.state) : null;
    if (!r || !sc) return nothing;
    const gpu = hardwarePreset(String(this.state.values['hw'])).kind === 'gpu';
    const run = this.run;
    const stale = !run || run.key !== JSON.stringify(sc);
    const res = run?.ev?.ok ? run.ev.result : undefined;
    const v = this.state.values;
    const leftOut = [
      v['spec'] === true ? 'decodes without speculation' : '',
      typeof v['sparams'] === 'number' ? 'uses the model’s own parameter count, not the override' : '',
    ].filter(Boolean);
    const status = stale
      ? 'Searching…'
      : res
        ? `${fmtCount(res.evaluated)} deployments evaluated, ${fmtCount(res.fitting)} fit in HBM, ${fmtCount(res.meeting_targets)} meet the targets; ${run!.engineMs > 0 ? `${sig(run!.engineMs)} ms in the engine` : 'from the page’s cache'}.`
        : '';
    return html`<section class="panel" aria-labelledby="h-ssearch" data-serving-search>
      <h3 id="h-ssearch">Fewest chips or cheapest deployment for a latency</h3>
      ${this.question(servingOf(r))}
      <p class="muted">${this.space(gpu)}${leftOut.length ? ` The search ${leftOut.join(' and ')}.` : ''}</p>
      ${rankingNote(res, this.state, { after: '.', ideal: ': every chip at its peak and full bandwidth; set efficiencies for a realistic ranking.' })}
      <p class="muted" role="status" aria-live="polite" data-search-status>${status}</p>
      ${run?.error ? html`<div class="error" role="alert">${run.error}</div>` : nothing}
      ${run?.ev && !run.ev.ok ? diagnosticsList(run.ev.diagnostics, 'serving_search') : nothing}
      ${res ? this.answer(res, gpu, stale) : nothing}
      ${res && !stale ? this.downloads(res, gpu) : nothing}
      ${this.launch && this.launch.run === run?.key ? html`<ss-launch-config .source=${this.launch} @ss-launch-close=${() => (this.launch = null)}></ss-launch-config>` : nothing}
      <p class="sr-only" role="status" aria-live="polite">${this.announce}</p>
    </section>`;
  }
}

customElements.define('ss-serving-search', SsServingSearch);
