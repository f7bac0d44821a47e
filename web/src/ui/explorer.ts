// <scalescope-explorer>: the one-page explorer. Controls come from the parameter table; every change updates the
// URL (only non-default values), asks the engine worker for one batch of scenarios, and repaints the numbers and
// bars as soon as the answer arrives; charts follow right after the paint. All numbers come from the engine.
import { LitElement, html, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { guard } from 'lit/directives/guard.js';
import { EngineClient } from '../engine/client';
import type {
  ChipResult, Diagnostic, Evaluation, MatmulResult, PlanSearchResult, RooflineResult, SearchedPlan, ServingResult, TrainingStepResult,
  TransformerResult,
} from '../engine/types';
import {
  PARAMS, PRESETS, cloneState, defaultState, hardwareFields, hardwarePreset, inMode, modelPreset, param,
  type Param, type State, type Value,
} from '../state/params';
import { decodeState, encodeState } from '../state/url';
import { STRATEGY_LABEL, describePlan, nodesTimesGpus, type MeshOutcome, type Strategy } from '../state/mesh';
import { DEGREE_KEY, applyPlan, isCurrentPlan } from '../state/plans';
import {
  activeLayout, chipScenario, effectiveModel, mainMatmuls, mainScenario, meshFor, planSearchScenario, rooflineCurveScenarios,
  scalingScenarios, transformerScenario, ROOFLINE_INTENSITIES, type MatmulOp, type ScalingPoint,
} from '../state/scenario';
import {
  COLOURS, COMMS_COLOURS, fmtBytes, fmtCount, fmtDelta, fmtFlops, fmtFlopsPerS, fmtPercent, fmtRate, fmtSeconds, fmtSecondsTick, fmtUsd,
  fromSlider, sig, siUnit, toSlider,
} from '../charts/format';
import { stackedBars, type BarRow, type Marker } from '../charts/bars';
import { styles } from './styles';

type PlotsModule = typeof import('../charts/plots');

interface Results {
  state: State;
  mesh: MeshOutcome;
  main: Evaluation<TrainingStepResult | ServingResult> | null;
  transformer: Evaluation<TransformerResult> | null;
  chip: Evaluation<ChipResult> | null;
  ops: { op: MatmulOp; ev: Evaluation<MatmulResult> }[];
  scaling: { point: ScalingPoint; ev: Evaluation<TrainingStepResult | ServingResult> }[];
  curve: { intensity: number; attainable: number }[];
  engineMs: number;
  /** Scenarios in the last batches and how many the page's cache answered. */
  scenarios: number;
  cached: number;
  stage: 'primary' | 'secondary';
}

interface Metric {
  id: string;
  label: string;
  value: number | undefined;
  text: string;
  /** For compare: is a larger value better? (null: neither) */
  higherBetter: boolean | null;
}

const MODEL_KEYS = ['size', 'layers', 'd_model', 'ff_ratio', 'heads', 'kv_heads', 'vocab', 'experts', 'active'];
const GROUP_TITLES: Record<string, string> = {
  workload: 'Workload', hardware: 'Hardware', model: 'Model', mesh: 'Mesh and parallelism', training: 'Training run', serving: 'Serving',
  efficiency: 'Efficiency (fraction of peak)',
};
/** Controls whose change makes an applied plan's exact layout meaningless: the page returns to its own layout. */
const LAYOUT_KEYS = new Set(['dp', 'fsdp', 'tp', 'pp', 'ep', 'cp', 'slices', 'dcn', 'hw']);

/** A plan search the page ran: for which scenario (its text) and on which mesh, and what came back. */
interface SearchRun {
  key: string;
  mesh: { shape: number[]; axis_names: string[] };
  gpu: boolean;
  ev: Evaluation<PlanSearchResult> | null;
  engineMs: number;
  error?: string;
}

/** Test and measurement hooks (read by the browser test; harmless for readers). */
export interface ScalescopeHooks {
  renders: number;
  ready: boolean;
  /**
   * Per slider move, ms from the input event: `rendered` numbers in the DOM (engine + render), `painted` the end of
   * the frame that shows them (frame-aligned), `frameWait` the part of that spent waiting for the frame to begin;
   * `received` the answer back from the worker, `engine` time in wasm, `update` Lit's DOM update of the results;
   * `trips` worker round trips (0 or 1), `calls` wasm calls, `cached` scenarios the page's cache answered;
   * `inputFrame` the end of the first frame after the input (the one that shows the moved slider itself).
   */
  latencies: { rendered: number; painted: number; frameWait: number; inputFrame: number; received: number; engine: number; update: number; trips: number; calls: number; cached: number }[];
  engineLoadMs?: number;
  interactiveMs?: number;
  errors: string[];
  /** URL query of the state on screen now, and of the state the shown numbers were computed for. */
  stateQuery: string;
  resultQuery: string;
  /** URL query of the state the charts were last drawn for. */
  chartsQuery?: string;
  /** The last plan search: time in the engine (ms) and plans listed. */
  search?: { engineMs: number; plans: number; evaluated: number };
}

declare global {
  interface Window {
    __scalescope?: ScalescopeHooks;
  }
}

const COMMS_LABELS: Record<string, string> = {
  data_s: 'DP', fsdp_s: 'FSDP', tensor_s: 'TP', pipeline_s: 'PP', expert_s: 'EP', context_s: 'CP', dcn_s: 'DCN',
};

const THRESHOLD_TITLES: Record<string, string> = {
  dp_fsdp_tokens_per_chip: 'Batch per chip for DP/FSDP',
  tensor_parallel_degree: 'Tensor-parallel degree',
  fsdp_tp_tokens_per_chip: 'Batch per chip for FSDP × TP',
  dcn_tokens_per_slice: 'Batch per slice over DCN',
};

/** Threshold names in words (unknown names: underscores become spaces). */
function thresholdTitle(name: string): string {
  return THRESHOLD_TITLES[name] ?? name.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase());
}

/** A chip field's value in readable units, from the unit in its name (display only). */
function fieldHint(path: string, v: number): string {
  if (path.startsWith('peak_flops_per_s.') || path.endsWith('_flops_per_s')) return fmtFlopsPerS(v);
  if (path.endsWith('_bytes_per_s') || path.endsWith('_bytes_per_s_per_chip') || path.endsWith('_bytes_per_s_per_gpu')) return `${fmtBytes(v)}/s`;
  if (path.endsWith('_bytes')) return fmtBytes(v);
  if (path.endsWith('_hz')) return siUnit(v, 'Hz');
  if (path.endsWith('_s')) return fmtSeconds(v);
  if (path.startsWith('price_usd')) return `${fmtUsd(v)} per chip-hour`;
  return '';
}

function isTraining(r: unknown, state: State): r is TrainingStepResult {
  return state.values['mode'] === 'training' && r !== null && typeof r === 'object';
}

export class ScalescopeExplorer extends LitElement {
  static override styles = styles;
  static override properties = {
    state: { state: true },
    notices: { state: true },
    engineStatus: { state: true },
    engineError: { state: true },
    results: { state: true },
    pinned: { state: true },
    copied: { state: true },
    search: { state: true },
    searching: { state: true },
  };

  state: State = defaultState();
  notices: string[] = [];
  engineStatus: 'loading' | 'ready' | 'error' = 'loading';
  engineError = '';
  results: Results | null = null;
  pinned: { state: State; metrics: Metric[]; summary: string } | null = null;
  copied = '';
  search: SearchRun | null = null;
  searching = false;

  private client: EngineClient | null = null;
  private curveCache = new Map<string, { intensity: number; attainable: number }[]>();
  private urlTimer: ReturnType<typeof setTimeout> | null = null;
  private urlDue: number | null = null;
  private pendingInputTime: number | null = null;
  private receivedAt = 0;
  private secondaryTimer: ReturnType<typeof setTimeout> | null = null;
  private lastBatch = { trips: 0, calls: 0, cached: 0 };
  private chartsAsked = false;
  private plots: PlotsModule | null = null;
  private chartTimer: ReturnType<typeof setTimeout> | null = null;
  private readonly hooks: ScalescopeHooks = { renders: 0, ready: false, latencies: [], errors: [], stateQuery: '', resultQuery: '' };

  override connectedCallback(): void {
    super.connectedCallback();
    window.__scalescope = this.hooks;
    const decoded = decodeState(window.location.search);
    this.state = decoded.state;
    this.hooks.stateQuery = encodeState(this.state);
    this.notices = decoded.notices;
    if (decoded.notices.length) this.writeUrl();
    window.addEventListener('popstate', this.onPopState);
    // The URL lags slider moves by up to 150 ms; never lose the last change to a reload or a closed tab.
    window.addEventListener('pagehide', this.flushUrl);
    this.startEngine();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    window.removeEventListener('popstate', this.onPopState);
    window.removeEventListener('pagehide', this.flushUrl);
  }

  private flushUrl = (): void => {
    if (this.urlTimer) {
      clearTimeout(this.urlTimer);
      this.urlTimer = null;
      this.urlDue = null;
      this.writeUrl();
    }
  };

  private onPopState = (): void => {
    const d = decodeState(window.location.search);
    this.state = d.state;
    this.hooks.stateQuery = encodeState(this.state);
    this.notices = d.notices;
    this.request();
  };

  private startEngine(): void {
    const t0 = performance.now();
    try {
      const worker = new Worker(new URL('../engine/worker.ts', import.meta.url), { type: 'module' });
      const engineBase = new URL('engine/', document.baseURI).href;
      this.client = new EngineClient(worker, engineBase);
      this.client.ready.then(
        (r) => {
          this.engineStatus = 'ready';
          this.hooks.engineLoadMs = r.loadMs;
          this.hooks.ready = true;
          this.request();
          void this.updateComplete.then(() => {
            this.hooks.interactiveMs = performance.now();
          });
          void t0;
        },
        (e: unknown) => this.fail(e),
      );
    } catch (e) {
      this.fail(e);
    }
    // Plot is loaded in the background; charts appear once it is there.
    void import('../charts/plots').then(
      (m) => {
        this.plots = m;
        this.scheduleCharts(true);
      },
      (e: unknown) => this.hooks.errors.push(`charts did not load: ${String(e)}`),
    );
  }

  private fail(e: unknown): void {
    this.engineStatus = 'error';
    this.engineError = e instanceof Error ? e.message : String(e);
  }

  // ---------------------------------------------------------------------------------------------- state changes

  /** End of the first frame after the last input (see ScalescopeHooks.latencies). */
  private inputFrameAt = NaN;

  private markInput(ev?: Event): void {
    const t0 = ev ? ev.timeStamp : performance.now();
    this.pendingInputTime = t0;
    this.inputFrameAt = NaN;
    requestAnimationFrame(() => {
      const ch = new MessageChannel();
      ch.port1.onmessage = () => {
        if (this.pendingInputTime === t0 || this.pendingInputTime === null) this.inputFrameAt = performance.now();
      };
      ch.port2.postMessage(null);
    });
  }

  private setValue(key: string, value: Value, ev?: Event): void {
    this.markInput(ev);
    const s = cloneState(this.state);
    s.values[key] = value;
    if (LAYOUT_KEYS.has(key)) s.values['layout'] = param('layout').default;
    if (key === 'hw') s.hw = {};
    if (key === 'model') for (const k of MODEL_KEYS) s.values[k] = param(k).default;
    this.state = s;
    this.afterChange();
  }

  private setHardwareField(path: string, value: number | boolean | null): void {
    this.markInput();
    const s = cloneState(this.state);
    const preset = hardwareFields(hardwarePreset(String(s.values['hw']))).find((f) => f.path === path);
    if (value === null || (preset && preset.value === value)) delete s.hw[path];
    else s.hw[path] = value;
    this.state = s;
    this.afterChange();
  }

  private afterChange(): void {
    this.hooks.stateQuery = encodeState(this.state);
    this.scheduleUrl();
    this.request();
  }

  private scheduleUrl(): void {
    // history.replaceState costs about a millisecond in Chromium: write the URL once the controls rest for 150 ms
    // (never more than 1 s late while a slider keeps moving), so it does not compete with a move's paint.
    const now = performance.now();
    this.urlDue ??= now + 1000;
    if (this.urlTimer) clearTimeout(this.urlTimer);
    this.urlTimer = setTimeout(() => {
      this.urlTimer = null;
      this.urlDue = null;
      this.writeUrl();
    }, Math.max(0, Math.min(150, this.urlDue - now)));
  }

  private writeUrl(): void {
    const q = encodeState(this.state);
    const url = `${window.location.pathname}?${q}${window.location.hash}`;
    window.history.replaceState(null, '', url);
  }

  private resetAll(): void {
    this.state = defaultState();
    this.notices = [];
    this.afterChange();
  }

  private async copyLink(): Promise<void> {
    this.writeUrl();
    try {
      await navigator.clipboard.writeText(window.location.href);
      this.copied = 'Link copied.';
    } catch {
      this.copied = 'Copy the address bar: it always holds this page’s link.';
    }
    setTimeout(() => (this.copied = ''), 2500);
  }

  // ---------------------------------------------------------------------------------------------- engine

  /**
   * Two stages, both "latest only": first what the bars and numbers need (planner, model, chip, matmuls), painted
   * at once; then the scaling points and (once per chip) the roofline curve, for the charts.
   */
  private request(): void {
    const client = this.client;
    if (!client || this.engineStatus !== 'ready') return;
    const state = this.state;
    const mesh = meshFor(state);
    const texts: string[] = [];
    const push = (x: unknown): number => texts.push(JSON.stringify(x)) - 1;
    const iMain = mesh.ok ? push(mainScenario(state, mesh.plan)) : -1;
    const iTransformer = push(transformerScenario(state));
    const iChip = push(chipScenario(state));
    const hardware = chipScenario(state).hardware;
    const ops = mainMatmuls(state, mesh.ok ? mesh.plan : null).map((op) => ({ op, i: push({ version: 1, hardware, query: op.query }) }));
    client.evaluate(texts).then(
      (batch) => {
        if (!batch) return; // a newer request replaced this one
        this.receivedAt = performance.now();
        this.lastBatch = { trips: batch.trips, calls: batch.calls, cached: batch.cached };
        const r = batch.results;
        const curveKey = JSON.stringify(rooflineCurveScenarios(state)[0]);
        this.results = {
          state,
          mesh,
          main: iMain >= 0 ? (r[iMain] as Evaluation<TrainingStepResult | ServingResult>) : null,
          transformer: r[iTransformer] as Evaluation<TransformerResult>,
          chip: r[iChip] as Evaluation<ChipResult>,
          ops: ops.map(({ op, i }) => ({ op, ev: r[i] as Evaluation<MatmulResult> })),
          scaling: this.results?.state === state ? this.results.scaling : [],
          curve: this.curveCache.get(curveKey) ?? [],
          engineMs: batch.engineMs,
          scenarios: texts.length,
          cached: batch.cached,
          stage: 'primary',
        };
        // The charts' batch waits until the controls rest (150 ms without a change), so it never delays the next
        // move's numbers; only the very first charts are asked for at once.
        if (this.secondaryTimer) clearTimeout(this.secondaryTimer);
        this.secondaryTimer = setTimeout(() => {
          this.secondaryTimer = null;
          if (this.state === state) this.requestSecondary(state, curveKey);
        }, this.chartsAsked ? 150 : 0);
        this.chartsAsked = true;
      },
      (e: unknown) => this.fail(e),
    );
  }

  private requestSecondary(state: State, curveKey: string): void {
    const client = this.client;
    if (!client) return;
    const texts: string[] = [];
    const scaling = scalingScenarios(state).map((point) => ({ point, i: texts.push(JSON.stringify(point.scenario)) - 1 }));
    const needCurve = !this.curveCache.has(curveKey);
    const curveStart = texts.length;
    if (needCurve) for (const c of rooflineCurveScenarios(state)) texts.push(JSON.stringify(c));
    client.evaluate(texts, 'charts').then(
      (batch) => {
        if (!batch || this.results?.state !== state) return;
        const r = batch.results;
        if (needCurve) {
          const curve = ROOFLINE_INTENSITIES.map((intensity, k) => ({ intensity, attainable: (r[curveStart + k]?.result as RooflineResult | undefined)?.attainable_flops_per_s ?? NaN }))
            .filter((p) => Number.isFinite(p.attainable));
          this.curveCache.set(curveKey, curve);
        }
        this.results = {
          ...this.results,
          scaling: scaling.map(({ point, i }) => ({ point, ev: r[i] as Evaluation<TrainingStepResult | ServingResult> })),
          curve: this.curveCache.get(curveKey) ?? [],
          engineMs: this.results.engineMs + batch.engineMs,
          scenarios: this.results.scenarios + texts.length,
          cached: this.results.cached + batch.cached,
          stage: 'secondary',
        };
      },
      (e: unknown) => this.fail(e),
    );
  }

  // ---------------------------------------------------------------------------------------------- plan search

  /** Asks the engine for the best training plans for the current chips, model, batch and precision. */
  private runSearch(): void {
    const client = this.client;
    const sc = planSearchScenario(this.state);
    if (!client || !sc?.mesh) return;
    const key = JSON.stringify(sc);
    const gpu = hardwarePreset(String(this.state.values['hw'])).kind === 'gpu';
    const mesh = { shape: sc.mesh.shape, axis_names: sc.mesh.axis_names ?? [] };
    this.searching = true;
    client.evaluate([key], 'search').then(
      (batch) => {
        if (!batch) return; // a newer search replaced this one
        this.searching = false;
        const ev = batch.results[0] as Evaluation<PlanSearchResult>;
        this.search = { key, mesh, gpu, ev, engineMs: batch.engineMs };
        this.hooks.search = { engineMs: batch.engineMs, plans: ev.result?.plans.length ?? 0, evaluated: ev.result?.evaluated ?? 0 };
      },
      (e: unknown) => {
        this.searching = false;
        this.search = { key, mesh, gpu, ev: null, engineMs: 0, error: e instanceof Error ? e.message : String(e) };
      },
    );
  }

  /** Sets the controls to a searched plan (src/state/plans.ts), as if the reader had moved them. */
  private applyPlan(plan: SearchedPlan): void {
    const run = this.search;
    if (!run) return;
    const a = applyPlan(this.state, plan, run.mesh);
    if (!a.ok) {
      this.notices = a.problems;
      return;
    }
    this.markInput();
    this.state = a.state;
    this.afterChange();
  }

  private renderPlans(r: Results): TemplateResult {
    const sc = planSearchScenario(r.state);
    const key = sc ? JSON.stringify(sc) : '';
    const run = this.search;
    const hw = hardwarePreset(String(r.state.values['hw']));
    const chips = r.mesh.ok ? r.mesh.plan.chips : 0;
    const what = hw.kind === 'gpu'
      ? `${chips} GPUs factorised into data × pipeline × tensor (tensor inside the NVLink domain)`
      : `each torus axis of the ${r.mesh.ok ? r.mesh.plan.shape.join('×') : ''} slice given to one strategy${r.mesh.ok && r.mesh.plan.slices > 1 ? ', the slices joined by data parallelism' : ''}`;
    if (!sc || !r.mesh.ok) {
      return html`
        <section class="panel" aria-labelledby="h-plans" data-plans>
          <h3 id="h-plans">Best plans for these chips</h3>
          <p class="muted">A plan search starts from a mesh the chip can hold; fix the mesh problem above first.</p>
        </section>`;
    }
    const stale = run !== null && run.key !== key;
    const res = run?.ev?.ok ? run.ev.result : undefined;
    const days = (x: number): string => (Number.isFinite(x) ? `${sig(x / 86400)} days` : '—');
    const degreesText = (p: SearchedPlan): string => {
      const parts = (Object.keys(DEGREE_KEY) as Strategy[]).filter((k) => (p.degrees[k] ?? 1) > 1).map((k) => `${STRATEGY_LABEL[k]} ${p.degrees[k]}`);
      return parts.length ? parts.join(' · ') : 'one chip';
    };
    return html`
      <section class="panel" aria-labelledby="h-plans" data-plans>
        <h3 id="h-plans">Best plans for these chips</h3>
        <p class="muted">The engine tries ${what}, with ZeRO 1 or 3, several microbatch counts and remat none or block, checks each like a
          training step and ranks them: plans that fit in HBM first, then by step time. Batch, sequence, precision and efficiency are the ones set here.</p>
        <div class="plan-actions">
          <button type="button" id="find-plans" ?disabled=${!sc || this.searching || this.engineStatus !== 'ready'} @click=${() => this.runSearch()}>
            ${run && !stale ? 'Search again' : 'Find best plans'}</button>
          <span role="status" aria-live="polite" class="muted">${this.searching ? 'Searching…' : res ? `${fmtCount(res.evaluated)} plans evaluated, ${fmtCount(res.valid)} valid, ${fmtCount(res.fitting)} fit in HBM; ${sig(run!.engineMs)} ms in the engine.` : ''}</span>
        </div>
        ${run?.error ? html`<div class="error" role="alert">${run.error}</div>` : nothing}
        ${run?.ev && !run.ev.ok ? this.renderDiagnostics(run.ev.diagnostics, 'plan_search') : nothing}
        ${stale && res ? html`<p class="notice-inline" data-plans-stale>These plans were found for other settings (chips, model, batch or precision changed); search again to rank plans for these.</p>` : nothing}
        ${res && run ? html`
          ${run.ev!.diagnostics.length ? this.renderDiagnostics(run.ev!.diagnostics, 'plan_search') : nothing}
          <div class="table-wrap"><table class="plans ${stale ? 'stale' : ''}">
            <thead><tr><th scope="col">#</th><th scope="col">Plan</th><th scope="col">Step</th><th scope="col">MFU</th><th scope="col">Memory per chip</th>
              <th scope="col">Binding threshold</th><th scope="col">Time and cost to train</th><th scope="col"><span class="sr-only">Apply</span></th></tr></thead>
            <tbody>
              ${res.plans.map((p, i) => {
                const current = !stale && isCurrentPlan(r.state, p, run.mesh);
                const extras = [`ZeRO-${p.parallelism.zero_stage ?? 3}`, `${p.parallelism.microbatches ?? 1} microbatch${(p.parallelism.microbatches ?? 1) === 1 ? '' : 'es'}`, `remat ${p.remat}`];
                if (p.degrees.fsdp <= 1) extras.shift();
                return html`<tr data-plan=${i} data-step=${String(p.step_s)} class=${current ? 'current' : ''} aria-current=${current ? 'true' : 'false'}>
                  <td>${i + 1}</td>
                  <th scope="row"><span class="plan-deg">${degreesText(p)}</span>
                    <span class="help">${p.mesh ? `mesh ${p.mesh.shape.join('×')} · ` : ''}${extras.join(' · ')}${current ? html` <span class="badge">on screen</span>` : nothing}</span></th>
                  <td>${fmtSeconds(p.step_s)} <span class="help">${p.bound}-bound</span></td>
                  <td>${fmtPercent(p.mfu_frac)}</td>
                  <td class=${p.fits ? '' : 'worse'}>${fmtBytes(p.memory_bytes)} ${p.fits ? html`<span class="ok-mark" aria-label="fits">✓</span>` : html`<span aria-label="does not fit">✗ does not fit</span>`}</td>
                  <td class="wrap">${p.binding ? thresholdTitle(p.binding) : '—'}</td>
                  <td>${days(p.train_time_s)} <span class="help">${fmtUsd(p.train_usd)}</span></td>
                  <td><button type="button" data-apply=${i} ?disabled=${stale || current} @click=${() => this.applyPlan(p)}
                    aria-label="Apply plan ${i + 1}: ${degreesText(p)}">${current ? 'Applied' : 'Apply'}</button></td>
                </tr>`;
              })}
            </tbody>
          </table></div>` : nothing}
      </section>`;
  }

  /** Time of Lit's last DOM update (for the timing breakdown). */
  private lastUpdateMs = 0;

  protected override update(changed: PropertyValues<this>): void {
    const t = performance.now();
    super.update(changed);
    this.lastUpdateMs = performance.now() - t;
  }

  protected override updated(changed: PropertyValues<this>): void {
    if (!changed.has('results') || !this.results) return;
    this.hooks.renders++;
    this.setAttribute('data-renders', String(this.hooks.renders));
    // Latency counts only the first paint of numbers computed for the state the input produced.
    const current = this.results.state === this.state && this.results.stage === 'primary';
    if (current) this.hooks.resultQuery = encodeState(this.results.state);
    const t0 = current ? this.pendingInputTime : null;
    if (current) this.pendingInputTime = null;
    const rendered = performance.now();
    const updateMs = this.lastUpdateMs;
    const batch = this.lastBatch;
    const engineMs = this.results.engineMs;
    // The frame that paints this DOM: the next animation frame (from the DOM update until its callbacks run the page
    // only waits for the frame to begin), then a task after its rendering steps.
    requestAnimationFrame(() => {
      const frameStart = performance.now();
      const ch = new MessageChannel();
      ch.port1.onmessage = () => {
        if (t0 !== null) {
          this.hooks.latencies.push({
            rendered: rendered - t0, painted: performance.now() - t0, frameWait: Math.max(0, frameStart - rendered), inputFrame: this.inputFrameAt - t0, received: this.receivedAt - t0,
            engine: engineMs, update: updateMs, trips: batch.trips, calls: batch.calls, cached: batch.cached,
          });
        }
        this.scheduleCharts(false);
      };
      ch.port2.postMessage(null);
    });
  }

  private scheduleCharts(now: boolean): void {
    if (this.chartTimer) clearTimeout(this.chartTimer);
    // Charts (Plot) redraw after the bars have painted and the controls have rested for a moment.
    const wait = now ? 0 : 100;
    this.chartTimer = setTimeout(() => {
      this.chartTimer = null;
      this.drawCharts();
    }, wait);
  }

  private drawCharts(): void {
    const r = this.results;
    const P = this.plots;
    const root = this.renderRoot as ShadowRoot;
    const roof = root.querySelector<HTMLElement>('#roofline-chart');
    const scal = root.querySelector<HTMLElement>('#scaling-chart');
    if (!r || !P || !roof || !scal) return;
    // Until the charts' batch is back the scaling chart shows the previous configuration: say so by fading it.
    const fresh = r.stage === 'secondary' && r.state === this.state;
    scal.classList.toggle('stale', !fresh);
    const width = Math.max(320, Math.min(760, roof.clientWidth || 640));
    const ops = r.ops
      .filter((o) => o.ev.ok && o.ev.result)
      .map((o) => ({ name: o.op.name, intensity: o.ev.result!.intensity_flops_per_byte, attainable: o.ev.result!.attainable_flops_per_s, bound: o.ev.result!.bound }));
    const ridge = r.ops.find((o) => o.ev.ok)?.ev.result?.critical_intensity_flops_per_byte;
    roof.replaceChildren(r.curve.length ? P.rooflineChart(r.curve, ops, ridge, width) : document.createTextNode('The engine gave no roofline for this chip.'));
    const sweepEl = root.querySelector<HTMLElement>('#sweep-chart');
    const served = r.state.values['mode'] === 'serving' && r.main?.ok ? (r.main.result as ServingResult) : undefined;
    if (sweepEl && served) {
      const pts = (served.sweep ?? []).filter((p) => p.fits && p.latency_per_token_s > 0 && p.tokens_per_s_per_chip > 0);
      const current = { batch: Number(r.state.values['sbatch']), latency: served.latency_per_token_s, throughput: served.tokens_per_s_per_chip, fits: served.memory.fits };
      sweepEl.replaceChildren(pts.length >= 2 ? P.sweepChart(pts, current, width) : Object.assign(document.createElement('p'), { className: 'muted', textContent: 'No frontier: fewer than two batch sizes fit in HBM at this context.' }));
    }
    if (!fresh) return;
    this.hooks.chartsQuery = encodeState(r.state);
    const serving = r.state.values['mode'] === 'serving';
    const pts = r.scaling
      .filter((s) => s.ev.ok && s.ev.result)
      .map((s) => {
        const res = s.ev.result as TrainingStepResult & ServingResult;
        const value = serving ? res.latency_per_token_s : res.time?.step_s;
        return { chips: s.point.chips, value, current: s.point.factor === 1 };
      })
      .filter((p) => typeof p.value === 'number' && Number.isFinite(p.value) && p.value > 0) as { chips: number; value: number; current: boolean }[];
    if (pts.length >= 2) {
      scal.replaceChildren(P.scalingChart(pts, serving ? '↑ Latency per token' : '↑ Step time', fmtSecondsTick, width));
    } else {
      const why = r.scaling.find((s) => !s.ev.ok)?.ev.diagnostics[0]?.message ?? r.main?.diagnostics[0]?.message;
      const p = document.createElement('p');
      p.className = 'muted';
      p.textContent = why ? `No curve: ${why}` : 'No curve: fewer than two chip counts give a valid plan.';
      scal.replaceChildren(p);
    }
  }

  // ---------------------------------------------------------------------------------------------- controls

  private presetValue(key: string): number | undefined {
    const m = effectiveModel(modelPreset(String(this.state.values['model'])), { ...this.state, values: { ...this.state.values, size: 1 } });
    const map: Record<string, number> = {
      layers: m.layers, d_model: m.d_model, ff_ratio: Number((m.d_ff / m.d_model).toFixed(3)), heads: m.heads, kv_heads: m.kv_heads,
      vocab: m.vocab, experts: m.experts, active: m.active_experts,
    };
    return map[key];
  }

  private chipsValue(): number {
    const m = meshFor(this.state);
    return m.ok ? m.plan.chips : NaN;
  }

  /** What the engine used for a parameter left at its default (null): the KV context of the last serving answer. */
  private engineDefault(key: string): number | undefined {
    if (key !== 'kvctx' || this.results?.state.values['mode'] !== 'serving') return undefined;
    return (this.results.main?.result as ServingResult | undefined)?.kv_context_len;
  }

  private renderNumberControl(p: Param, disabled = false): TemplateResult {
    const raw = this.state.values[p.key];
    const overridden = raw !== null && raw !== p.default;
    const fromModel = p.group === 'model';
    const value = typeof raw === 'number' ? raw : ((fromModel ? this.presetValue(p.key) : this.engineDefault(p.key)) ?? Number(p.default ?? p.min ?? 0));
    const isInt = p.type === 'int';
    const sMin = toSlider(p.min ?? 0, p.scale);
    const sMax = toSlider(p.max ?? 100, p.scale);
    const sStep = p.scale === 'log2' ? 1 : p.scale === 'log10' ? 0.01 : (p.step ?? 1);
    const id = `c-${p.key}`;
    const onRange = (e: Event): void => {
      const pos = Number((e.target as HTMLInputElement).value);
      this.setValue(p.key, fromSlider(pos, p.scale, isInt), e);
    };
    const onNumber = (e: Event): void => {
      const el = e.target as HTMLInputElement;
      const n = Number(el.value);
      const ok = el.value.trim() !== '' && Number.isFinite(n) && (!isInt || Number.isInteger(n)) && n >= (p.min ?? -Infinity) && n <= (p.max ?? Infinity);
      el.setCustomValidity(ok ? '' : `Enter ${isInt ? 'a whole number' : 'a number'} from ${p.min} to ${p.max}`);
      el.reportValidity();
      if (ok) this.setValue(p.key, n, e);
    };
    return html`
      <div class="ctl ${overridden ? 'overridden' : ''}" title=${p.help}>
        <label for=${id}>${p.label}${p.unit ? html` <span class="unit">(${p.unit})</span>` : nothing}
          ${overridden && p.default === null ? html`<span class="badge">overridden</span>` : p.default === null && !fromModel ? html`<span class="unit">engine default</span>` : nothing}</label>
        <div class="pair">
          <input type="range" id=${id} data-key=${p.key} min=${sMin} max=${sMax} step=${sStep} .value=${String(toSlider(value, p.scale))}
            ?disabled=${disabled} @input=${onRange} aria-describedby="${id}-help" />
          <input type="number" class="num" data-key=${p.key} aria-label="${p.label} value" min=${p.min ?? ''} max=${p.max ?? ''} step="any"
            .value=${String(value)} ?disabled=${disabled} @change=${onNumber} />
          ${overridden && p.default === null ? html`<button type="button" class="reset" title=${fromModel ? 'Back to the preset' : 'Back to the engine’s default'} aria-label="Reset ${p.label} to the ${fromModel ? 'preset' : 'default'}" @click=${() => this.setValue(p.key, null)}>↺</button>` : nothing}
        </div>
        <span id="${id}-help" class="help">${p.help}</span>
      </div>`;
  }

  private renderEnumControl(p: Param): TemplateResult {
    const id = `c-${p.key}`;
    const v = String(this.state.values[p.key]);
    const label = (c: string): string => {
      if (p.key === 'hw') return PRESETS.hardware.find((h) => h.id === c)?.name ?? c;
      if (p.key === 'model') return PRESETS.models.find((m) => m.id === c)?.name ?? c;
      return c;
    };
    return html`
      <div class="ctl" title=${p.help}>
        <label for=${id}>${p.label}</label>
        <select id=${id} data-key=${p.key} @change=${(e: Event) => this.setValue(p.key, (e.target as HTMLSelectElement).value, e)}>
          ${(p.choices ?? []).map((c) => html`<option value=${c} ?selected=${c === v}>${label(c)}</option>`)}
        </select>
      </div>`;
  }

  private renderBoolControl(p: Param): TemplateResult {
    const id = `c-${p.key}`;
    return html`
      <div class="ctl check" title=${p.help}>
        <input type="checkbox" id=${id} data-key=${p.key} .checked=${this.state.values[p.key] === true}
          @change=${(e: Event) => this.setValue(p.key, (e.target as HTMLInputElement).checked, e)} />
        <label for=${id}>${p.label}</label>
      </div>`;
  }

  /** A row with `showIf` is shown (and sent) only while its condition holds. */
  private shown(p: Param): boolean {
    return !p.hidden && (!p.showIf || this.state.values[p.showIf.key] === p.showIf.value);
  }

  private renderControl(p: Param): TemplateResult {
    if (p.type === 'enum') return this.renderEnumControl(p);
    if (p.type === 'bool') return this.renderBoolControl(p);
    return this.renderNumberControl(p);
  }

  private renderHardwareFields(): TemplateResult {
    const hw = hardwarePreset(String(this.state.values['hw']));
    const fields = hardwareFields(hw);
    const n = Object.keys(this.state.hw).length;
    return html`
      <details class="hwfields" ?open=${n > 0}>
        <summary>Chip fields${n ? html` <span class="badge">${n} overridden</span>` : nothing}</summary>
        ${fields.map((f) => {
          const over = this.state.hw[f.path];
          const id = `hw-${f.path.replaceAll('.', '-')}`;
          const value = over ?? f.value;
          if (typeof f.value === 'boolean') {
            return html`<div class="ctl check ${over !== undefined ? 'overridden' : ''}" title=${f.source ?? ''}>
              <input type="checkbox" id=${id} .checked=${value === true} @change=${(e: Event) => this.setHardwareField(f.path, (e.target as HTMLInputElement).checked)} />
              <label for=${id}>${f.path}</label>
              ${over !== undefined ? html`<span class="badge">overridden</span>` : nothing}</div>`;
          }
          return html`<div class="ctl hwf ${over !== undefined ? 'overridden' : ''}" title=${f.source ? `source: ${f.source}` : ''}>
            <label for=${id}>${f.path}</label>
            <div class="pair">
              <input type="number" class="num wide" id=${id} data-hw=${f.path} step="any" min="0" .value=${String(value)}
                @change=${(e: Event) => {
                  const el = e.target as HTMLInputElement;
                  const v = Number(el.value);
                  const ok = el.value.trim() !== '' && Number.isFinite(v) && v > 0;
                  el.setCustomValidity(ok ? '' : 'Enter a positive number');
                  el.reportValidity();
                  if (ok) this.setHardwareField(f.path, v);
                }} />
              ${over !== undefined ? html`<span class="badge">overridden</span><button type="button" class="reset" aria-label="Reset ${f.path}" @click=${() => this.setHardwareField(f.path, null)}>↺</button>` : nothing}
            </div><span class="help">${fieldHint(f.path, Number(value))}</span></div>`;
        })}
      </details>`;
  }

  private renderChipsControl(): TemplateResult {
    const chips = this.chipsValue();
    const hw = hardwarePreset(String(this.state.values['hw']));
    const serving = this.state.values['mode'] === 'serving';
    const target = serving ? 'tp' : Number(this.state.values['fsdp']) > 1 || Number(this.state.values['dp']) === 1 ? 'fsdp' : 'dp';
    const moveTo = (want: number, e: Event): void => {
      if (!Number.isFinite(chips) || chips <= 0 || !Number.isFinite(want) || want < 1) return;
      const cur = Number(this.state.values[target]);
      const next = Math.max(1, Math.round((cur * want) / chips));
      const p = param(target);
      this.setValue(target, Math.min(p.max ?? next, next), e);
    };
    const onRange = (e: Event): void => moveTo(2 ** Number((e.target as HTMLInputElement).value), e);
    const onNumber = (e: Event): void => {
      const el = e.target as HTMLInputElement;
      const n = Number(el.value);
      const ok = Number.isInteger(n) && n >= 1 && n <= 1048576;
      el.setCustomValidity(ok ? '' : 'Enter a whole number of chips');
      el.reportValidity();
      if (ok) moveTo(n, e);
    };
    const mesh = meshFor(this.state);
    return html`
      <div class="ctl" title="Total chips: moves the ${param(target).label} degree">
        <label for="c-chips">Chips <span class="unit">(moves ${param(target).label})</span></label>
        <div class="pair">
          <input type="range" id="c-chips" data-key="chips" min="0" max="14" step="1" .value=${String(Math.log2(Number.isFinite(chips) ? chips : 1))} @input=${onRange} />
          <input type="number" class="num" data-key="chips" aria-label="Chips value" min="1" step="1" .value=${Number.isFinite(chips) ? String(chips) : ''} @change=${onNumber} />
        </div>
        <span class="help" data-mesh-help>${mesh.ok ? (hw.kind === 'gpu' ? `${nodesTimesGpus(hw, mesh.plan.chips)} · ` : '') + describePlan(mesh.plan) : mesh.problem}${activeLayout(this.state) ? html` <span class="badge" title="the exact mesh of an applied plan; moving a degree returns to the page’s own layout">plan’s layout</span>` : nothing}</span>
      </div>`;
  }

  private renderControls(): TemplateResult {
    const mode = String(this.state.values['mode']);
    const hw = hardwarePreset(String(this.state.values['hw']));
    const groups = ['workload', 'hardware', 'model', 'mesh', mode === 'serving' ? 'serving' : 'training', 'efficiency'];
    // A slider move re-renders only its own group: each group depends on its own values and the mode, chip and model.
    return html`${groups.map((g) => guard(this.groupDeps(g), () => html`
      <fieldset class="group" data-group=${g}>
        <legend>${GROUP_TITLES[g]}</legend>
        ${g === 'mesh' ? this.renderChipsControl() : nothing}
        ${PARAMS.filter((p) => p.group === g && inMode(p, mode) && this.shown(p) && !(hw.kind === 'gpu' && (p.key === 'slices' || p.key === 'dcn'))).map((p) => this.renderControl(p))}
        ${g === 'hardware' ? this.renderHardwareFields() : nothing}
      </fieldset>`))}`;
  }

  /** What a group of controls shows depends on: its parameters, the mode, chip and model (presets, GPU or TPU). */
  private groupDeps(g: string): unknown[] {
    const v = this.state.values;
    const deps: unknown[] = [g, v['mode'], v['hw'], v['model']];
    for (const p of PARAMS) if (p.group === g) deps.push(v[p.key]);
    if (g === 'hardware') deps.push(JSON.stringify(this.state.hw));
    if (g === 'serving') deps.push(this.engineDefault('kvctx'));
    return deps;
  }

  // ---------------------------------------------------------------------------------------------- results

  private metrics(r: Results): Metric[] {
    const res = r.main?.ok ? r.main.result : undefined;
    const chips = r.mesh.ok ? r.mesh.plan.chips : undefined;
    const out: Metric[] = [{ id: 'chips', label: 'Chips', value: chips, text: chips === undefined ? '—' : String(chips), higherBetter: null }];
    if (r.state.values['mode'] === 'serving') {
      const s = res as ServingResult | undefined;
      const price = r.chip?.result?.price_usd_per_chip_hour;
      const perHour = price !== undefined && chips !== undefined ? price * chips : undefined;
      out.push(
        { id: 'ttft_s', label: 'Time to first token', value: s?.prefill?.time_s, text: fmtSeconds(s?.prefill?.time_s), higherBetter: false },
        { id: 'latency_per_token_s', label: 'Latency per token', value: s?.latency_per_token_s, text: fmtSeconds(s?.latency_per_token_s), higherBetter: false },
        ...(s?.speculative ? [{ id: 'spec_latency_per_token_s', label: 'Latency per token, speculative', value: s.speculative.latency_per_token_s, text: fmtSeconds(s.speculative.latency_per_token_s), higherBetter: false }] : []),
        { id: 'tokens_per_s', label: 'Tokens/s', value: s?.tokens_per_s, text: fmtRate(s?.tokens_per_s, 'tok/s'), higherBetter: true },
        { id: 'tokens_per_s_per_chip', label: 'Tokens/s per chip', value: s?.tokens_per_s_per_chip, text: fmtRate(s?.tokens_per_s_per_chip, 'tok/s'), higherBetter: true },
        { id: 'memory_bytes', label: 'Memory (replica)', value: s?.memory?.total_bytes, text: fmtBytes(s?.memory?.total_bytes), higherBetter: false },
        { id: 'usd_per_hour', label: 'Cost per hour', value: perHour, text: fmtUsd(perHour), higherBetter: false },
        { id: 'usd_per_million_output_tokens', label: '$ per 1M output tokens', value: s?.usd_per_million_output_tokens, text: fmtUsd(s?.usd_per_million_output_tokens), higherBetter: false },
        { id: 'usd_per_million_input_tokens', label: '$ per 1M input tokens', value: s?.usd_per_million_input_tokens, text: fmtUsd(s?.usd_per_million_input_tokens), higherBetter: false },
      );
    } else {
      const t = res as TrainingStepResult | undefined;
      const usdPerMTok = t?.cost?.usd_per_hour !== undefined && t.tokens_per_s ? (t.cost.usd_per_hour / 3600 / t.tokens_per_s) * 1e6 : undefined;
      out.push(
        { id: 'step_s', label: 'Step time', value: t?.time?.step_s, text: fmtSeconds(t?.time?.step_s), higherBetter: false },
        { id: 'mfu_frac', label: 'MFU', value: t?.mfu_frac, text: fmtPercent(t?.mfu_frac), higherBetter: true },
        { id: 'tokens_per_s', label: 'Tokens/s', value: t?.tokens_per_s, text: fmtRate(t?.tokens_per_s, 'tok/s'), higherBetter: true },
        { id: 'train_time_s', label: 'Time to train', value: t?.cost?.train_time_s, text: fmtSeconds(t?.cost?.train_time_s), higherBetter: false },
        { id: 'memory_bytes', label: 'Memory per chip', value: t?.memory?.total_bytes, text: fmtBytes(t?.memory?.total_bytes), higherBetter: false },
        { id: 'usd_per_hour', label: 'Cost per hour', value: t?.cost?.usd_per_hour, text: fmtUsd(t?.cost?.usd_per_hour), higherBetter: false },
        { id: 'train_usd', label: 'Cost of the run', value: t?.cost?.train_usd, text: fmtUsd(t?.cost?.train_usd), higherBetter: false },
        { id: 'usd_per_million_tokens', label: '$ per 1M tokens', value: usdPerMTok, text: fmtUsd(usdPerMTok), higherBetter: false },
      );
    }
    return out;
  }

  private renderDiagnostics(diags: Diagnostic[], what: string): TemplateResult | typeof nothing {
    if (!diags.length) return nothing;
    // Name the control behind a diagnostic's JSON path when the parameter table has one.
    const label = (path: string): string => {
      if (path === '' || path === '/query') return '';
      const p = PARAMS.find((x) => x.path === path || x.path.startsWith(path + ' ') || x.path.startsWith(path + '/'));
      if (p) return `${p.label}: `;
      if (path.startsWith('/mesh')) return 'Mesh: ';
      if (path.startsWith('/query/parallelism')) return 'Parallelism: ';
      if (path.startsWith('/hardware')) return 'Hardware: ';
      if (path.startsWith('/model')) return 'Model: ';
      return `${path}: `;
    };
    const unavailable = diags.some((d) => d.code === 'unknown_choice' && d.path === '/query/kind');
    return html`
      <div class="diagnostics" role="status" data-diagnostics=${what}>
        ${unavailable ? html`<p><strong>Not available yet:</strong> this engine build cannot answer the ${what} query. The rest of the page still works.</p>` : nothing}
        <ul>
          ${diags.map((d) => html`<li class=${d.severity === 'warning' ? 'warn' : 'err'} data-code=${d.code}>
            <span class="sev">${d.severity === 'warning' ? 'Warning' : 'Problem'}</span> ${label(d.path)}${d.message}</li>`)}
        </ul>
      </div>`;
  }

  private renderTraining(r: Results, t: TrainingStepResult | undefined): TemplateResult {
    if (!t) return html``;
    const c = t.time?.comms ?? ({} as TrainingStepResult['time']['comms']);
    const commsSegs = (Object.entries(c) as [string, number][])
      .filter(([, v]) => typeof v === 'number' && v > 0)
      .map(([k, v], i) => ({ label: `${COMMS_LABELS[k] ?? k.replace(/_s$/, '').toUpperCase()} comms`, value: v, colour: COMMS_COLOURS[i % COMMS_COLOURS.length]! }));
    const commsSum = commsSegs.reduce((a, x) => a + x.value, 0);
    const commsNote = t.time?.comms_s !== undefined && Math.abs(commsSum - t.time.comms_s) > 1e-12 * Math.max(1, commsSum)
      ? `axes overlap: counts as ${fmtSeconds(t.time.comms_s)}` : undefined;
    const crit = String(t.time?.critical ?? '');
    const bound = String(t.time?.bound ?? '');
    const rows: BarRow[] = [
      { label: 'Compute', segments: [{ label: 'compute', value: t.time?.compute_s ?? 0, colour: COLOURS.compute }, { label: 'pipeline bubble', value: t.time?.bubble_s ?? 0, colour: COLOURS.bubble }], emphasis: bound === 'compute' },
      { label: 'Memory (HBM)', segments: [{ label: 'HBM traffic', value: t.time?.hbm_s ?? 0, colour: COLOURS.memory }], emphasis: bound === 'memory' },
      { label: 'Communication', segments: commsSegs, emphasis: bound === 'communication', ...(commsNote ? { note: commsNote } : {}) },
    ];
    const markers: Marker[] = t.time?.step_s !== undefined ? [{ value: t.time.step_s, label: `step ${fmtSeconds(t.time.step_s)}`, colour: COLOURS.highlight }] : [];
    const m = t.memory;
    const memRows: BarRow[] = m
      ? [{
          label: 'Per chip',
          segments: [
            { label: 'parameters', value: m.params_bytes, colour: COLOURS.params },
            { label: 'master weights', value: m.master_weights_bytes, colour: COLOURS.master },
            { label: 'gradients', value: m.grads_bytes, colour: COLOURS.grads },
            { label: 'optimizer states', value: m.optimizer_bytes, colour: COLOURS.optimizer },
            { label: 'activations', value: m.activations_bytes, colour: COLOURS.activations },
            { label: 'context buffers', value: m.context_buffers_bytes, colour: COLOURS.other },
          ],
          note: m.fits ? 'fits' : `does not fit: ${fmtBytes(m.shortfall_bytes)} short`,
        }]
      : [];
    return html`
      <section class="panel" aria-labelledby="h-time">
        <h3 id="h-time">Where the step goes</h3>
        <p class="bound" data-bound=${bound}>
          <strong>${bound ? `${bound[0]!.toUpperCase()}${bound.slice(1)}-bound` : ''}</strong>${crit ? html`; critical path: <strong>${crit}</strong>` : nothing}.
          Perfect overlap gives ${fmtSeconds(t.time?.lower_bound_s)} (the book’s estimate); no overlap ${fmtSeconds(t.time?.upper_bound_s)};
          exposed communication ${fmtSeconds(t.time?.exposed_comms_s)}.
        </p>
        ${stackedBars(rows, markers, fmtSeconds, 'Time per step by component')}
      </section>
      <section class="panel" aria-labelledby="h-mem">
        <h3 id="h-mem">Memory per chip</h3>
        ${m ? stackedBars(memRows, [{ value: m.hbm_capacity_bytes, label: `HBM ${fmtBytes(m.hbm_capacity_bytes)}`, colour: COLOURS.hbmLine }], fmtBytes, 'Memory per chip against HBM capacity') : nothing}
        ${m && m.in_flight_microbatches > 1 ? html`<p class="muted">${m.in_flight_microbatches} microbatches in flight.</p>` : nothing}
      </section>
      ${this.renderThresholds(t)}`;
  }

  private renderThresholds(t: TrainingStepResult): TemplateResult {
    const list = Array.isArray(t.thresholds) ? t.thresholds : [];
    const binding = t.binding ?? (t.thresholds as unknown as { binding?: string })?.binding;
    if (!list.length) return html``;
    return html`
      <section class="panel" aria-labelledby="h-thr">
        <h3 id="h-thr">Thresholds</h3>
        <ul class="thresholds">
          ${list.map((x) => html`<li class=${x.ok ? 'ok' : 'bad'} data-threshold=${x.name}>
            <span class="mark" aria-hidden="true">${x.ok ? '✓' : '✗'}</span>
            <strong>${thresholdTitle(x.name)}</strong>${x.name === binding ? html` <span class="badge" title="the threshold with the least room">binding</span>` : nothing}:
            ${x.ok ? 'met' : 'not met'} — needs ${x.kind === 'at_most' ? 'at most' : 'at least'} ${fmtCount(x.required)}, has ${fmtCount(x.actual)}${Number.isFinite(x.margin) ? ` (${sig(x.margin)}× room)` : ''}.
            <span class="muted">${x.reason.replace(/^(ok|not ok|violated|fails?):\s*/i, '')}</span></li>`)}
        </ul>
      </section>`;
  }

  private renderServing(s: ServingResult | undefined, r: Results): TemplateResult {
    if (!s) return html``;
    const p = s.prefill;
    const d = s.decode;
    const seg = (label: string, value: number | undefined, colour: string) => ({ label, value: value ?? 0, colour });
    // One row per resource, as for training: the parts overlap, the marker is the engine's time.
    const rowsOf = (bound: string, compute: number | undefined, memory: { label: string; value: number | undefined; colour: string }[], comms: number | undefined): BarRow[] => [
      { label: 'Compute', segments: [seg('FLOPs', compute, COLOURS.compute)], emphasis: bound === 'compute' },
      { label: 'Memory (HBM)', segments: memory.map((x) => seg(x.label, x.value, x.colour)), emphasis: bound === 'memory' },
      { label: 'Communication', segments: [seg('communication', comms, COLOURS.comms)], emphasis: bound === 'communication' },
    ];
    const prefillRows = p ? rowsOf(p.bound, p.flops_s, [{ label: 'parameter load', value: p.param_load_s, colour: COLOURS.memory }], p.comms_s) : [];
    const decodeRows = d ? rowsOf(d.bound, d.flops_s, [{ label: 'parameter load', value: d.param_load_s, colour: COLOURS.memory }, { label: 'KV cache load', value: d.kv_load_s, colour: COLOURS.kv }], d.comms_s) : [];
    const m = s.memory;
    const kv = m ? Math.max(0, m.total_bytes - m.param_bytes) : 0;
    const chips = r.mesh.ok ? r.mesh.plan.chips : undefined;
    return html`
      <section class="panel" aria-labelledby="h-time">
        <h3 id="h-time">Where the time goes</h3>
        <p class="bound"><strong>Prefill</strong> (time to first token) is <strong>${p?.bound}-bound</strong>; a <strong>decode step</strong> is <strong>${d?.bound}-bound</strong>.</p>
        <h4>Prefill</h4>
        ${stackedBars(prefillRows, p ? [{ value: p.time_s, label: `time to first token ${fmtSeconds(p.time_s)}`, colour: COLOURS.highlight }] : [], fmtSeconds, 'Prefill time by resource')}
        <h4>Decode step</h4>
        ${stackedBars(decodeRows, d ? [{ value: d.step_s, label: `decode step ${fmtSeconds(d.step_s)}`, colour: COLOURS.highlight }] : [], fmtSeconds, 'Decode step by resource')}
        <p class="muted">Compute-bound above a batch of ${fmtCount(s.compute_bound_batch)}; tensor parallelism is HBM-limited above ${fmtCount(s.tensor_parallel_hbm_limit)} chips;
          ${fmtCount(s.disaggregation?.prefill_servers_per_decode_server)} prefill servers per decode server.</p>
      </section>
      <section class="panel" aria-labelledby="h-mem">
        <h3 id="h-mem">Memory of the replica${chips ? ` (${chips} chips)` : ''}</h3>
        ${m ? stackedBars([{ label: 'Replica', segments: [seg('parameters', m.param_bytes, COLOURS.params), seg('KV cache', kv, COLOURS.kv)], note: m.fits ? `fits; at most ${fmtCount(m.max_batch)} sequences` : 'does not fit' }], [{ value: m.hbm_capacity_bytes, label: `HBM ${fmtBytes(m.hbm_capacity_bytes)}`, colour: COLOURS.hbmLine }], fmtBytes, 'Memory of the serving replica against its HBM') : nothing}
        ${m && chips ? html`<p class="muted">${fmtBytes(m.total_bytes / chips)} per chip; the weights alone need at least ${fmtCount(m.min_chips_for_params)} chips.</p>` : nothing}
      </section>
      ${s.speculative ? this.renderSpeculative(s, r) : nothing}`;
  }

  private renderSpeculative(s: ServingResult, r: Results): TemplateResult {
    const sp = s.speculative!;
    const v = r.state.values;
    const draft = modelPreset(String(v['draft'])).name;
    const lookahead = Number(v['lookahead']);
    return html`
      <section class="panel" aria-labelledby="h-spec" data-speculative>
        <h3 id="h-spec">Speculative decoding</h3>
        <p>${draft} drafts ${lookahead} token${lookahead === 1 ? '' : 's'} per step; the model checks them in one step and keeps the accepted ones (acceptance rate ${sig(Number(v['accept']))}).</p>
        <dl class="spec">
          <div><dt>Expected tokens per step</dt><dd data-metric="spec_tokens_per_step" data-value=${String(sp.expected_tokens_per_step)}>${sig(sp.expected_tokens_per_step)} <span class="muted">of at most ${lookahead + 1}</span></dd></div>
          <div><dt>One iteration</dt><dd>${lookahead} draft step${lookahead === 1 ? '' : 's'} of ${fmtSeconds(sp.draft_step_s)} and a verify step of ${fmtSeconds(sp.verify_step_s)}: ${fmtSeconds(sp.iteration_s)}</dd></div>
          <div><dt>Speed-up</dt><dd data-metric="spec_speedup" data-value=${String(sp.speedup)}><strong>${sig(sp.speedup)}×</strong> ${sp.speedup < 1 ? html`<span class="worse">(slower: the draft costs more than the accepted tokens save)</span>` : nothing}</dd></div>
        </dl>
        ${stackedBars([
          { label: 'Plain decoding', segments: [{ label: 'decode step per token', value: s.latency_per_token_s, colour: COLOURS.memory }] },
          { label: 'Speculative', segments: [{ label: 'speculative, per token', value: sp.latency_per_token_s, colour: COLOURS.compute }], emphasis: sp.speedup > 1 },
        ], [], fmtSeconds, 'Latency per token with and without speculative decoding')}
        <p class="muted small">${sp.formula}</p>
      </section>`;
  }

  private renderModelPanel(r: Results): TemplateResult {
    const t = r.transformer?.ok ? r.transformer.result : undefined;
    const chip = r.chip?.ok ? r.chip.result : undefined;
    const m = effectiveModel(modelPreset(String(r.state.values['model'])), r.state);
    return html`
      <section class="panel facts" aria-labelledby="h-model">
        <h3 id="h-model">Model and chip</h3>
        ${r.transformer && !r.transformer.ok ? this.renderDiagnostics(r.transformer.diagnostics, 'transformer') : nothing}
        <dl>
          <div><dt>Shape</dt><dd>L ${m.layers} · D ${m.d_model} · F ${m.d_ff} · N ${m.heads} · K ${m.kv_heads} · V ${fmtCount(m.vocab)}${m.experts ? ` · E ${m.experts}, k ${m.active_experts}` : ''}</dd></div>
          <div><dt>Parameters</dt><dd data-metric="params_total" data-value=${String(t?.params?.total ?? '')}>${fmtCount(t?.params?.total)}${t && t.params.active !== t.params.total ? html` (${fmtCount(t.params.active)} active)` : nothing}</dd></div>
          <div><dt>Training FLOPs per token</dt><dd data-metric="training_flops_per_token" data-value=${String(t?.training_flops_per_token ?? '')}>${fmtFlops(t?.training_flops_per_token)} <span class="muted">(6N = ${fmtFlops(t?.six_n_flops_per_token)})</span></dd></div>
          <div><dt>Attention share of FLOPs</dt><dd>${fmtPercent(t?.attention_flops_fraction)}</dd></div>
          <div><dt>KV cache per token</dt><dd data-metric="kv_cache_bytes_per_token" data-value=${String(t?.kv_cache_bytes_per_token ?? '')}>${fmtBytes(t?.kv_cache_bytes_per_token)}</dd></div>
          <div><dt>Weights + Adam</dt><dd>${fmtBytes(t?.params_and_adam_bytes)}</dd></div>
          <div><dt>Peak (bf16)</dt><dd data-metric="peak_bf16" data-value=${String(chip?.peak_flops_per_s?.bf16 ?? '')}>${fmtFlopsPerS(chip?.peak_flops_per_s?.bf16)}</dd></div>
          <div><dt>HBM</dt><dd>${fmtBytes(chip?.hbm_capacity_bytes)} at ${fmtBytes(chip?.hbm_bandwidth_bytes_per_s)}/s</dd></div>
          <div><dt>Critical intensity</dt><dd data-metric="critical_intensity" data-value=${String(chip?.hbm_critical_intensity_flops_per_byte?.bf16 ?? '')}>${sig(chip?.hbm_critical_intensity_flops_per_byte?.bf16 ?? NaN)} FLOPs/byte: a matmul needs a batch of about this many tokens per chip to be compute-bound</dd></div>
          ${chip?.ici_critical_intensity_flops_per_byte !== undefined ? html`<div><dt>ICI critical intensity</dt><dd>${sig(chip.ici_critical_intensity_flops_per_byte)} FLOPs/byte (DP/FSDP need about this many tokens per chip per ICI axis)</dd></div>` : nothing}
          ${chip?.scale_out_critical_intensity_flops_per_byte !== undefined ? html`<div><dt>Scale-out critical intensity</dt><dd>${sig(chip.scale_out_critical_intensity_flops_per_byte)} FLOPs/byte</dd></div>` : nothing}
        </dl>
      </section>`;
  }

  private renderCompare(r: Results, metrics: Metric[]): TemplateResult {
    const pin = this.pinned;
    if (!pin) return html``;
    return html`
      <section class="panel" aria-labelledby="h-cmp">
        <h3 id="h-cmp">Compare with the pinned configuration</h3>
        <p class="muted">Pinned: ${pin.summary}</p>
        <table class="compare">
          <thead><tr><th scope="col">Metric</th><th scope="col">Pinned</th><th scope="col">Now</th><th scope="col">Change</th></tr></thead>
          <tbody>
            ${metrics.map((m) => {
              const p = pin.metrics.find((x) => x.id === m.id);
              const delta = fmtDelta(m.value, p?.value);
              const better = m.higherBetter !== null && m.value !== undefined && p?.value !== undefined && m.value !== p.value ? (m.value > p.value) === m.higherBetter : null;
              return html`<tr><th scope="row">${m.label}</th><td>${p?.text ?? '—'}</td><td>${m.text}</td>
                <td class=${better === null ? '' : better ? 'better' : 'worse'} data-delta=${m.id}>${delta}</td></tr>`;
            })}
          </tbody>
        </table>
      </section>
      ${void r}`;
  }

  private summary(state: State): string {
    const hw = hardwarePreset(String(state.values['hw']));
    const mesh = meshFor(state);
    return `${modelPreset(String(state.values['model'])).name} on ${mesh.ok ? mesh.plan.chips : '?'} × ${hw.name} (${mesh.ok ? describePlan(mesh.plan) : 'no mesh'}), ${state.values['mode']}`;
  }

  private renderResults(): TemplateResult {
    const r = this.results;
    if (this.engineStatus === 'error') {
      return html`<div class="error" role="alert"><strong>The engine could not start.</strong> ${this.engineError}</div>`;
    }
    if (!r) return html`<div class="loading" role="status" aria-live="polite"><span class="spinner" aria-hidden="true"></span> Loading the engine…</div>`;
    const serving = r.state.values['mode'] === 'serving';
    const metrics = this.metrics(r);
    const res = r.main?.ok ? r.main.result : undefined;
    return html`
      <section class="headline" aria-label="Headline numbers">
        ${metrics.map((m) => html`<div class="card"><span class="k">${m.label}</span>
          <output class="v" data-metric=${m.id} data-value=${m.value === undefined ? '' : String(m.value)}>${m.text}</output></div>`)}
      </section>
      ${!r.mesh.ok ? html`<div class="diagnostics" role="status" data-diagnostics="mesh"><ul><li class="err"><span class="sev">Problem</span> Mesh: ${r.mesh.problem}</li></ul></div>` : nothing}
      ${r.main ? this.renderDiagnostics(r.main.diagnostics, serving ? 'serving' : 'training_step') : nothing}
      ${guard([r.main, serving], () => (serving ? this.renderServing(res as ServingResult | undefined, r) : isTraining(res, r.state) ? this.renderTraining(r, res) : nothing))}
      ${serving ? html`
        <section class="panel" aria-labelledby="h-sweep">
          <h3 id="h-sweep">Latency against throughput over the batch (the book’s §5.2 frontier)</h3>
          <div id="sweep-chart" class="chart"></div>
          <p class="muted">Each point is a decode batch size at this KV context (${fmtCount((res as ServingResult | undefined)?.kv_context_len)} tokens), from one sequence up to the largest batch whose KV caches fit; larger batches buy throughput per chip with latency per token.</p>
        </section>` : nothing}
      ${this.renderCompare(r, metrics)}
      ${serving ? nothing : this.renderPlans(r)}
      <section class="panel" aria-labelledby="h-roof">
        <h3 id="h-roof">Roofline: the workload’s main matmuls on one chip</h3>
        <div id="roofline-chart" class="chart"></div>
        <p class="muted">Each point is a matmul as one chip runs it (${serving ? 'decode batch' : 'tokens per chip and microbatch'}, weights after tensor parallelism). Left of the ridge: memory-bound.</p>
      </section>
      <section class="panel" aria-labelledby="h-scale">
        <h3 id="h-scale">${serving ? 'Latency per token' : 'Step time'} against chip count</h3>
        <div id="scaling-chart" class="chart"></div>
        <p class="muted">The ${serving ? 'TP' : 'FSDP (or DP)'} degree is scaled; the global batch stays the same.</p>
      </section>
      ${guard([r.transformer, r.chip], () => this.renderModelPanel(r))}
      <p class="muted small">Engine ${PRESETS.engine_version} · last evaluation ${sig(r.engineMs)} ms in the engine for ${r.scenarios} scenarios (${r.cached} answered from the page’s cache).</p>`;
  }

  private pin(): void {
    if (!this.results) return;
    this.pinned = { state: cloneState(this.results.state), metrics: this.metrics(this.results), summary: this.summary(this.results.state) };
  }

  override render(): TemplateResult {
    const status = this.engineStatus === 'ready' ? 'Engine ready' : this.engineStatus === 'error' ? 'Engine failed' : 'Loading engine…';
    return html`
      <header>
        <h1>Scalescope <span class="sub">How to Scale Your Model, live</span></h1>
        <div class="actions">
          <span class="status ${this.engineStatus}" role="status" aria-live="polite" data-engine=${this.engineStatus}>${status}</span>
          <button type="button" @click=${() => this.copyLink()} id="copy-link">Copy link</button>
          <button type="button" @click=${() => this.pin()} id="pin" ?disabled=${!this.results}>${this.pinned ? 'Re-pin' : 'Pin for compare'}</button>
          ${this.pinned ? html`<button type="button" @click=${() => (this.pinned = null)} id="unpin">Unpin</button>` : nothing}
          <button type="button" @click=${() => this.resetAll()} id="reset">Reset</button>
          <span class="copied" role="status" aria-live="polite">${this.copied}</span>
        </div>
      </header>
      ${this.notices.length
        ? html`<div class="notice" role="alert" data-notice>
            <strong>Some of this link could not be used.</strong>
            <ul>${this.notices.map((n) => html`<li>${n}</li>`)}</ul>
            <button type="button" @click=${() => (this.notices = [])}>Dismiss</button>
          </div>`
        : nothing}
      <main>
        <form class="controls" aria-label="Scenario" @submit=${(e: Event) => e.preventDefault()}>${guard([this.state, this.engineDefault('kvctx')], () => this.renderControls())}</form>
        <div class="results" aria-live="off">${guard([this.results, this.pinned, this.engineStatus, this.engineError, this.search, this.searching], () => this.renderResults())}</div>
      </main>`;
  }
}

customElements.define('scalescope-explorer', ScalescopeExplorer);
