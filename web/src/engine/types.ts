// Hand-written types of the wasm engine (wasm/bindings.cpp) and of the JSON it speaks (docs/api.md).
// Emscripten 3.1.6 has no --emit-tsd (TOOLCHAIN.md quirk 6), so test/engine-types.test.ts loads the built module
// and checks both the functions and, through the SHAPES below, every key of real results against these types.
// All numbers are SI units, the unit in the key; conversions for display live in src/charts/format.ts.

/** The Embind module: five stateless functions, JSON text in, JSON text out. */
export interface EngineModule {
  evaluate(scenarioJson: string): string;
  /** A JSON array of scenarios in, the array of their results out. */
  evaluate_many(scenariosJson: string): string;
  presets(): string;
  validate(scenarioJson: string): string;
  version(): string;
  /** The model a scenario's `model` object resolves to (a pasted config.json too): ModelJson as text. */
  model_json(modelJson: string): string;
}

/** What the engine build can do, found at build time by engine-plugin.ts (the web adapts to engines before/after). */
export interface EngineFeatures {
  /** Planners take `query.fidelity` ("calibrated" | "book") and results say which they used (issue 8). */
  fidelity: boolean;
}

export type Fidelity = 'calibrated' | 'book';

/** `query.calibration`: a profile in calibration_profiles/<id>.json's format, passed through as the reader gave it. */
export type CalibrationInput = Record<string, unknown>;

/** How a calibrated number was made and how well its profile predicted published runs it was not fitted on. */
export interface Calibration {
  profile: { id: string; name: string; source: string; fitted_on: unknown; family_fallback?: boolean };
  /** `scope`: "fitted" (the plan lies inside the profile's fit runs: the sibling band), "transfer" (outside them,
   * or a chip without runs of its own: the family's band, `outside` naming why) or "unrecorded" (an old profile). */
  error_band: { median_frac: number; p90_frac: number; runs: number; text: string; scope: 'fitted' | 'transfer' | 'unrecorded'; outside: string[] };
  /** The query's efficiency below 1 at the calibrated fidelity: the factors on the fitted rates, and a line saying so. */
  what_if?: { flops_frac: number; hbm_frac: number; network_frac: number; text: string };
}

/**
 * What a planner's result carries once the engine has both fidelities: which one made the numbers, the calibration
 * behind them, and the book's ideal for the headline numbers (a lower bound, unless `lower_bound` says not and
 * why). Absent from older engines: then every number is the book's.
 */
export interface FidelityInfo {
  fidelity?: Fidelity;
  calibration?: Calibration;
  ideal?: IdealNumbers & {
    deployment?: ServingDeploymentCost;
    /** A training step: false where the book prices one strategy's collectives above the calibrated step (then named). */
    lower_bound?: boolean;
    above_estimate?: { part: string; book_s: number; calibrated_s: number; text: string };
  };
}

export type IdealNumbers = Partial<Record<'step_s' | 'mfu_frac' | 'train_time_s' | 'train_usd' | 'tokens_per_s' | 'latency_per_token_s' | 'time_to_first_token_s' | 'tokens_per_s_per_chip' | 'usd_per_million_output_tokens' | 'total_bytes', number>>;

/** model_json's answer. */
export interface ModelJson {
  ok: boolean;
  model?: ModelPreset & { not_modelled: string[]; tied_embeddings: boolean; shared_experts: number };
  diagnostics: Diagnostic[];
}

export interface EngineModuleOptions {
  wasmBinary?: ArrayBuffer | Uint8Array;
  locateFile?: (file: string, prefix: string) => string;
}

/** The default export of scalescope_engine.js (-sMODULARIZE -sEXPORT_ES6 -sEXPORT_NAME=createScalescope). */
export type CreateScalescope = (options?: EngineModuleOptions) => Promise<EngineModule>;

// ---------------------------------------------------------------------------------------------------------------
// Requests

export type Dtype = 'fp32' | 'bf16' | 'fp8' | 'int8' | 'int4' | 'fp4';
export type Remat = 'none' | 'block' | 'big_matmuls' | 'mlp_matmuls' | 'checkpoints' | 'selective';
export type PipelineSchedule = 'gpipe' | '1f1b' | 'interleaved' | 'zero_bubble' | 'dualpipe' | 'dualpipe_v';
/** A training matmul precision: a dtype, or a low-precision recipe (docs/api.md `training_step` precision.matmul). */
export type MatmulPrecision = 'bf16' | 'fp8' | 'fp8_blockwise' | 'mxfp8' | 'nvfp4' | 'int8' | 'fp4';

export interface PresetRef<O> {
  preset: string;
  overrides?: O;
}

export type HardwareOverrides = Record<string, unknown>;

export interface ModelOverrides {
  layers?: number;
  d_model?: number;
  d_ff?: number;
  expert_d_ff?: number;
  heads?: number;
  kv_heads?: number;
  head_dim?: number;
  vocab?: number;
  experts?: number;
  active_experts?: number;
  dense_layers?: number;
}

export interface MeshSpec {
  shape: number[];
  axis_names?: string[];
  slices?: number;
  slice_axis_name?: string;
  wraparound?: boolean[];
}

/**
 * A factor of a mesh axis (a logical axis, docs/api.md `training_step`): `size` chips of `axis`, `stride` chips apart
 * (1 = innermost: the product of the factors inside it on that axis).
 */
export interface SubAxis {
  axis: string;
  size: number;
  stride: number;
}

/** What a strategy runs on: a whole mesh axis by name, or a sub-axis. */
export type AxisRef = string | SubAxis;

export type ContextVariant = 'ring' | 'all_gather';

/** The settings of a training plan's parallelism besides where each strategy runs. */
export interface ParallelismSettings {
  zero_stage?: 1 | 2 | 3;
  sequence_parallel?: boolean;
  pipeline_schedule?: PipelineSchedule;
  virtual_stages?: number;
  microbatches?: number;
  context_variant?: ContextVariant;
  /** MoE: the experts' own TP degree (parallel folding; it divides TP). Unset: the TP degree. */
  expert_tensor?: number;
}

/** How an MoE model's layers run in training (docs/api.md `training_step` moe). */
export interface MoeSettings {
  capacity_factor?: number;
  token_policy?: 'dropless' | 'drop' | 'pad';
  load_imbalance?: number;
  dispatcher?: 'all_to_all' | 'hierarchical';
  overlap?: boolean;
}

/** A plan as plan_search writes it: each strategy on whole mesh axes or sub-axes. */
export type PlanParallelism = ParallelismSettings & { [S in Strategy]?: AxisRef[] };

/** What training_step takes: each strategy on axes, or a degree the engine lays out itself. */
export type TrainingParallelism = ParallelismSettings & { [S in Strategy]?: AxisRef[] | number };

export interface TrainingStepQuery {
  kind: 'training_step';
  batch_tokens: number;
  seq_len: number;
  parallelism: TrainingParallelism;
  precision?: { matmul?: MatmulPrecision; params?: Dtype; master_weights?: 'none' | 'bf16' | 'fp32'; optimizer_states?: 'fp32' | 'bf16' };
  remat?: Remat;
  checkpoints_per_layer?: number;
  /** Whether the softmax scores are kept (materialized) or recomputed (flash, the default). */
  attention_kernel?: 'flash' | 'materialized';
  dropout?: boolean;
  moe?: MoeSettings;
  mtp_layers?: number;
  efficiency?: Efficiency;
  comms_model?: 'max' | 'sum';
  train_tokens?: number;
  fidelity?: Fidelity;
  /** A profile of the reader's own in place of the embedded one (calibrated fidelity only; the engine checks it). */
  calibration?: CalibrationInput;
}

/** Fractions of peak the engine derates by [1.0 each: the book's ideal]. */
export interface Efficiency {
  flops_frac?: number;
  hbm_frac?: number;
  network_frac?: number;
}

export interface ServingQuery {
  kind: 'serving';
  batch: number;
  prompt_len: number;
  generated_len: number;
  dtypes?: { weights?: Dtype; kv?: Dtype; activations?: Dtype };
  parallelism: { tensor?: string[]; expert?: string[]; expert_tensor?: number; layout?: '2d'; x?: string[]; yz?: string[] };
  kv_context_len?: number;
  include_comms?: boolean;
  efficiency?: Efficiency & { prefill_flops_frac?: number };
  speculative?: { draft_model: PresetRef<ModelOverrides>; lookahead: number; acceptance_rate: number };
  sweep?: { batches?: number[]; contexts?: number[] };
  /** The parameter count the serving math uses (the book's figures round LLaMA-3 70B to 70e9). */
  params_override?: number;
  fidelity?: Fidelity;
  /** A profile of the reader's own in place of the embedded one (calibrated fidelity only; the engine checks it). */
  calibration?: CalibrationInput;
  /** Replicas of this one for a demand, costed as the serving search costs its rows (the result's `deployment`). */
  deployment?: { prefill: 'colocated' | 'disaggregated'; demand_tokens_per_s?: number };
}

/** Replicas of a serving replica for a demand: the serving search's row for it, to the last digit. */
export interface ServingDeploymentCost {
  prefill: 'colocated' | 'disaggregated';
  demand_tokens_per_s: number;
  /** Colocated: the step plus the prompts prefilled between steps; disaggregated: the step. */
  latency_per_token_s: number;
  replicas: number;
  prefill_servers: number;
  total_chips: number;
  tokens_per_s: number;
  tokens_per_s_per_chip: number;
  usd_per_million_output_tokens: number;
  prefill_bound: boolean;
}

export type Strategy = 'data' | 'fsdp' | 'tensor' | 'pipeline' | 'expert' | 'context';

export type PlanObjective = 'step_time' | 'cost_to_train' | 'tokens_per_usd';

export interface PlanSearchQuery {
  kind: 'plan_search';
  batch_tokens: number;
  seq_len: number;
  precision?: TrainingStepQuery['precision'];
  moe?: MoeSettings;
  efficiency?: Efficiency;
  comms_model?: 'max' | 'sum';
  train_tokens?: number;
  keep?: number;
  fidelity?: Fidelity;
  /** A profile of the reader's own in place of the embedded one (calibrated fidelity only; the engine checks it). */
  calibration?: CalibrationInput;
  /** What the caller allows (docs/api.md `plan_search`: the space); only the keys the page narrows. */
  space?: { dcn_strategies?: Strategy[] };
  /** Degrees held (`fixed`) or capped (`max`). */
  constraints?: {
    fixed?: Partial<Record<Strategy, number>>;
    max?: Partial<Record<Strategy, number>>;
    max_tensor?: number;
    must_fit?: boolean;
    memory_headroom_frac?: number;
    include_warnings?: boolean;
  };
  objective?: PlanObjective;
  /** Search this many plans, then answer with a `cursor` to pass back as `resume`. */
  chunk_plans?: number;
  resume?: NonNullable<PlanSearchResult['cursor']>;
}

export interface TransformerQuery {
  kind: 'transformer';
  seq_len?: number;
  tokens?: number;
  remat?: Remat;
  checkpoints_per_layer?: number;
  param_dtype?: Dtype;
  kv_dtype?: Dtype;
}

export interface ChipQuery {
  kind: 'chip';
}

export interface RooflineQuery {
  kind: 'roofline';
  flops: number;
  bytes: number;
  dtype?: Dtype;
  chips?: number;
}

export interface MatmulQuery {
  kind: 'matmul';
  batch: number;
  d: number;
  f: number;
  lhs_dtype?: Dtype;
  rhs_dtype?: Dtype;
  out_dtype?: Dtype;
  compute_dtype?: Dtype;
}

export type ServingObjective = 'fewest_chips' | 'usd_per_million_tokens' | 'tokens_per_s_per_chip';

/** docs/api.md `serving_search`: the serving deployments that meet latency targets, ranked. */
export interface ServingSearchQuery {
  kind: 'serving_search';
  prompt_len: number;
  generated_len: number;
  kv_context_len?: number;
  /** Unset: no target (every deployment that fits meets it). */
  targets?: { latency_per_token_s?: number; time_to_first_token_s?: number };
  objective?: ServingObjective;
  /** Output tokens per second to serve: sets the replicas [one replica]. */
  demand_tokens_per_s?: number;
  /** Dtypes to try [bf16 and int8 on TPUs, bf16 and fp8 on GPUs]. */
  dtypes?: { weights?: Dtype[]; kv?: Dtype[]; activations?: Dtype };
  replica_chips?: number[];
  max_replica_chips?: number;
  /** Batches to try [powers of two up to the largest that fits, and that one]. */
  batches?: number[];
  disaggregation?: 'both' | 'colocated' | 'disaggregated';
  efficiency?: Efficiency & { prefill_flops_frac?: number };
  include_comms?: boolean;
  keep?: number;
  fidelity?: Fidelity;
  /** A profile of the reader's own in place of the embedded one (calibrated fidelity only; the engine checks it). */
  calibration?: CalibrationInput;
}

/** docs/api.md `plan_mesh`: the mesh for degrees, the degrees each strategy can take, the nearest that run. */
export interface PlanMeshQuery {
  kind: 'plan_mesh';
  mode?: 'training' | 'serving';
  parallelism?: Partial<Record<Strategy, number>> & { expert_tensor?: number; pipeline_schedule?: PipelineSchedule; virtual_stages?: number };
  slices?: number;
  dcn_strategy?: 'data' | 'fsdp';
  chips?: number;
  seq_len?: number;
  batch_tokens?: number;
  list_degrees?: Partial<Record<Strategy, { up_to: number; powers_of_two?: boolean }>>;
}

/** One thing plan_mesh changed to reach the nearest runnable plan: the query's key (`to` null: dropped) and why. */
export interface PlanMeshChange {
  path: string;
  from: number;
  to: number | null;
  reason: string;
}

export interface PlanMeshResult {
  runs: boolean;
  problems: Diagnostic[];
  degrees: Partial<Record<Strategy, number>>;
  balancing: Strategy;
  chips_multiple_of: number;
  /** Present when the degrees lay out on the chip. */
  mesh?: { shape: number[]; axis_names: string[]; slices: number };
  parallelism?: Partial<Record<Strategy, AxisRef[] | number>>;
  engine_layout?: boolean;
  /** What the degrees ask for, laid out or not. */
  chips: number;
  chips_per_slice?: number;
  valid_degrees: Partial<Record<Strategy, number[]>>;
  nearest?: { parallelism: Partial<Record<Strategy, number>>; chips: number | null; batch_tokens?: number; changes: PlanMeshChange[] };
  fidelity: string;
}

export type Query = TrainingStepQuery | ServingQuery | PlanSearchQuery | ServingSearchQuery | TransformerQuery | ChipQuery | RooflineQuery | MatmulQuery | PlanMeshQuery;

/** A pasted Hugging Face config.json as the model (docs/api.md "A Hugging Face config.json as the model"). */
export interface HfModelRef {
  hf_config: Record<string, unknown>;
  overrides?: ModelOverrides;
}

export interface Scenario {
  version?: 1;
  hardware: PresetRef<HardwareOverrides>;
  model?: PresetRef<ModelOverrides> | HfModelRef;
  mesh?: MeshSpec;
  query: Query;
}

// ---------------------------------------------------------------------------------------------------------------
// Responses

export interface Diagnostic {
  path: string;
  code: string;
  message: string;
  severity?: 'error' | 'warning';
}

export interface Evaluation<R> {
  ok: boolean;
  query?: string;
  result?: R;
  diagnostics: Diagnostic[];
  engine_version: string;
}

export interface ValidateResponse {
  ok: boolean;
  diagnostics: Diagnostic[];
}

export type Bound = 'compute' | 'memory' | 'communication' | 'host_offload';

export interface Threshold {
  name: string;
  kind: 'at_least' | 'at_most';
  required: number;
  actual: number;
  /** actual/required (at_least) or required/actual (at_most): above 1 means met with room. */
  margin: number;
  ok: boolean;
  reason: string;
  /** The step model's own margin for this threshold, and whether that clears it (it may disagree with the book's). */
  step_margin: number;
  step_ok: boolean;
  /** The book's simplification behind the closed form. */
  simplification: string;
}

/** Layers by kind: the MLP (dense or MoE) and the attention span (full, sliding window, chunked); kinds there are only. */
export interface LayerCounts {
  dense_full?: number;
  dense_sliding?: number;
  dense_chunked?: number;
  moe_full?: number;
  moe_sliding?: number;
  moe_chunked?: number;
}

export interface TrainingStepResult extends FidelityInfo {
  degrees: { chips: number; data: number; fsdp: number; tensor: number; pipeline: number; expert: number; context: number; slices: number };
  tokens_per_chip: number;
  tokens_per_data_shard: number;
  microbatch_tokens: number;
  model_flops: number;
  hardware_flops: number;
  /** TPU with FSDP: the book's X_opt. */
  fsdp_optimal_degree?: number;
  /** Stages that do not divide the layers: the busiest stage's layers (v x ceil(L / (S v))), which set the pace. */
  pipeline_stage_layers?: number;
  /** The busiest stage's layers over the average (L / S): above 1, the other stages wait. */
  pipeline_stage_imbalance?: number;
  /** A model with layers of several kinds: the busiest stage's layers of each ("moe_full", "dense_sliding", ...). */
  pipeline_stage_kinds?: LayerCounts;
  /** An MoE model: how its layers ran (the query's settings and the expert-parallel group they give). */
  moe?: { capacity_factor: number; token_policy: string; load_imbalance: number; expert_load: number; dispatcher: string; overlap: boolean; expert_parallel: number; expert_tensor: number };
  /** Multi-token-prediction layers trained with the model (their FLOPs are in model_flops). */
  mtp_layers?: number;
  /** Sub-axes or degrees given: the layout chosen (sub-axes with strides), how many were tried, and each strategy's place. */
  parallelism?: PlanParallelism;
  layouts_considered?: number;
  layout?: Partial<Record<Strategy, StrategyLayout>>;
  time: {
    compute_s: number;
    bubble_s: number;
    bubble_frac: number;
    /** The step adds up: compute + bubble + hbm_exposed + comms_exposed + offload_exposed + overhead = step_s. */
    hbm_total_s: number;
    hbm_exposed_s: number;
    /** Each strategy's whole comms time. */
    comms: { data_s: number; fsdp_s: number; tensor_s: number; pipeline_s: number; expert_s: number; context_s: number; dcn_s: number };
    /** All comms as the model combines them (the book's max or sum; the calibrated step sums). */
    comms_total_s: number;
    comms_sum_s: number;
    comms_exposed_s: number;
    overhead_s: number;
    offload_total_s?: number;
    offload_exposed_s?: number;
    lower_bound_s: number;
    upper_bound_s: number;
    step_s: number;
    bound: Bound;
    critical: string;
  };
  memory: {
    params_bytes: number;
    master_weights_bytes: number;
    grads_bytes: number;
    optimizer_bytes: number;
    activations_bytes: number;
    in_flight_microbatches: number;
    context_buffers_bytes: number;
    total_bytes: number;
    hbm_capacity_bytes: number;
    fits: boolean;
    shortfall_bytes: number;
    min_chips_for_memory?: number;
    /** Calibrated: live only during the step (two gathered FSDP layers, the fp32 logits, a recomputed layer). */
    transient_bytes?: number;
    /** Bytes of weights, gradients and optimizer state kept per parameter (before sharding). */
    state_bytes_per_param: number;
  };
  mfu_frac: number;
  hfu_frac: number;
  tokens_per_s: number;
  tokens_per_s_per_chip: number;
  cost: { usd_per_hour: number; train_tokens: number; train_time_s: number; train_usd: number };
  thresholds: Threshold[];
  binding: string;
  /** Which model made the numbers (docs/api.md `query.fidelity`). */
  fidelity: Fidelity;
  /** Which FLOPs the MFU counts (docs/api.md `training_step`). */
  flop_account: string;
  /** Calibrated: seconds on the slowest pipeline stage by kind of work, and each strategy's comms full and exposed. */
  breakdown?: Record<string, number | Record<string, { full_s: number; exposed_s: number }>>;
}

export interface ServingSweepPoint {
  batch: number;
  fits: boolean;
  context: number;
  step_s: number;
  tokens_per_s_per_chip: number;
  latency_per_token_s: number;
  param_load_s: number;
  kv_load_s: number;
  flops_s: number;
  comms_s: number;
  overhead_s: number;
}

export interface SpeculativeResult {
  expected_tokens_per_step: number;
  draft_step_s: number;
  verify_step_s: number;
  iteration_s: number;
  latency_per_token_s: number;
  speedup: number;
  formula: string;
}

/** One strategy's place on the mesh in a plan (docs/api.md `training_step` `layout`). */
export interface LayoutPieceResult {
  axis: string;
  size: number;
  stride: number;
  axis_size: number;
  /** TPU: the group closes through the wraparound. */
  ring?: boolean;
  /** TPU: groups interleaved on the same links. */
  links_shared_by?: number;
  /** The DCN axis between slices. */
  dcn?: boolean;
}

export interface StrategyLayout {
  degree: number;
  pieces: LayoutPieceResult[];
  ici_axes: number;
  dcn_slices: number;
  all_gather_bandwidth_bytes_per_s: number;
  gpus_spanned?: number;
  nvlink_domains_spanned?: number;
}

/** A plan as `plan_search` writes it, in `plans` and in the Pareto front (docs/api.md). */
export interface SearchedPlanCore {
  /** Its ordinal in the space. */
  index: number;
  /** Ready to pass to training_step (on `mesh` for a GPU plan, else on the searched mesh): sub-axes included. */
  parallelism: PlanParallelism;
  remat: Remat;
  precision: { matmul: MatmulPrecision };
  offload: { optimizer: boolean; activations: boolean };
  /** A capacity the search tried (space.capacity_factors): the MoE settings that reproduce the plan. */
  moe?: { capacity_factor: number; token_policy: 'drop' | 'pad' };
  degrees: { data: number; fsdp: number; tensor: number; pipeline: number; expert: number; context: number; slices: number };
  microbatch_sequences: number;
  step_s: number;
  bound: string;
  critical: string;
  mfu_frac: number;
  memory_bytes: number;
  host_bytes: number;
  fits: boolean;
  binding: string;
  tokens_per_s: number;
  usd_per_step: number;
  train_time_s: number;
  train_usd: number;
  /** GPU plans: the mesh the plan runs on (one axis per strategy piece, outermost first, named by strategy). */
  mesh?: { shape: number[]; axis_names: string[] };
}

/** One plan of `plans`, best first. */
export interface SearchedPlan extends SearchedPlanCore {
  /** 1 = best. */
  rank: number;
  /** Per strategy used: its pieces, rings, shared links and bandwidth. */
  layout: Partial<Record<Strategy, StrategyLayout>>;
  /** On the Pareto front of step time against memory per chip. */
  pareto: boolean;
  /** Equal to the plan above in objective, no-overlap step and memory: what differs ("remat: none vs block"). */
  tie?: { with_rank: number; differs: string[] };
  /** A calibrated search: the book's numbers for the same plan. */
  ideal?: { step_s: number; mfu_frac: number; train_time_s: number };
  /** The warnings the plan's own training_step raises (only plans let in by include_warnings or must_fit false). */
  warnings: Diagnostic[];
}

export interface SearchCounts {
  space: number;
  evaluated: number;
  /** Layouts skipped: every collective costs what an earlier layout's of the same degrees costs. */
  equivalent: number;
  valid: number;
  with_warnings: number;
  fitting: number;
  ranked: number;
  /** Ranked plans another beats in both step time and memory per chip. */
  pruned: number;
  /** Ranked plans never priced at the calibrated fidelity: their bound, below the calibrated step, could not win. */
  bounded: number;
}

export interface PlanSearchResult {
  evaluated: number;
  valid: number;
  fitting: number;
  plans: SearchedPlan[];
  space: number;
  /** `rejected_by`: degree combinations left out, per reason (`whole_sequences`, `tensor_heads`, ...). */
  space_breakdown: { degree_combinations: number; rejected_degree_combinations: number; rejected_by: Record<string, number>; layouts: number };
  counts: SearchCounts;
  objective: string;
  /** The front, fastest first, memory falling (at most 200 listed of `pareto_size`). */
  pareto: SearchedPlanCore[];
  pareto_size: number;
  complete: boolean;
  progress_frac: number;
  /** While not complete: pass back as `resume`. */
  cursor?: { next: number; retained: number[]; counts: SearchCounts };
  /** While not complete: the caller's `chunk_plans`, or the engine's per-call work limit. */
  stopped_by?: 'chunk_plans' | 'work_limit';
  fidelity?: Fidelity;
  calibration?: Calibration;
}

/** One deployment of a `serving_search` result (docs/api.md): `mesh`, `parallelism`, `dtypes` and `batch` go into a serving query as they are. */
export interface ServingDeployment {
  /** One replica's mesh (the default axis names X, Y, Z). */
  mesh: { shape: number[] };
  parallelism: { tensor?: string[]; expert?: string[]; expert_tensor?: number };
  /** `expert_tensor`: the experts' TP (the TP degree unless the deployment folds it into EP). */
  degrees: { tensor: number; expert: number; expert_tensor: number };
  dtypes: { weights: Dtype; kv: Dtype };
  batch: number;
  disaggregated: boolean;
  replicas: number;
  prefill_servers: number;
  total_chips: number;
  decode_step_s: number;
  prefill_one_sequence_s: number;
  /** Colocated: the decode step plus the prompts prefilled between steps (B/G of them); disaggregated: the step. */
  latency_per_token_s: number;
  time_to_first_token_s: number;
  tokens_per_s: number;
  tokens_per_s_per_chip: number;
  usd_per_million_output_tokens: number;
  /** One replica's weights and KV caches, against its HBM. */
  memory_bytes: number;
  hbm_capacity_bytes: number;
  meets_targets: boolean;
  bound: 'compute' | 'memory' | 'prefill';
  /** In `deployments` only (1 = best). */
  rank?: number;
}

export interface ServingSearchResult {
  evaluated: number;
  fitting: number;
  meeting_targets: number;
  objective: string;
  /** Best first; only deployments that meet the targets. */
  deployments: ServingDeployment[];
  /** Fitting deployments on the latency x cost front, fastest first (at most 100). */
  frontier: ServingDeployment[];
  frontier_size: number;
  fidelity: Fidelity;
  calibration?: Calibration;
}

/** What each term adds to a serving step: they sum to the step (the book hides the smaller terms behind its max). */
export interface ServingExposed { flops_s: number; param_load_s: number; kv_load_s: number; comms_s: number; overhead_s: number }

export interface ServingResult extends FidelityInfo {
  /** The whole batch's prompts prefilled together (`sequences` of them); one request's is `time_to_first_token_s`. */
  prefill: { sequences: number; tokens: number; flops_s: number; matmul_flops_s: number; param_load_s: number; comms_s: number; overhead_s: number; exposed: ServingExposed; time_s: number; bound: Bound };
  /**
   * `bound`: what sets the step (memory covers the weights and the KV caches); `critical`: its largest term;
   * `mlp_bound`: the MLPs' own roofline.
   */
  decode: { param_load_s: number; kv_load_s: number; flops_s: number; comms_s: number; overhead_s: number; exposed: ServingExposed; step_s: number; bound: Bound; critical: 'flops' | 'param_load' | 'kv_load' | 'comms'; mlp_bound: 'compute' | 'memory' };
  memory: { param_bytes: number; kv_bytes_per_sequence: number; kv_bytes_per_token: number; total_bytes: number; hbm_capacity_bytes: number; fits: boolean; max_batch: number; min_chips_for_params: number; chips_for_params: number; min_chips?: number; min_chips_for_memory?: number };
  kv_context_len: number;
  decode_time_s?: number;
  weight_stationary_2d_min_chips?: number;
  time_to_first_token_s: number;
  request_latency_s: number;
  tensor_parallel_compute_limit: number;
  tokens_per_s: number;
  tokens_per_s_per_chip: number;
  latency_per_token_s: number;
  queries_per_s_per_chip: number;
  usd_per_million_output_tokens: number;
  usd_per_million_input_tokens: number;
  compute_bound_batch: number;
  tensor_parallel_hbm_limit: number;
  disaggregation: { prefill_servers_per_decode_server: number; prefill_time_one_sequence_s: number };
  continuous_batching: { tokens_evicted_per_step: number; sequences_finished_per_step: number };
  sweep: ServingSweepPoint[];
  /** With `speculative` in the query. */
  speculative?: SpeculativeResult;
  /** With `deployment` in the query. */
  deployment?: ServingDeploymentCost;
  fidelity: Fidelity;
}

export interface RemarPolicyResult {
  activation_bytes: number;
  extra_forward_flops: number;
  saved_width_per_layer: number;
  training_flops_with_remat: number;
}

export interface TransformerResult {
  activation_bytes: number;
  attention_equals_matmuls_seq_len: number;
  attention_equals_qkvo_seq_len: number;
  attention_flops_fraction: number;
  attention_intensity_decode_flops_per_byte: number;
  attention_intensity_prefill_flops_per_byte: number;
  decode_compute_bound_batch_tokens?: number;
  forward_attention_flops: number;
  forward_flops: number;
  forward_matmul_flops: number;
  kv_cache_bytes_per_sequence: number;
  kv_cache_bytes_per_token: number;
  param_bytes: number;
  params: { active: number; active_in_matmuls: number; attention: number; embeddings: number; mlp: number; mlp_active: number; mtp?: number; norms: number; router: number; total: number };
  params_and_adam_bytes: number;
  /** How attention is computed: "mha" / "gqa" / "mqa", or "mla" with its prefill and absorbed-decode costs. */
  attention: {
    kind: string;
    kv_values_per_token_per_layer: number;
    training_and_prefill?: string;
    decode?: string;
    prefill_flops_per_key_per_layer?: number;
    decode_flops_per_key_per_layer?: number;
  };
  /** Layers of each kind there is. */
  layers: LayerCounts;
  remat: string;
  remat_policies: { big_matmuls: RemarPolicyResult; block: RemarPolicyResult; mlp_matmuls: RemarPolicyResult; none: RemarPolicyResult; selective: RemarPolicyResult };
  seq_len: number;
  six_n_flops_per_token: number;
  /** 6 N D: the book's training FLOPs for these tokens. */
  six_n_flops: number;
  tokens: number;
  training_flops: number;
  training_flops_per_token: number;
  fidelity: Fidelity;
}

export type PerDtype = Partial<Record<Dtype, number>>;

export interface ChipResult {
  id: string;
  kind: 'tpu' | 'gpu';
  name: string;
  flops_per_usd: PerDtype;
  hbm_bandwidth_bytes_per_s: number;
  hbm_capacity_bytes: number;
  hbm_critical_batch_bf16_tokens: number;
  hbm_critical_intensity_flops_per_byte: PerDtype;
  host_critical_intensity_flops_per_byte: number;
  on_chip_critical_intensity_flops_per_byte?: number;
  peak_flops_per_s: PerDtype;
  price_usd_per_chip_hour: number;
  // TPU
  dcn_critical_intensity_flops_per_byte?: number;
  ici_bidir_bytes_per_s_per_axis?: number;
  ici_critical_intensity_flops_per_byte?: number;
  // GPU
  domain_egress_unidir_bytes_per_s?: number;
  scale_out_critical_intensity_flops_per_byte?: number;
  scale_up_critical_intensity_flops_per_byte?: number;
  // micro-architecture (where the preset gives it)
  matrix_flops_per_unit_per_cycle?: number;
  vector_clock_hz_if_fma?: number;
  vector_critical_intensity_flops_per_byte?: number;
  vector_flops_per_s?: number;
  vector_lanes?: number;
  vector_to_matrix_ratio?: number;
  /** Largest model pure data parallelism holds in HBM. */
  max_params_pure_dp?: number;
  /** The bf16 peak the chip's geometry gives (units x FLOPs per cycle x clock), and the preset's peak over it. */
  peak_bf16_flops_per_s_from_geometry?: number;
  geometry_to_preset_peak_frac?: number;
  /** TPU: bytes below which one ICI hop is latency-bound, and the contracting size past which two chips win (§2). */
  ici_latency_bound_bytes_per_hop?: number;
  two_chip_contracting_dim_threshold?: number;
  /** On-chip memories and their bandwidths, as the preset gives them (VMEM, registers, L2, shared memory, SMs). */
  on_chip?: Record<string, number>;
  fidelity: Fidelity;
}

export interface RooflineResult {
  attainable_flops_per_s: number;
  bandwidth_bytes_per_s: number;
  bound: 'compute' | 'memory';
  bytes_per_chip: number;
  compute_s: number;
  critical_intensity_flops_per_byte: number;
  flops_per_chip: number;
  intensity_flops_per_byte: number;
  lower_bound_s: number;
  memory_s: number;
  peak_flops_per_s: number;
  upper_bound_s: number;
  fidelity: Fidelity;
}

export interface MatmulResult {
  attainable_flops_per_s: number;
  bandwidth_bytes_per_s: number;
  bound: 'compute' | 'memory';
  bytes: number;
  compute_bound_batch_approx: number;
  compute_bound_batch_exact: number;
  compute_s: number;
  critical_intensity_flops_per_byte: number;
  flops: number;
  intensity_flops_per_byte: number;
  lower_bound_s: number;
  memory_s: number;
  peak_flops_per_s: number;
  upper_bound_s: number;
  fidelity: Fidelity;
}

// Presets (presets()): the preset files as the engine embeds them.
export interface HardwarePreset {
  id: string;
  name: string;
  kind: 'tpu' | 'gpu';
  vendor: string;
  peak_flops_per_s: PerDtype;
  hbm_capacity_bytes: number;
  hbm_bandwidth_bytes_per_s: number;
  price_usd_per_chip_hour: number;
  ici?: { torus_dims: number; max_slice_shape: number[]; host_shape: number[]; link_unidir_bytes_per_s: number; [k: string]: unknown };
  scale_up?: { domain_gpus: number; gpu_unidir_bytes_per_s: number; in_network_reduction: boolean };
  scale_out?: { nic_unidir_bytes_per_s_per_gpu: number; fat_tree_fanouts: number[]; fat_tree_level_names: string[] };
  sources?: Record<string, string>;
  notes?: string[];
  [k: string]: unknown;
}

export interface ModelPreset {
  id: string;
  name: string;
  layers: number;
  d_model: number;
  d_ff: number;
  heads: number;
  kv_heads: number;
  head_dim: number;
  vocab: number;
  experts: number;
  active_experts: number;
  expert_d_ff?: number;
  dense_layers?: number;
  shared_experts?: number;
  mlp: string;
  /** Multi-head latent attention (DeepSeek-V2/V3, Kimi K2): the low-rank KV and query projections. */
  mla?: { q_lora_rank: number; kv_lora_rank: number; qk_nope_head_dim: number; qk_rope_head_dim: number; v_head_dim: number };
  /** Per-layer kinds, repeated over the layers after the first `dense_layers` (docs/presets.md). */
  mlp_pattern?: ('dense' | 'moe')[];
  attention_pattern?: ('full' | 'sliding' | 'chunked')[];
  sliding_window?: number;
  attention_chunk?: number;
  mtp_layers?: number;
  notes?: string[];
  not_modelled?: string[];
  [k: string]: unknown;
}

// A calibration profile (calibration_profiles/*.json): the calibrated fidelity's fitted constants for a chip or
// a chip family, with provenance and the error band measured out of sample.
export interface CalibrationProfilePreset {
  id: string;
  name: string;
  kind: 'tpu' | 'gpu';
  hardware: string[];
  source: string;
  fitted_on: string[];
  tiling: { tile_m: number; tile_n: number; tile_k: number; parallel_tiles: number };
  parameters: Record<string, number>;
  error_bands: Partial<Record<'training' | 'serving', { runs: number; median_frac: number; p90_frac: number; max_frac: number; signed_median_frac: number }>>;
  [k: string]: unknown;
}

export interface Presets {
  engine_version: string;
  hardware: HardwarePreset[];
  models: ModelPreset[];
  calibration_profiles: CalibrationProfilePreset[];
  queries: string[];
}

// ---------------------------------------------------------------------------------------------------------------
// Shapes: the same types as runtime values, so a test can compare real results key by key. The mapped type makes
// TypeScript reject a shape that misses or adds a key of its interface, so the two cannot drift apart.

type Leaf<V> = V extends number ? 'number' : V extends string ? 'string' : V extends boolean ? 'boolean' : V extends readonly unknown[] ? 'array' : never;
export type Shape<T> = {
  [K in keyof T]-?: undefined extends T[K]
    ? `${Leaf<NonNullable<T[K]>>}?` | (NonNullable<T[K]> extends readonly unknown[] ? never : NonNullable<T[K]> extends object ? 'object?' : never)
    : [Leaf<T[K]>] extends [never]
      ? T[K] extends object ? Shape<T[K]> : never
      : Leaf<T[K]>;
};

const REMAT_POLICY: Shape<RemarPolicyResult> = {
  activation_bytes: 'number', extra_forward_flops: 'number', saved_width_per_layer: 'number', training_flops_with_remat: 'number',
};

const LAYER_COUNTS: Shape<LayerCounts> = {
  dense_full: 'number?', dense_sliding: 'number?', dense_chunked: 'number?', moe_full: 'number?', moe_sliding: 'number?', moe_chunked: 'number?',
};

const SEARCH_COUNTS: Shape<SearchCounts> = {
  space: 'number', evaluated: 'number', equivalent: 'number', valid: 'number', with_warnings: 'number', fitting: 'number',
  ranked: 'number', pruned: 'number', bounded: 'number',
};

const STRATEGY_LAYOUTS: Shape<SearchedPlan['layout']> = {
  data: 'object?', fsdp: 'object?', tensor: 'object?', pipeline: 'object?', expert: 'object?', context: 'object?',
};

const SEARCHED_PLAN_CORE = {
  index: 'number',
  parallelism: {
    data: 'array?', fsdp: 'array?', zero_stage: 'number?', tensor: 'array?', sequence_parallel: 'boolean?', pipeline: 'array?',
    pipeline_schedule: 'string?', virtual_stages: 'number?', microbatches: 'number?', expert: 'array?', context: 'array?',
    context_variant: 'string?', expert_tensor: 'number?',
  },
  remat: 'string', precision: { matmul: 'string' }, offload: { optimizer: 'boolean', activations: 'boolean' }, moe: 'object?',
  degrees: { data: 'number', fsdp: 'number', tensor: 'number', pipeline: 'number', expert: 'number', context: 'number', slices: 'number' },
  microbatch_sequences: 'number', step_s: 'number', bound: 'string', critical: 'string', mfu_frac: 'number', memory_bytes: 'number',
  host_bytes: 'number', fits: 'boolean', binding: 'string', tokens_per_s: 'number', usd_per_step: 'number', train_time_s: 'number',
  train_usd: 'number', mesh: 'object?',
} as const satisfies Shape<SearchedPlanCore>;

const PER_STRATEGY_NUMBER: Shape<Partial<Record<Strategy, number>>> = {
  data: 'number?', fsdp: 'number?', tensor: 'number?', pipeline: 'number?', expert: 'number?', context: 'number?',
};
const PER_STRATEGY_ARRAY: Shape<Partial<Record<Strategy, number[]>>> = {
  data: 'array?', fsdp: 'array?', tensor: 'array?', pipeline: 'array?', expert: 'array?', context: 'array?',
};

export const SHAPES = {
  training_step: {
    degrees: { chips: 'number', data: 'number', fsdp: 'number', tensor: 'number', pipeline: 'number', expert: 'number', context: 'number', slices: 'number' },
    tokens_per_chip: 'number', tokens_per_data_shard: 'number', microbatch_tokens: 'number', model_flops: 'number',
    hardware_flops: 'number', fsdp_optimal_degree: 'number?', pipeline_stage_layers: 'number?', pipeline_stage_imbalance: 'number?',
    pipeline_stage_kinds: 'object?', moe: 'object?', mtp_layers: 'number?',
    parallelism: 'object?', layouts_considered: 'number?', layout: 'object?',
    time: {
      compute_s: 'number', bubble_s: 'number', bubble_frac: 'number', hbm_total_s: 'number', hbm_exposed_s: 'number',
      comms: { data_s: 'number', fsdp_s: 'number', tensor_s: 'number', pipeline_s: 'number', expert_s: 'number', context_s: 'number', dcn_s: 'number' },
      comms_total_s: 'number', comms_sum_s: 'number', comms_exposed_s: 'number', overhead_s: 'number',
      offload_total_s: 'number?', offload_exposed_s: 'number?', lower_bound_s: 'number', upper_bound_s: 'number', step_s: 'number',
      bound: 'string', critical: 'string',
    },
    memory: {
      params_bytes: 'number', master_weights_bytes: 'number', grads_bytes: 'number', optimizer_bytes: 'number',
      activations_bytes: 'number', in_flight_microbatches: 'number', context_buffers_bytes: 'number', total_bytes: 'number',
      hbm_capacity_bytes: 'number', fits: 'boolean', shortfall_bytes: 'number', min_chips_for_memory: 'number?', transient_bytes: 'number?',
      state_bytes_per_param: 'number',
    },
    mfu_frac: 'number', hfu_frac: 'number', tokens_per_s: 'number', tokens_per_s_per_chip: 'number',
    cost: { usd_per_hour: 'number', train_tokens: 'number', train_time_s: 'number', train_usd: 'number' },
    thresholds: 'array', binding: 'string', fidelity: 'string', flop_account: 'string', breakdown: 'object?', calibration: 'object?',
    ideal: 'object?',
  } satisfies Shape<TrainingStepResult>,
  serving: {
    prefill: { sequences: 'number', tokens: 'number', flops_s: 'number', matmul_flops_s: 'number', param_load_s: 'number', comms_s: 'number', overhead_s: 'number', exposed: { flops_s: 'number', param_load_s: 'number', kv_load_s: 'number', comms_s: 'number', overhead_s: 'number' }, time_s: 'number', bound: 'string' },
    decode: { param_load_s: 'number', kv_load_s: 'number', flops_s: 'number', comms_s: 'number', overhead_s: 'number', exposed: { flops_s: 'number', param_load_s: 'number', kv_load_s: 'number', comms_s: 'number', overhead_s: 'number' }, step_s: 'number', bound: 'string', critical: 'string', mlp_bound: 'string' },
    memory: { param_bytes: 'number', kv_bytes_per_sequence: 'number', kv_bytes_per_token: 'number', total_bytes: 'number', hbm_capacity_bytes: 'number', fits: 'boolean', max_batch: 'number', min_chips_for_params: 'number', chips_for_params: 'number', min_chips: 'number?', min_chips_for_memory: 'number?' },
    kv_context_len: 'number', decode_time_s: 'number?', weight_stationary_2d_min_chips: 'number?', time_to_first_token_s: 'number', request_latency_s: 'number', tensor_parallel_compute_limit: 'number',
    tokens_per_s: 'number', tokens_per_s_per_chip: 'number', latency_per_token_s: 'number', queries_per_s_per_chip: 'number',
    usd_per_million_output_tokens: 'number', usd_per_million_input_tokens: 'number', compute_bound_batch: 'number',
    tensor_parallel_hbm_limit: 'number',
    disaggregation: { prefill_servers_per_decode_server: 'number', prefill_time_one_sequence_s: 'number' },
    continuous_batching: { tokens_evicted_per_step: 'number', sequences_finished_per_step: 'number' },
    sweep: 'array', speculative: 'object?', deployment: 'object?', fidelity: 'string', calibration: 'object?', ideal: 'object?',
  } satisfies Shape<ServingResult>,
  serving_deployment_cost: {
    prefill: 'string', demand_tokens_per_s: 'number', latency_per_token_s: 'number', replicas: 'number', prefill_servers: 'number',
    total_chips: 'number', tokens_per_s: 'number', tokens_per_s_per_chip: 'number', usd_per_million_output_tokens: 'number', prefill_bound: 'boolean',
  } satisfies Shape<ServingDeploymentCost>,
  speculative: {
    expected_tokens_per_step: 'number', draft_step_s: 'number', verify_step_s: 'number', iteration_s: 'number',
    latency_per_token_s: 'number', speedup: 'number', formula: 'string',
  } satisfies Shape<SpeculativeResult>,
  plan_search: {
    evaluated: 'number', valid: 'number', fitting: 'number', plans: 'array', space: 'number',
    space_breakdown: { degree_combinations: 'number', rejected_degree_combinations: 'number', rejected_by: { '*': 'number' }, layouts: 'number' },
    counts: SEARCH_COUNTS, objective: 'string', pareto: 'array', pareto_size: 'number', complete: 'boolean', progress_frac: 'number',
    cursor: 'object?', stopped_by: 'string?', fidelity: 'string?', calibration: 'object?',
  } satisfies Shape<PlanSearchResult>,
  search_cursor: { next: 'number', retained: 'array', counts: SEARCH_COUNTS } satisfies Shape<NonNullable<PlanSearchResult['cursor']>>,
  searched_plan_core: SEARCHED_PLAN_CORE,
  searched_plan: {
    ...SEARCHED_PLAN_CORE, rank: 'number', layout: STRATEGY_LAYOUTS, pareto: 'boolean', tie: 'object?', ideal: 'object?', warnings: 'array',
  } satisfies Shape<SearchedPlan>,
  plan_tie: { with_rank: 'number', differs: 'array' } satisfies Shape<NonNullable<SearchedPlan['tie']>>,
  strategy_layout: {
    degree: 'number', pieces: 'array', ici_axes: 'number', dcn_slices: 'number', all_gather_bandwidth_bytes_per_s: 'number',
    gpus_spanned: 'number?', nvlink_domains_spanned: 'number?',
  } satisfies Shape<StrategyLayout>,
  layout_piece: {
    axis: 'string', size: 'number', stride: 'number', axis_size: 'number', ring: 'boolean?', links_shared_by: 'number?', dcn: 'boolean?',
  } satisfies Shape<LayoutPieceResult>,
  serving_search: {
    evaluated: 'number', fitting: 'number', meeting_targets: 'number', objective: 'string', deployments: 'array', frontier: 'array',
    frontier_size: 'number', fidelity: 'string', calibration: 'object?',
  } satisfies Shape<ServingSearchResult>,
  serving_deployment: {
    mesh: { shape: 'array' }, parallelism: { tensor: 'array?', expert: 'array?', expert_tensor: 'number?' },
    degrees: { tensor: 'number', expert: 'number', expert_tensor: 'number' },
    dtypes: { weights: 'string', kv: 'string' }, batch: 'number', disaggregated: 'boolean', replicas: 'number', prefill_servers: 'number',
    total_chips: 'number', decode_step_s: 'number', prefill_one_sequence_s: 'number', latency_per_token_s: 'number',
    time_to_first_token_s: 'number', tokens_per_s: 'number', tokens_per_s_per_chip: 'number', usd_per_million_output_tokens: 'number',
    memory_bytes: 'number', hbm_capacity_bytes: 'number', meets_targets: 'boolean', bound: 'string', rank: 'number?',
  } satisfies Shape<ServingDeployment>,
  transformer: {
    activation_bytes: 'number', attention_equals_matmuls_seq_len: 'number', attention_equals_qkvo_seq_len: 'number',
    attention_flops_fraction: 'number', attention_intensity_decode_flops_per_byte: 'number',
    attention_intensity_prefill_flops_per_byte: 'number', decode_compute_bound_batch_tokens: 'number?',
    forward_attention_flops: 'number', forward_flops: 'number', forward_matmul_flops: 'number',
    kv_cache_bytes_per_sequence: 'number', kv_cache_bytes_per_token: 'number', param_bytes: 'number',
    params: {
      active: 'number', active_in_matmuls: 'number', attention: 'number', embeddings: 'number', mlp: 'number', mlp_active: 'number',
      mtp: 'number?', norms: 'number', router: 'number', total: 'number',
    },
    params_and_adam_bytes: 'number', remat: 'string',
    attention: {
      kind: 'string', kv_values_per_token_per_layer: 'number', training_and_prefill: 'string?', decode: 'string?',
      prefill_flops_per_key_per_layer: 'number?', decode_flops_per_key_per_layer: 'number?',
    },
    layers: LAYER_COUNTS,
    remat_policies: { big_matmuls: REMAT_POLICY, block: REMAT_POLICY, mlp_matmuls: REMAT_POLICY, none: REMAT_POLICY, selective: REMAT_POLICY },
    seq_len: 'number', six_n_flops_per_token: 'number', six_n_flops: 'number', tokens: 'number', training_flops: 'number',
    training_flops_per_token: 'number', fidelity: 'string',
  } satisfies Shape<TransformerResult>,
  chip: {
    id: 'string', kind: 'string', name: 'string', flops_per_usd: { fp32: 'number?', bf16: 'number?', fp8: 'number?', int8: 'number?', int4: 'number?', fp4: 'number?' },
    hbm_bandwidth_bytes_per_s: 'number', hbm_capacity_bytes: 'number', hbm_critical_batch_bf16_tokens: 'number',
    hbm_critical_intensity_flops_per_byte: { fp32: 'number?', bf16: 'number?', fp8: 'number?', int8: 'number?', int4: 'number?', fp4: 'number?' },
    host_critical_intensity_flops_per_byte: 'number', on_chip_critical_intensity_flops_per_byte: 'number?',
    peak_flops_per_s: { fp32: 'number?', bf16: 'number?', fp8: 'number?', int8: 'number?', int4: 'number?', fp4: 'number?' },
    price_usd_per_chip_hour: 'number', dcn_critical_intensity_flops_per_byte: 'number?', ici_bidir_bytes_per_s_per_axis: 'number?',
    ici_critical_intensity_flops_per_byte: 'number?', domain_egress_unidir_bytes_per_s: 'number?',
    scale_out_critical_intensity_flops_per_byte: 'number?', scale_up_critical_intensity_flops_per_byte: 'number?',
    matrix_flops_per_unit_per_cycle: 'number?', vector_clock_hz_if_fma: 'number?', vector_critical_intensity_flops_per_byte: 'number?',
    vector_flops_per_s: 'number?', vector_lanes: 'number?', vector_to_matrix_ratio: 'number?', max_params_pure_dp: 'number?',
    peak_bf16_flops_per_s_from_geometry: 'number?', geometry_to_preset_peak_frac: 'number?', ici_latency_bound_bytes_per_hop: 'number?',
    two_chip_contracting_dim_threshold: 'number?', on_chip: 'object?', fidelity: 'string',
  } satisfies Shape<ChipResult>,
  roofline: {
    attainable_flops_per_s: 'number', bandwidth_bytes_per_s: 'number', bound: 'string', bytes_per_chip: 'number', compute_s: 'number',
    critical_intensity_flops_per_byte: 'number', flops_per_chip: 'number', intensity_flops_per_byte: 'number',
    lower_bound_s: 'number', memory_s: 'number', peak_flops_per_s: 'number', upper_bound_s: 'number', fidelity: 'string',
  } satisfies Shape<RooflineResult>,
  matmul: {
    attainable_flops_per_s: 'number', bandwidth_bytes_per_s: 'number', bound: 'string', bytes: 'number',
    compute_bound_batch_approx: 'number', compute_bound_batch_exact: 'number', compute_s: 'number',
    critical_intensity_flops_per_byte: 'number', flops: 'number', intensity_flops_per_byte: 'number', lower_bound_s: 'number',
    memory_s: 'number', peak_flops_per_s: 'number', upper_bound_s: 'number', fidelity: 'string',
  } satisfies Shape<MatmulResult>,
  threshold: {
    name: 'string', kind: 'string', required: 'number', actual: 'number', margin: 'number', ok: 'boolean', reason: 'string',
    step_margin: 'number', step_ok: 'boolean', simplification: 'string',
  } satisfies Shape<Threshold>,
  plan_mesh: {
    runs: 'boolean', problems: 'array', degrees: PER_STRATEGY_NUMBER, balancing: 'string', chips_multiple_of: 'number', mesh: 'object?',
    parallelism: 'object?', engine_layout: 'boolean?', chips: 'number', chips_per_slice: 'number?', valid_degrees: PER_STRATEGY_ARRAY,
    nearest: 'object?', fidelity: 'string',
  } satisfies Shape<PlanMeshResult>,
  sweep_point: {
    batch: 'number', fits: 'boolean', context: 'number', step_s: 'number', tokens_per_s_per_chip: 'number', latency_per_token_s: 'number',
    param_load_s: 'number', kv_load_s: 'number', flops_s: 'number', comms_s: 'number', overhead_s: 'number',
  } satisfies Shape<ServingSweepPoint>,
} as const;

export const EXTRA_KEY = ': not in the TypeScript types';

export type ShapeSpec = string | { readonly [k: string]: ShapeSpec };

/**
 * Compares a value with a shape; returns one line per mismatch (missing key, extra key, wrong kind). An extra key is
 * a key the engine gives and the types lack: its line ends in EXTRA_KEY, and the engine-types test fails on it.
 */
export function shapeMismatches(value: unknown, shape: ShapeSpec, path = ''): string[] {
  if (typeof shape === 'string') {
    const optional = shape.endsWith('?');
    const kind = optional ? shape.slice(0, -1) : shape;
    if (value === undefined) return optional ? [] : [`${path}: missing`];
    const actual = Array.isArray(value) ? 'array' : typeof value;
    return actual === kind ? [] : [`${path}: expected ${kind}, got ${actual}`];
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return [`${path}: expected an object`];
  const v = value as Record<string, unknown>;
  const out: string[] = [];
  // A record (`{'*': kind}`): any keys, each value of that kind.
  const each = shape['*'];
  if (each !== undefined) return Object.entries(v).flatMap(([k, x]) => shapeMismatches(x, each, `${path}/${k}`));
  for (const [k, s] of Object.entries(shape)) out.push(...shapeMismatches(v[k], s, `${path}/${k}`));
  for (const k of Object.keys(v)) if (!(k in shape)) out.push(`${path}/${k}${EXTRA_KEY}`);
  return out;
}
