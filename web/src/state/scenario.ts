// State -> scenario JSON for the engine (docs/api.md). The page sends one batch per change: the main planner query
// (training_step or serving, whose main_ops the roofline chart draws), the model's accounting, the chip, and the main
// query again at other chip counts for the scaling chart. Nothing here models physics: it only fills in the
// scenario, choosing chip counts to ask the engine about.
import type {
  CalibrationInput,
  Dtype,
  Evaluation,
  Fidelity,
  HardwarePreset,
  MatmulPrecision,
  Mesh,
  ModelOverrides,
  ModelPreset,
  MoeSettings,
  PlanObjective,
  PlanSearchQuery,
  RooflineQuery,
  RooflineResult,
  Scenario,
  ServingQuery,
  ServingSearchQuery,
} from '../engine/types';
import {
  STRATEGIES,
  dcnOf,
  degreesOf,
  meshOutcome,
  planMeshQuery,
  slicesOf,
  type AskNow,
  type DcnStrategy,
  type Degrees,
  type MeshOutcome,
  type MeshPlan,
  type MeshQuestion,
  type Strategy,
} from './plan-mesh';
import { layoutDegrees, layoutPlan, parseLayout } from './layout';
import { PARAMS, PRESETS, hardwarePreset, modelPreset, type State } from './params';
import { hfConfigOf, hfPreset } from './hf';
import { profileForChip } from './profile';

const num = (s: State, k: string): number => Number(s.values[k]);
const opt = (s: State, k: string): number | null => {
  const v = s.values[k];
  return typeof v === 'number' ? v : null;
};
const str = (s: State, k: string): string => String(s.values[k]);

/** The model a state starts from: a pasted config.json the engine has read, or the chosen preset. */
export function baseModel(s: State): ModelPreset {
  return hfPreset(s) ?? modelPreset(str(s, 'model'));
}

/**
 * The serving weights' dtype: the reader's choice, else the dtype the model's checkpoint is published in (the
 * preset's or the pasted config.json's weights_dtype: fp8 for DeepSeek-V3, fp4 for gpt-oss), else bf16, as the
 * engine's serving query does when it is given none (docs/api.md, serving).
 */
export function weightsDtype(s: State): Dtype {
  const chosen = s.values['wdt'];
  return typeof chosen === 'string' ? (chosen as Dtype) : (baseModel(s).weights_dtype ?? 'bf16');
}

/** The GEMMs' input dtype when the reader chose one past bf16 (W8A8, W4A4); unset, the engine's default (bf16). */
function activationsDtype(s: State): { activations?: 'fp8' | 'fp4' } {
  const chosen = str(s, 'adt');
  return chosen === 'fp8' || chosen === 'fp4' ? { activations: chosen } : {};
}

/** The fields the reader set outright, by their row's key. */
const SET_FIELDS = {
  layers: 'layers',
  heads: 'heads',
  kv_heads: 'kv_heads',
  vocab: 'vocab',
  experts: 'experts',
  active_experts: 'active',
} as const;

/**
 * The reader's model rows as the scenario's model overrides: the fields set outright, and the width and size rows
 * as the engine's `resize`, which re-shapes the model by the engine's own rule (docs/api.md "Re-shaping a model").
 */
export function modelOverrides(preset: ModelPreset, s: State): ModelOverrides {
  const o: ModelOverrides = {};
  for (const [field, key] of Object.entries(SET_FIELDS) as [keyof typeof SET_FIELDS, string][]) {
    const v = opt(s, key);
    if (v !== null && v !== preset[field]) o[field] = v;
  }
  const resize: NonNullable<ModelOverrides['resize']> = {};
  const d = opt(s, 'd_model');
  if (d !== null && d !== preset.d_model) resize.d_model = d;
  const ratio = opt(s, 'ff_ratio');
  if (ratio !== null) resize.ff_ratio = ratio;
  const size = num(s, 'size');
  if (Number.isFinite(size) && size > 0 && size !== 1) resize.params_factor = size;
  if (Object.keys(resize).length) o.resize = resize;
  return o;
}

/** Dotted hardware override paths -> the nested merge patch the engine takes. */
export function hardwareOverrides(hw: Record<string, number | boolean>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [path, v] of Object.entries(hw)) {
    const parts = path.split('.');
    let node = out;
    for (const p of parts.slice(0, -1)) node = (node[p] ??= {}) as Record<string, unknown>;
    node[parts[parts.length - 1]!] = v;
  }
  return out;
}

/** The explicit layout of an applied plan, when it is set and still matches the degrees (training only). */
export function activeLayout(s: State, deg: Degrees = degreesOf(s)): ReturnType<typeof parseLayout> {
  if (str(s, 'mode') !== 'training') return null;
  const axes = parseLayout(String(s.values['layout'] ?? ''));
  if (!axes) return null;
  const ld = layoutDegrees(axes);
  return STRATEGIES.every((k) => ld[k] === deg[k]) ? axes : null;
}

/** The plan_mesh scenario of a state's degrees (state/plan-mesh.ts says what it asks). */
export function planMeshScenario(s: State, deg: Degrees = degreesOf(s), ask: MeshQuestion = {}): Scenario {
  const { hardware, model } = base(s);
  return { version: 1, hardware, model, query: planMeshQuery(s, deg, ask) };
}

/** The mesh of a state: an applied plan's own layout, else the engine's answer to its plan_mesh question. */
export function meshOf(
  s: State,
  answer: Evaluation<unknown> | null | undefined,
  deg: Degrees = degreesOf(s),
): MeshOutcome {
  const layout = activeLayout(s, deg);
  return layout ? { ok: true, plan: layoutPlan(layout, slicesOf(s), dcnOf(s)) } : meshOutcome(answer);
}

/** meshOf with the engine asked at once (the page's own instance, or a test's). */
export function meshFor(s: State, ask: AskNow, deg: Degrees = degreesOf(s)): MeshOutcome {
  return meshOf(s, activeLayout(s, deg) ? null : ask(planMeshScenario(s, deg)), deg);
}

/** meshOf with the engine asked in a batch (a widget's, or the worker's). */
export async function meshAsked(
  s: State,
  ask: (scenarios: Scenario[]) => Promise<Evaluation<unknown>[] | null>,
  deg: Degrees = degreesOf(s),
): Promise<MeshOutcome | null> {
  if (activeLayout(s, deg)) return meshOf(s, null, deg);
  const answers = await ask([planMeshScenario(s, deg)]);
  return answers ? meshOf(s, answers[0], deg) : null;
}

function meshSpec(plan: MeshPlan): Mesh {
  const mesh: Mesh = { shape: plan.shape, axis_names: plan.axisNames };
  if (plan.slices > 1) mesh.slices = plan.slices;
  return mesh;
}

function base(s: State): Pick<Scenario, 'version' | 'hardware' | 'model'> {
  const hwId = str(s, 'hw');
  const mp = baseModel(s);
  const hwOver = hardwareOverrides(s.hw);
  const mo = modelOverrides(mp, s);
  const over = Object.keys(mo).length ? { overrides: mo } : {};
  const hf = hfConfigOf(s);
  // A pasted config.json goes as the model the engine read from it (the `model` query's answer, inline: the
  // first-load module has no config.json reader), with the state's changes on top; before it is read, as the file.
  const read = hf ? hfPreset(s) : null;
  return {
    version: 1,
    hardware: Object.keys(hwOver).length ? { preset: hwId, overrides: hwOver } : { preset: hwId },
    // (The engine's own answer, so a valid model: the schema's types cannot tell its latent attention is whole.)
    model: read
      ? ({ ...read, ...mo } as Scenario['model'])
      : hf
        ? { hf_config: hf, ...over }
        : { preset: mp.id, ...over },
  };
}

/** The `model` query of a state: the model the engine makes of its preset or config.json and the reader's rows. */
export function modelScenario(s: State): Scenario {
  return { ...base(s), query: { kind: 'model' } };
}

/** A calibrated query carries the reader's loaded profile, if any (the engine checks it; the book's model takes none). */
function withProfile<Q extends { fidelity?: Fidelity; calibration?: CalibrationInput }>(s: State, query: Q): Q {
  const calibration = profileForChip(s);
  return calibration && query.fidelity !== 'book' ? { ...query, calibration } : query;
}

/**
 * The scenario at the book's fidelity: its closed forms take no calibration profile, nor a serving engine's fitted
 * runtime under a load (the engine refuses both: the key, and `needs_calibrated`).
 */
export function atBookFidelity<T extends { query: object }>(sc: T): T {
  const { calibration: _profile, ...query } = sc.query as { calibration?: unknown; load?: { backend?: unknown } };
  void _profile;
  if (query.load?.backend !== undefined) {
    const { backend: _runtime, ...load } = query.load;
    void _runtime;
    query.load = load;
  }
  return { ...sc, query: { ...query, fidelity: 'book' } };
}

/** The efficiency knobs that differ from the engine's ideal 1.0 (none: the key is left out). */
function efficiency(s: State): { flops_frac?: number; hbm_frac?: number; network_frac?: number } | undefined {
  const out: { flops_frac?: number; hbm_frac?: number; network_frac?: number } = {};
  if (num(s, 'eff_flops') !== 1) out.flops_frac = num(s, 'eff_flops');
  if (num(s, 'eff_hbm') !== 1) out.hbm_frac = num(s, 'eff_hbm');
  if (num(s, 'eff_net') !== 1) out.network_frac = num(s, 'eff_net');
  return Object.keys(out).length ? out : undefined;
}

/** The MoE settings that differ from the engine's defaults (dropless, balanced, all-to-all, no overlap); none: left out. */
function moeSettings(s: State): MoeSettings | undefined {
  const out: MoeSettings = {};
  const cap = opt(s, 'cap');
  if (cap !== null) out.capacity_factor = cap;
  if (num(s, 'imb') !== 1) out.load_imbalance = num(s, 'imb');
  if (str(s, 'disp') !== 'all_to_all') out.dispatcher = str(s, 'disp') as MoeSettings['dispatcher'];
  if (s.values['epov'] === true) out.overlap = true;
  return Object.keys(out).length ? out : undefined;
}

type GoodputSettings = NonNullable<Extract<Scenario['query'], { kind: 'training_step' }>['goodput']>;

/** The goodput settings the reader set (docs/api.md, "Goodput"); none: left out, so each of the engine's cited defaults applies. */
function goodputSettings(s: State): GoodputSettings | undefined {
  const out: GoodputSettings = {};
  const fail = opt(s, 'fail');
  if (fail !== null) out.failures_per_chip_hour = fail;
  const mode = s.values['ckpt_mode'];
  if (typeof mode === 'string') out.checkpoint = mode as GoodputSettings['checkpoint'];
  const replace = opt(s, 'replace');
  if (replace !== null) out.host_replace_s = replace;
  return Object.keys(out).length ? out : undefined;
}

type LoadSettings = NonNullable<ServingQuery['load']>;

/** The frontier's widest concurrency (the slider's top). */
const MAX_FRONTIER_CONCURRENCY = 4096;

/** The interactivity frontier's concurrencies: powers of two from 1 to max(512, 2 × the one set), at most 4,096. */
export function frontierConcurrencies(concurrency: number): number[] {
  const top = Math.min(MAX_FRONTIER_CONCURRENCY, Math.max(512, 2 * concurrency));
  const out: number[] = [];
  for (let c = 1; c <= top; c *= 2) out.push(c);
  return out;
}

/** A benchmark's load (docs/api.md "Under a benchmark's load"): none unless a concurrency is set; the backend if chosen. */
function loadSettings(s: State): LoadSettings | undefined {
  const concurrency = opt(s, 'conc');
  if (concurrency === null) return undefined;
  const load: LoadSettings = { concurrency, concurrencies: frontierConcurrencies(concurrency) };
  const backend = s.values['sbk'];
  if (typeof backend === 'string') load.backend = backend as LoadSettings['backend'];
  return load;
}

/** The training arguments training_step and plan_search share (docs/api.md: plan_search takes them all but parallelism). */
function trainingArgs(s: State): Omit<Extract<Scenario['query'], { kind: 'training_step' }>, 'kind' | 'parallelism'> {
  const q: Omit<Extract<Scenario['query'], { kind: 'training_step' }>, 'kind' | 'parallelism'> = {
    batch_tokens: num(s, 'batch'),
    seq_len: num(s, 'seq'),
    precision: {
      matmul: str(s, 'mm') as MatmulPrecision,
      master_weights: str(s, 'master') as 'none',
      optimizer_states: str(s, 'opt') as 'fp32',
    },
    remat: str(s, 'remat') as 'block',
    comms_model: str(s, 'comms') as 'max',
    train_tokens: num(s, 'train_tokens'),
  };
  if (q.remat === 'checkpoints') q.checkpoints_per_layer = num(s, 'ckpt');
  const moe = moeSettings(s);
  if (moe) q.moe = moe;
  const eff = efficiency(s);
  if (eff) q.efficiency = eff;
  const goodput = goodputSettings(s);
  if (goodput) q.goodput = goodput;
  return q;
}

/**
 * The planner scenario for the current state on a given mesh plan. `load: false` leaves a benchmark's load out (the
 * scaling chart and the book's frontier read none of it, and its frontier would cost each of them a sweep).
 */
export function mainScenario(s: State, plan: MeshPlan, o: { load?: boolean } = {}): Scenario & { mesh: Mesh } {
  return plannerScenario(s, meshSpec(plan), plan, o) as Scenario & { mesh: Mesh };
}

/**
 * The planner scenario for the state as the page asks it on each move: on an applied plan's own layout, else on the
 * mesh the engine lays the degrees out on in the same call (`mesh.lay_out`: plan_mesh's question, docs/api.md "A mesh
 * the engine lays out"), so that a move costs one wasm call.
 */
export function laidOutScenario(s: State, o: { load?: boolean } = {}): Scenario {
  const layout = activeLayout(s);
  if (layout) return mainScenario(s, layoutPlan(layout, slicesOf(s), dcnOf(s)), o);
  return plannerScenario(s, { lay_out: planMeshQuery(s, degreesOf(s), { chips: true }) }, null, o);
}

/** The planner scenario on `mesh`: each strategy on `plan`'s axes, or (no plan) on those the engine lays out. */
function plannerScenario(
  s: State,
  mesh: NonNullable<Scenario['mesh']>,
  plan: MeshPlan | null,
  o: { load?: boolean },
): Scenario {
  const b = base(s);
  if (str(s, 'mode') === 'serving') {
    // Serving meshes are the page's own (planMesh): whole axes, by name.
    const names = (refs: MeshPlan['axes'][Strategy]): string[] | undefined =>
      refs?.filter((r): r is string => typeof r === 'string');
    const par: ServingQuery['parallelism'] = {};
    if (plan?.axes.tensor) par.tensor = names(plan.axes.tensor)!;
    if (plan?.axes.expert) par.expert = names(plan.axes.expert)!;
    if (plan && !par.tensor && !par.expert) par.tensor = plan.axisNames.slice();
    const etp = opt(s, 'etp');
    if (etp !== null) par.expert_tensor = etp;
    const query: Extract<Scenario['query'], { kind: 'serving' }> = {
      kind: 'serving',
      batch: num(s, 'sbatch'),
      prompt_len: num(s, 'prompt'),
      generated_len: num(s, 'gen'),
      dtypes: { weights: weightsDtype(s), kv: str(s, 'kvdt') as 'bf16', ...activationsDtype(s) },
      parallelism: par,
      include_comms: s.values['scomms'] === true,
    };
    const kv = opt(s, 'kvctx');
    if (kv !== null) query.kv_context_len = kv;
    const params = opt(s, 'sparams');
    if (params !== null) query.params_override = params;
    const memory = opt(s, 'smem');
    if (memory !== null) query.memory_frac = memory;
    if (s.values['spec'] === true) {
      query.speculative = {
        draft_model: { preset: str(s, 'draft') },
        lookahead: num(s, 'lookahead'),
        acceptance_rate: num(s, 'accept'),
      };
    }
    const eff = efficiency(s);
    if (eff) query.efficiency = eff;
    const deployment = str(s, 'sdeploy');
    if (deployment !== 'one_replica') {
      query.deployment = { prefill: deployment === 'disaggregated_prefill' ? 'disaggregated' : 'colocated' };
      const demand = opt(s, 'sdemand');
      if (demand !== null) query.deployment.demand_tokens_per_s = demand;
    }
    const load = o.load === false ? undefined : loadSettings(s);
    if (load) query.load = load;
    return { ...b, mesh, query: withProfile(s, query) };
  }
  const par: Record<string, unknown> = {};
  for (const k of STRATEGIES) {
    const axes = plan?.axes[k];
    const degree = plan?.degrees?.[k];
    if (degree) par[k] = degree;
    else if (axes?.length) par[k] = axes;
  }
  // A strategy's settings go with it; on a mesh the engine lays out, with every strategy it may lay out.
  const runs = (k: Strategy): boolean => !plan || !!par[k];
  if (runs('fsdp')) par['zero_stage'] = num(s, 'zero');
  if (runs('tensor')) par['sequence_parallel'] = s.values['sp'] === true;
  if (opt(s, 'etp') !== null) par['expert_tensor'] = opt(s, 'etp');
  if (runs('pipeline')) {
    par['pipeline_schedule'] = str(s, 'sched');
    if (str(s, 'sched') === 'interleaved') par['virtual_stages'] = num(s, 'vstages');
  }
  if (num(s, 'mb') !== 1) par['microbatches'] = num(s, 'mb');
  const { batch_tokens, seq_len, ...rest } = trainingArgs(s);
  const query: Extract<Scenario['query'], { kind: 'training_step' }> = {
    kind: 'training_step',
    batch_tokens,
    seq_len,
    parallelism: par,
    ...rest,
  };
  return { ...b, mesh, query: withProfile(s, query) };
}

/**
 * How many plans the search returns, and the list shows: the engine leaves out the plans that do not fit or warn
 * (unless the search options ask for them), so each one it returns is listed.
 */
export const PLAN_SEARCH_KEEP = 10;

/** The strategies a searched plan may run over DCN: those the page's DCN control can hold (the engine also allows PP and EP). */
export const PLAN_SEARCH_DCN = PARAMS.find((p) => p.key === 'dcn')!.choices as readonly DcnStrategy[];

/**
 * The plan search for the current hardware, model, batch and precision: on the current mesh (TPU: the slice's
 * torus axes and the slices) or its chip count (GPU: the engine factorises it). Training only; null without a mesh.
 */
export function planSearchScenario(s: State, m: MeshOutcome | null | undefined): (Scenario & { mesh: Mesh }) | null {
  if (str(s, 'mode') !== 'training' || !m?.ok) return null;
  const b = base(s);
  const gpu = hardwarePreset(str(s, 'hw')).kind === 'gpu';
  const { remat: _remat, checkpoints_per_layer: _k, ...args } = trainingArgs(s); // the search varies remat
  void _remat;
  void _k;
  const mesh = gpu ? { shape: [m.plan.chips] } : meshSpec(m.plan);
  const query: Extract<Scenario['query'], { kind: 'plan_search' }> = {
    kind: 'plan_search',
    ...args,
    keep: PLAN_SEARCH_KEEP,
  };
  if (m.plan.slices > 1) query.space = { dcn_strategies: [...PLAN_SEARCH_DCN] };
  const constraints = planSearchConstraints(s);
  if (constraints) query.constraints = constraints;
  if (str(s, 'pobj') !== 'step_time') query.objective = str(s, 'pobj') as PlanObjective;
  return { ...b, mesh, query: withProfile(s, query) };
}

/** The search's constraints set on the page, only those that differ from the engine's defaults (none: left out). */
function planSearchConstraints(s: State): PlanSearchQuery['constraints'] {
  const c: NonNullable<PlanSearchQuery['constraints']> = {};
  const maxTp = opt(s, 'pmaxtp');
  if (maxTp !== null) c.max_tensor = maxTp;
  if (s.values['pfit'] === false) c.must_fit = false;
  if (num(s, 'phead') > 0) c.memory_headroom_frac = num(s, 'phead');
  if (s.values['pwarn'] === true) c.include_warnings = true;
  return Object.keys(c).length ? c : undefined;
}

export const ROOFLINE_INTENSITIES: readonly number[] = Array.from({ length: 29 }, (_, i) => 10 ** (i / 4));

export interface ScalingPoint {
  factor: number;
  chips: number;
  scenario: Scenario;
}

/** The scaling chart's variants: the data-like degree (FSDP, else DP; TP when serving) times 1/8 ... 16. */
export function scalingDegrees(s: State): { factor: number; deg: Degrees }[] {
  const deg = degreesOf(s);
  const which: Strategy = str(s, 'mode') === 'serving' ? 'tensor' : deg.fsdp > 1 || deg.data === 1 ? 'fsdp' : 'data';
  const out: { factor: number; deg: Degrees }[] = [];
  for (const factor of [1 / 8, 1 / 4, 1 / 2, 1, 2, 4, 8, 16]) {
    const d = deg[which] * factor;
    if (Number.isInteger(d) && d >= 1) out.push({ factor, deg: { ...deg, [which]: d } });
  }
  return out;
}

/** The main query at each variant the engine laid out (`meshes`: the variants' meshes, in order). */
export function scalingScenarios(
  s: State,
  variants: { factor: number; deg: Degrees }[],
  meshes: MeshOutcome[],
): ScalingPoint[] {
  return variants.flatMap(({ factor }, i) => {
    const m = meshes[i];
    return m?.ok ? [{ factor, chips: m.plan.chips, scenario: mainScenario(s, m.plan, { load: false }) }] : [];
  });
}

export function transformerScenario(s: State): Scenario {
  const b = base(s);
  const serving = str(s, 'mode') === 'serving';
  const seq = serving ? num(s, 'prompt') + num(s, 'gen') : num(s, 'seq');
  return {
    ...b,
    query: serving
      ? { kind: 'transformer', seq_len: seq, param_dtype: weightsDtype(s), kv_dtype: str(s, 'kvdt') as 'bf16' }
      : str(s, 'remat') === 'checkpoints'
        ? { kind: 'transformer', seq_len: seq, remat: 'checkpoints', checkpoints_per_layer: num(s, 'ckpt') }
        : { kind: 'transformer', seq_len: seq, remat: str(s, 'remat') as 'block' },
  };
}

export function chipScenario(s: State): Scenario {
  const b = base(s);
  return { version: 1, hardware: b.hardware, query: { kind: 'chip' } };
}

/**
 * The roofline curve's questions: at the training matmuls' precision (the engine knows the dtype a recipe runs at),
 * or the serving GEMMs' input dtype.
 */
export function rooflineCurveScenarios(s: State): Scenario[] {
  const hw = chipScenario(s).hardware;
  const peak: Partial<Pick<RooflineQuery, 'dtype' | 'precision'>> =
    str(s, 'mode') === 'serving' ? { dtype: str(s, 'adt') as Dtype } : { precision: str(s, 'mm') as MatmulPrecision };
  return ROOFLINE_INTENSITIES.map((i) => ({
    version: 1,
    hardware: hw,
    query: { kind: 'roofline', flops: i * 1e9, bytes: 1e9, ...peak },
  }));
}

/** The roofline drawn: the attainable FLOP/s at each sampled intensity, and the ridge the engine puts it at. */
export interface RooflineCurve {
  points: { intensity: number; attainable: number }[];
  ridge: number | undefined;
}

/** The curve from the engine's answers to rooflineCurveScenarios (a point it could not answer is left out). */
export function rooflineCurveOf(answers: readonly (Evaluation<unknown> | undefined)[]): RooflineCurve {
  const results = answers.map((a) => (a?.ok ? (a.result as RooflineResult) : undefined));
  return {
    points: ROOFLINE_INTENSITIES.map((intensity, k) => ({
      intensity,
      attainable: results[k]?.attainable_flops_per_s ?? NaN,
    })).filter((p) => Number.isFinite(p.attainable)),
    ridge: results.find((r) => r)?.critical_intensity_flops_per_byte,
  };
}

export function hardwareOf(s: State): HardwarePreset {
  return hardwarePreset(str(s, 'hw'));
}

/** The query kind of the engine's serving search (docs/api.md `serving_search`). */
export const SERVING_SEARCH_KIND = 'serving_search';

/** How many deployments the serving search returns (and the page lists). */
export const SERVING_SEARCH_KEEP = 10;

/**
 * "Fewest chips / cheapest deployment for this latency": the engine's serving search for the serving controls (chip,
 * model, prompt, generated and KV lengths, communication, efficiency) and the search's own (targets, what "best"
 * means, a demand, prefill colocated or not; the batch and dtypes as set, or the engine's choice of them). The
 * search picks the replica size and its TP/EP split itself, so the degrees are not sent; nor is a speculative draft
 * or a parameter-count override, which it does not take. Null outside serving mode or before the engine has it.
 */
export function servingSearchScenario(s: State): Scenario | null {
  if (str(s, 'mode') !== 'serving' || !PRESETS.queries.includes(SERVING_SEARCH_KIND)) return null;
  const q: ServingSearchQuery = {
    kind: 'serving_search',
    prompt_len: num(s, 'prompt'),
    generated_len: num(s, 'gen'),
    objective: str(s, 'sobj') as ServingSearchQuery['objective'],
    include_comms: s.values['scomms'] === true,
    keep: SERVING_SEARCH_KEEP,
  };
  const kv = opt(s, 'kvctx');
  if (kv !== null) q.kv_context_len = kv;
  const latency = opt(s, 'slat');
  const ttft = opt(s, 'sttft');
  if (latency !== null || ttft !== null) {
    q.targets = {};
    if (latency !== null) q.targets.latency_per_token_s = latency;
    if (ttft !== null) q.targets.time_to_first_token_s = ttft;
  }
  const demand = opt(s, 'sdemand');
  if (demand !== null) q.demand_tokens_per_s = demand;
  // The parameter count the serving panel uses (the book's 70e9), so the search's rows are the panel's.
  const params = opt(s, 'sparams');
  if (params !== null) q.params_override = params;
  const memory = opt(s, 'smem');
  if (memory !== null) q.memory_frac = memory;
  if (s.values['skeepb'] === true) q.batches = [num(s, 'sbatch')];
  // The GEMMs' input dtype is how the deployment runs, kept whether or not the weights and KV dtypes are.
  if (s.values['skeepdt'] === true)
    q.dtypes = { weights: [weightsDtype(s)], kv: [str(s, 'kvdt') as Dtype], ...activationsDtype(s) };
  else if (activationsDtype(s).activations) q.dtypes = activationsDtype(s);
  if (str(s, 'sprefill') !== 'both') q.disaggregation = str(s, 'sprefill') as ServingSearchQuery['disaggregation'];
  const eff = efficiency(s);
  if (eff) q.efficiency = eff;
  return { ...base(s), query: withProfile(s, q) };
}
