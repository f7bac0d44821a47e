// Generated from schema/ by web/scripts/schema-generate.mjs with json-schema-to-typescript: do not edit (edit the
// schema, then run it). src/engine/types.ts re-exports these under the names the site imports.

/**
 * The model model_json() resolves, with what the engine leaves out of it (not_modelled).
 */
export type ResolvedModelWithGaps = ResolvedModel & Required<Pick<ResolvedModel, 'not_modelled'>>;
/**
 * A preset file: a chip with its identity and a source for every number.
 */
export type HardwarePresetFile = HardwareChip &
  Required<Pick<HardwareChip, 'schema' | 'id' | 'name' | 'vendor' | 'sources'>>;
/**
 * A preset file: a model with its identity and a source for every number.
 */
export type ModelPresetFile = ModelDefinition & Required<Pick<ModelDefinition, 'schema' | 'id' | 'name' | 'sources'>>;
/**
 * A model as the engine resolves it (presets(), model_json()): kv_heads and head_dim given for latent attention too.
 */
export type ResolvedModel = ModelDefinition & Required<Pick<ModelDefinition, 'id' | 'name' | 'kv_heads' | 'head_dim'>>;
/**
 * Text the engine reads: at most 4096 bytes (docs/api.md Limits).
 */
export type Text = string;
/**
 * The book's closed forms, or the per-layer model fitted on published runs.
 */
export type Fidelity = 'book' | 'calibrated';
/**
 * query.calibration: a profile, or a calibrate result whose profiles the engine chooses among for the chip (the one that lists it, else its kind's family profile), as the CLI writes it ({"profiles": [...]}) or answers it ({"ok": ..., "result": {"profiles": [...]}}).
 */
export type ProfileOrResult = CalibrationProfile;
/**
 * A numeric format.
 */
export type Dtype = 'fp32' | 'bf16' | 'fp8' | 'int8' | 'int4' | 'fp4';
/**
 * This query has the book's fidelity only.
 */
export type BookFidelity = 'book';
/**
 * A framework whose launch configuration the engine writes and reads: Megatron-LM, Megatron-Bridge, MaxText and DeepSpeed train; vLLM, SGLang and TensorRT-LLM serve (docs/api.md Framework launch configs).
 */
export type Framework = 'megatron' | 'megatron-bridge' | 'maxtext' | 'deepspeed' | 'vllm' | 'sglang' | 'trtllm';
/**
 * What the backward pass recomputes instead of keeping.
 */
export type Remat = 'none' | 'block' | 'big_matmuls' | 'mlp_matmuls' | 'checkpoints' | 'selective';
/**
 * A pipeline schedule.
 */
export type PipelineSchedule = 'gpipe' | '1f1b' | 'interleaved' | 'zero_bubble' | 'dualpipe' | 'dualpipe_v';
/**
 * A training matmul precision: a dtype, or a low-precision recipe.
 */
export type MatmulPrecision = 'bf16' | 'fp8' | 'fp8_blockwise' | 'mxfp8' | 'nvfp4' | 'int8' | 'fp4';
/**
 * A parallelism strategy.
 */
export type Strategy = 'data' | 'fsdp' | 'tensor' | 'pipeline' | 'expert' | 'context';
/**
 * Context parallelism: ring attention, or K/V all-gathered before attention.
 */
export type ContextVariant = 'ring' | 'all_gather';
/**
 * Comms on different axes overlap (max, Aug-2025) or add up (sum, Feb-2025).
 */
export type CommsModel = 'max' | 'sum';
/**
 * A mesh axis by name (X, Y, Z, ..., or the DCN axis).
 */
export type MeshAxisName = Text;
/**
 * What a strategy runs on: a whole mesh axis by name, or a sub-axis.
 */
export type AxisRef = MeshAxisName | SubAxis;
/**
 * Whole mesh axes by name.
 */
export type AxisList = MeshAxisName[];
/**
 * A whole chip: a preset, or a custom chip inline in a scenario (identity and sources optional).
 */
export type HardwareChip = HardwareFields &
  Required<
    Pick<
      HardwareFields,
      | 'kind'
      | 'peak_flops_per_s'
      | 'hbm_capacity_bytes'
      | 'hbm_bandwidth_bytes_per_s'
      | 'host_pcie_unidir_bytes_per_s'
      | 'price_usd_per_chip_hour'
      | 'price_date'
    >
  > & {
    peak_flops_per_s: NonNullable<HardwareFields['peak_flops_per_s']> &
      Required<Pick<NonNullable<HardwareFields['peak_flops_per_s']>, 'bf16'>>;
  } & {
    ici?: NonNullable<HardwareFields['ici']> &
      Required<
        Pick<
          NonNullable<HardwareFields['ici']>,
          | 'torus_dims'
          | 'max_slice_shape'
          | 'host_shape'
          | 'cores_per_chip'
          | 'link_unidir_bytes_per_s'
          | 'links_per_chip'
          | 'wraparound_axis_multiple'
          | 'wraparound_rule'
          | 'hop_latency_s'
        >
      >;
  } & {
    scale_up?: NonNullable<HardwareFields['scale_up']> &
      Required<
        Pick<NonNullable<HardwareFields['scale_up']>, 'domain_gpus' | 'gpu_unidir_bytes_per_s' | 'in_network_reduction'>
      >;
  } & {
    scale_out?: NonNullable<HardwareFields['scale_out']> &
      Required<
        Pick<
          NonNullable<HardwareFields['scale_out']>,
          'nic_unidir_bytes_per_s_per_gpu' | 'fat_tree_fanouts' | 'fat_tree_level_names'
        >
      >;
  };
/**
 * Fields of the preset replaced (a JSON merge patch, checked like the preset itself; the schema leaves out a null that deletes an optional field).
 */
export type HardwareOverrides = HardwareFields;
/**
 * Dense peak FLOP/s in this dtype. [FLOP/s]
 */
export type PeakFlops = number;
/**
 * The scenario's chip: a preset by id with any field replaced, or a whole custom chip inline.
 */
export type HardwareRef = HardwarePresetRef | HardwareChip;
/**
 * A whole model: a preset, or a custom model inline in a scenario (identity and sources optional).
 */
export type ModelDefinition = ModelFields &
  Required<
    Pick<
      ModelFields,
      | 'layers'
      | 'd_model'
      | 'd_ff'
      | 'heads'
      | 'vocab'
      | 'tied_embeddings'
      | 'mlp'
      | 'experts'
      | 'active_experts'
      | 'shared_experts'
      | 'dense_layers'
    >
  > & {
    mla?: NonNullable<ModelFields['mla']> &
      Required<
        Pick<NonNullable<ModelFields['mla']>, 'kv_lora_rank' | 'qk_nope_head_dim' | 'qk_rope_head_dim' | 'v_head_dim'>
      >;
  };
/**
 * Fields of the preset (or of the config.json's model) replaced: a JSON merge patch, checked like the preset itself.
 */
export type ModelOverrides = ModelFields;
/**
 * A whole number (null: unset).
 */
export type HfCount = number | null;
/**
 * A whole number, 0 allowed (null: unset).
 */
export type HfCountOrZero = number | null;
/**
 * The scenario's model: a preset by id with overrides, a config.json, or a whole model inline.
 */
export type ModelRef = ModelPresetRef | HfModelRef | ModelDefinition;
/**
 * The plan as it would run: a training_step or serving query, read and checked as that query reads it (a plan that cannot run is refused with its diagnostics).
 */
export type LaunchPlan = LaunchTrainingPlan | LaunchServingPlan;
/**
 * A training_step query's arguments; a serving query's, which a training launch has nothing to say about, are taken and not read.
 */
export type LaunchTrainingPlan = TrainingInput & {
  /**
   * The plan's query kind.
   */
  kind: 'training_step';
  /**
   * What each strategy runs on (whole mesh axes, sub-axes, or a degree the engine lays out), and the plan's settings.
   */
  parallelism: {
    /**
     * Pure data parallelism (replicated weights).
     */
    data?: AxisRef[] | number;
    /**
     * FSDP (ZeRO).
     */
    fsdp?: AxisRef[] | number;
    /**
     * Tensor parallelism (Megatron).
     */
    tensor?: AxisRef[] | number;
    /**
     * Pipeline stages.
     */
    pipeline?: AxisRef[] | number;
    /**
     * Expert parallelism: the routed experts split over it.
     */
    expert?: AxisRef[] | number;
    /**
     * Context parallelism: the sequence split over it.
     */
    context?: AxisRef[] | number;
    /**
     * ZeRO stage [3].
     */
    zero_stage?: number;
    /**
     * Sequence parallelism with TP [true].
     */
    sequence_parallel?: boolean;
    /**
     * The pipeline schedule [1f1b].
     */
    pipeline_schedule?: PipelineSchedule & string;
    /**
     * Model chunks per stage (interleaved) [1].
     */
    virtual_stages?: number;
    /**
     * Microbatches per step [1] (or microbatch_sequences).
     */
    microbatches?: number;
    /**
     * The microbatch size in whole sequences (not with microbatches). [sequences]
     */
    microbatch_sequences?: number;
    /**
     * The experts' own TP degree (parallel folding; divides TP) [the TP degree]. [chips]
     */
    expert_tensor?: number;
    /**
     * Context parallelism's variant [ring].
     */
    context_variant?: ContextVariant & string;
  };
  /**
   * Host offload [false, false].
   */
  offload?: {
    /**
     * Adam's moments (and master weights) live in host memory [false].
     */
    optimizer?: boolean;
    /**
     * Saved activations go to the host and back [false].
     */
    activations?: boolean;
  };
  /**
   * Taken and not read (a training_step argument).
   */
  explain?: {
    [k: string]: unknown;
  };
  /**
   * Taken and not read (a serving argument).
   */
  include_comms?: {
    [k: string]: unknown;
  };
  /**
   * Taken and not read (a serving argument).
   */
  kv_context_len?: {
    [k: string]: unknown;
  };
  /**
   * Taken and not read (a serving argument).
   */
  params_override?: {
    [k: string]: unknown;
  };
  /**
   * Taken and not read (a serving argument).
   */
  prefill_flops_frac?: {
    [k: string]: unknown;
  };
  /**
   * Taken and not read (a serving argument).
   */
  sweep?: {
    [k: string]: unknown;
  };
  /**
   * Taken and not read (a serving argument).
   */
  deployment?: {
    [k: string]: unknown;
  };
  /**
   * Taken and not read (a serving argument).
   */
  load?: {
    [k: string]: unknown;
  };
  /**
   * Taken and not read (a serving argument).
   */
  latency_target_s?: {
    [k: string]: unknown;
  };
};
/**
 * Every training plan of a space for the mesh, each checked like training_step and evaluated: the best, the Pareto front, counts.
 */
export type PlanSearchQuery = TrainingInput & {
  /**
   * The query kind.
   */
  kind: 'plan_search';
  /**
   * How many best plans [10]. [plans]
   */
  keep?: number;
  /**
   * What best means: wall_time is the expected time to train (per step without train_tokens) with failures, checkpoints and restarts [step_time].
   */
  objective?: 'step_time' | 'cost_to_train' | 'tokens_per_usd' | 'wall_time';
  /**
   * Degrees held or capped, and which plans rank.
   */
  constraints?: {
    /**
     * Degrees held.
     */
    fixed?: {
      /**
       * The data degree. [chips]
       */
      data?: number;
      /**
       * The fsdp degree. [chips]
       */
      fsdp?: number;
      /**
       * The tensor degree. [chips]
       */
      tensor?: number;
      /**
       * The pipeline degree. [chips]
       */
      pipeline?: number;
      /**
       * The expert degree. [chips]
       */
      expert?: number;
      /**
       * The context degree. [chips]
       */
      context?: number;
    };
    /**
     * Degrees capped.
     */
    max?: {
      /**
       * The data degree. [chips]
       */
      data?: number;
      /**
       * The fsdp degree. [chips]
       */
      fsdp?: number;
      /**
       * The tensor degree. [chips]
       */
      tensor?: number;
      /**
       * The pipeline degree. [chips]
       */
      pipeline?: number;
      /**
       * The expert degree. [chips]
       */
      expert?: number;
      /**
       * The context degree. [chips]
       */
      context?: number;
    };
    /**
     * TP at most. [chips]
     */
    max_tensor?: number;
    /**
     * Plans out of HBM are not ranked (false: ranked after those that fit) [true].
     */
    must_fit?: boolean;
    /**
     * Fit in (1 - headroom) of HBM [0]. [of HBM]
     */
    memory_headroom_frac?: number;
    /**
     * Plans with a warning (and degrees whose data shards split sequences) are ranked too [false].
     */
    include_warnings?: boolean;
  };
  /**
   * What the caller allows (docs/api.md plan_search: the space).
   */
  space?: {
    /**
     * The strategies the space uses [all].
     */
    strategies?: Strategy[];
    /**
     * The strategies the DCN axis may carry [data, fsdp, pipeline, expert].
     */
    dcn_strategies?: Strategy[];
    /**
     * How many strategies may split one TPU axis [2].
     */
    max_strategies_per_torus_axis?: number;
    /**
     * CP at most seq_len / this; 0: any [4096]. [tokens]
     */
    min_context_chunk_tokens?: number;
    /**
     * ZeRO stages [1, 2, 3].
     */
    zero_stages?: number[];
    /**
     * Pipeline schedules [1f1b, interleaved].
     */
    pipeline_schedules?: ('gpipe' | '1f1b' | 'interleaved' | 'zero_bubble' | 'dualpipe' | 'dualpipe_v')[];
    /**
     * Interleaving's model chunks per stage [2, 4].
     */
    virtual_stages?: number[];
    /**
     * Microbatch sizes in whole sequences [every divisor].
     */
    microbatch_sequences?: number[];
    /**
     * Remat policies [the query's remat alone if it sets one, else none, big_matmuls, mlp_matmuls, block].
     */
    remat?: ('none' | 'big_matmuls' | 'mlp_matmuls' | 'block' | 'selective')[];
    /**
     * Host offload [none].
     */
    offload?: ('none' | 'optimizer' | 'activations' | 'both')[];
    /**
     * Matmul precisions [the query's].
     */
    matmul?: ('bf16' | 'fp8' | 'fp8_blockwise' | 'mxfp8' | 'nvfp4' | 'int8' | 'fp4')[];
    /**
     * TP with or without SP [on].
     */
    sequence_parallel?: ('on' | 'off')[];
    /**
     * CP variants [ring].
     */
    context_variants?: ('ring' | 'all_gather')[];
    /**
     * An MoE model: the experts' TP degrees to try, "tp" for the TP degree [["tp"]].
     */
    expert_tensor?: ('tp' | number)[];
    /**
     * An MoE model: capacities to try, "dropless" for none [the query's]. [x the mean tokens per expert]
     */
    capacity_factors?: ('dropless' | number)[];
  };
  /**
   * The largest space searched; a larger one is refused [2e7]. [plans]
   */
  limit?: number;
  /**
   * Only the space's size [false].
   */
  count_only?: boolean;
  /**
   * Search this many plans, then stop with a cursor. [plans]
   */
  chunk_plans?: number;
  /**
   * A cursor a chunk answered with: the search goes on from it.
   */
  resume?: {
    /**
     * The next plan's index in the space. [plans]
     */
    next: number;
    /**
     * The indices of the plans kept so far.
     */
    retained?: number[];
    /**
     * The counts so far.
     */
    counts?: {
      /**
       * Plans in the space. [plans]
       */
      space?: number;
      /**
       * The cursor's count of plans evaluated so far. [plans]
       */
      evaluated?: number;
      /**
       * The cursor's count of plans equivalent so far. [plans]
       */
      equivalent?: number;
      /**
       * The cursor's count of plans valid so far. [plans]
       */
      valid?: number;
      /**
       * The cursor's count of plans with warnings so far. [plans]
       */
      with_warnings?: number;
      /**
       * The cursor's count of plans fitting so far. [plans]
       */
      fitting?: number;
      /**
       * The cursor's count of plans ranked so far. [plans]
       */
      ranked?: number;
      /**
       * The cursor's count of plans pruned so far. [plans]
       */
      pruned?: number;
      /**
       * The cursor's count of plans bounded so far. [plans]
       */
      bounded?: number;
    };
  };
};
/**
 * One training step of a plan (scaling-book/training; scaling-book/gpus for GPUs).
 */
export type TrainingStepQuery = TrainingInput & {
  /**
   * The query kind.
   */
  kind: 'training_step';
  /**
   * What each strategy runs on (whole mesh axes, sub-axes, or a degree the engine lays out), and the plan's settings.
   */
  parallelism: {
    /**
     * Pure data parallelism (replicated weights).
     */
    data?: AxisRef[] | number;
    /**
     * FSDP (ZeRO).
     */
    fsdp?: AxisRef[] | number;
    /**
     * Tensor parallelism (Megatron).
     */
    tensor?: AxisRef[] | number;
    /**
     * Pipeline stages.
     */
    pipeline?: AxisRef[] | number;
    /**
     * Expert parallelism: the routed experts split over it.
     */
    expert?: AxisRef[] | number;
    /**
     * Context parallelism: the sequence split over it.
     */
    context?: AxisRef[] | number;
    /**
     * ZeRO stage [3].
     */
    zero_stage?: number;
    /**
     * Sequence parallelism with TP [true].
     */
    sequence_parallel?: boolean;
    /**
     * The pipeline schedule [1f1b].
     */
    pipeline_schedule?: PipelineSchedule & string;
    /**
     * Model chunks per stage (interleaved) [1].
     */
    virtual_stages?: number;
    /**
     * Microbatches per step [1] (or microbatch_sequences).
     */
    microbatches?: number;
    /**
     * The microbatch size in whole sequences (not with microbatches). [sequences]
     */
    microbatch_sequences?: number;
    /**
     * The experts' own TP degree (parallel folding; divides TP) [the TP degree]. [chips]
     */
    expert_tensor?: number;
    /**
     * Context parallelism's variant [ring].
     */
    context_variant?: ContextVariant & string;
  };
  /**
   * Host offload [false, false].
   */
  offload?: {
    /**
     * Adam's moments (and master weights) live in host memory [false].
     */
    optimizer?: boolean;
    /**
     * Saved activations go to the host and back [false].
     */
    activations?: boolean;
  };
  /**
   * Add explain: each headline number's formula, values substituted, and book section [false].
   */
  explain?: boolean;
  /**
   * Add pipeline_timeline: the plan's pipeline schedule played pass by pass at the step's own pass times, in each schedule's published order [false].
   */
  pipeline_timeline?: boolean;
};
/**
 * A Scalescope scenario (docs/api.md): the hardware, optionally a model and a mesh, and one query. Which of hardware, model and mesh a query needs is its kind's (docs/api.md: each query's heading).
 */
export type Scenario = {
  /**
   * This schema, for editors (the engine ignores it): "../schema/scenario.schema.json" from examples/.
   */
  $schema?: Text;
  /**
   * The scenario format's version [1].
   */
  version?: number;
  hardware?: HardwareRef;
  model?: ModelRef;
  mesh?: MeshRef;
  query: Query;
};
/**
 * The chips' named axes, or the degrees for the engine to lay out on a mesh (docs/api.md Mesh).
 */
export type MeshRef = MeshLayOut | Mesh;
/**
 * What to compute: a kind and its arguments (one file each in schema/queries/).
 */
export type Query =
  | SummaryQuery
  | ChipQuery
  | RooflineQuery
  | MatmulQuery
  | TopologyQuery
  | TransferQuery
  | CollectiveQuery
  | ArrayQuery
  | ShardedMatmulQuery
  | TransformerQuery
  | ModelQuery
  | UtilizationQuery
  | BoundsQuery
  | TrainingStepQuery
  | ServingQuery
  | MlpRooflineQuery
  | PlanSearchQuery
  | ServingSearchQuery
  | PlanMeshQuery
  | NearestFitQuery
  | LaunchConfigQuery
  | ImportConfigQuery
  | ValidationQuery
  | CalibrateQuery
  | KernelFitQuery
  | KernelFamilyQuery
  | ProfileQuery;
/**
 * A whole mesh axis by name, or a placed sub-axis.
 */
export type PlacedAxisRef = string | PlacedSubAxis;
/**
 * One plan of plans, best first.
 */
export type SearchedPlan = SearchedPlanCore & {
  /**
   * The book's numbers for the same plan.
   */
  ideal?: {
    /**
     * Model FLOPs utilisation. [fraction]
     */
    mfu_frac: number;
    /**
     * One step. [s]
     */
    step_s: number;
    /**
     * Time to train on train_tokens. [s]
     */
    train_time_s: number;
  };
  /**
   * Per strategy, its place on the mesh.
   */
  layout: StrategyLayouts;
  /**
   * On the Pareto front of step time against memory per chip.
   */
  pareto: boolean;
  /**
   * 1 = best.
   */
  rank: number;
  /**
   * Ties with the plan above.
   */
  tie?: {
    /**
     * What differs from the plan above.
     */
    differs: string[];
    /**
     * The tied plan's rank.
     */
    with_rank: number;
  };
  /**
   * The warnings the plan's own training_step raises.
   */
  warnings: Diagnostic[];
  /**
   * Useful time over wall time once failures, checkpoints and restarts are counted (the query's goodput settings). [fraction]
   */
  goodput_frac: number;
  /**
   * Expected wall-clock time to train (train_tokens > 0; null: the job never finishes). [s]
   */
  wall_time_s?: number | null;
};

/**
 * validate()'s answer: the diagnostics alone.
 */
export type ValidateAnswer = {
  /**
   * No errors.
   */
  ok: boolean;
  /**
   * The query kind read.
   */
  query?:
    | 'summary'
    | 'chip'
    | 'roofline'
    | 'matmul'
    | 'topology'
    | 'transfer'
    | 'collective'
    | 'array'
    | 'sharded_matmul'
    | 'transformer'
    | 'model'
    | 'utilization'
    | 'bounds'
    | 'training_step'
    | 'serving'
    | 'mlp_roofline'
    | 'plan_search'
    | 'serving_search'
    | 'plan_mesh'
    | 'profile'
    | 'nearest_fit'
    | 'launch_config'
    | 'import_config'
    | 'validation'
    | 'calibrate'
    | 'kernel_fit'
    | 'kernel_family';
  /**
   * Every problem at once (errors drop the result; warnings keep it).
   */
  diagnostics: Diagnostic[];
  /**
   * The engine's version.
   */
  engine_version: string;
};
/**
 * One problem with the input (or a warning about the result), at its JSON pointer.
 */
export type Diagnostic = {
  /**
   * JSON pointer into the scenario ("" is the whole document; /result/... a result's number).
   */
  path: string;
  /**
   * What is wrong: one of docs/api.md's codes (missing_key, unknown_key, out_of_hbm, ...).
   */
  code: string;
  /**
   * For people: what is wrong, naming the valid choices.
   */
  message: string;
  /**
   * An error drops the result; a warning keeps it.
   */
  severity: 'error' | 'warning';
};
/**
 * model_json()'s answer: the model a scenario's model object resolves to.
 */
export type ModelJson = {
  /**
   * No errors.
   */
  ok: boolean;
  /**
   * The resolved model.
   */
  model?: ResolvedModelWithGaps;
  /**
   * Every problem at once (errors drop the result; warnings keep it).
   */
  diagnostics: Diagnostic[];
};
/**
 * presets()'s answer (scalescope --presets): every embedded preset and the query kinds.
 */
export type Presets = {
  /**
   * The engine's version.
   */
  engine_version: string;
  /**
   * The embedded hardware presets.
   */
  hardware: HardwarePresetFile[];
  /**
   * The embedded model presets.
   */
  models: (ModelPresetFile & ResolvedModel)[];
  /**
   * The embedded calibration profiles.
   */
  calibration_profiles: CalibrationProfile[];
  /**
   * The query kinds this build answers.
   */
  queries: (
    | 'summary'
    | 'chip'
    | 'roofline'
    | 'matmul'
    | 'topology'
    | 'transfer'
    | 'collective'
    | 'array'
    | 'sharded_matmul'
    | 'transformer'
    | 'model'
    | 'utilization'
    | 'bounds'
    | 'training_step'
    | 'serving'
    | 'mlp_roofline'
    | 'plan_search'
    | 'serving_search'
    | 'plan_mesh'
    | 'profile'
    | 'nearest_fit'
    | 'launch_config'
    | 'import_config'
    | 'validation'
    | 'calibrate'
    | 'kernel_fit'
    | 'kernel_family'
  )[];
  /**
   * The serving engines whose fitted runtime the serving query's load.backend applies.
   */
  serving_backends: ServingBackend[];
};
/**
 * A calibration profile (docs/api.md Calibration).
 */
export type CalibrationProfile = {
  /**
   * The profile format's version; format 1 (before the kernel models) is refused with unsupported_version [absent: read as format 2].
   */
  schema?: 'scalescope.calibration/2';
  /**
   * The profile id.
   */
  id: Text;
  /**
   * Display name.
   */
  name: Text;
  /**
   * The chip kind it is for.
   */
  kind: 'tpu' | 'gpu';
  /**
   * The hardware preset ids it is for; empty: the family fallback for its kind.
   */
  hardware: Text[];
  /**
   * Where the numbers come from.
   */
  source: Text;
  /**
   * The ids of the runs it was fitted on.
   */
  fitted_on: Text[];
  tiling: MatmulTiling;
  /**
   * The chip's kernel models: every op's time from its shape (the calibration's lower level).
   */
  kernels: KernelModels;
  /**
   * The end-to-end constants no kernel shows (core/specs/calibration_profile.cpp's parameter table: each in its range, the fit's bounds too).
   */
  parameters: {
    /**
     * HBM traffic of the norms, activations, residuals and loss relative to one unfused pass each (the framework's fusion). [x one pass]
     */
    elementwise_traffic: number;
    /**
     * The matrix units' rate under a training step's sustained load relative to the kernel tables' (short runs at boost clocks): between the chip's base and boost clocks. [of the tables' rate]
     */
    sustained_clock_frac: number;
    /**
     * Seconds of host launch and synchronisation gap per kernel of a training step, beyond the kernel's own floor. [s]
     */
    op_overhead_s: number;
    /**
     * Fraction of the DCN / InfiniBand bandwidth that collectives achieve (no public table measures scale-out). [of peak]
     */
    slow_link_frac: number;
    /**
     * Seconds of latency per step of a layer's gradient ring all-reduce across slices (2 (S - 1) steps for S). [s]
     */
    dcn_latency_s: number;
    /**
     * Fraction of the cross-slice gradient reduction left after the backward pass (scheduled once it ends). [fraction]
     */
    dcn_exposed_frac: number;
    /**
     * Fraction of the computation that can hide FSDP gathers, gradient reductions and DCN all-reduces. [fraction]
     */
    overlap_frac: number;
    /**
     * Fraction of a layer's matmuls that can hide its tensor-parallel, expert all-to-all and pipeline transfers. [fraction]
     */
    tp_overlap_frac: number;
    /**
     * Seconds per step outside the layers (data loading, launch, logging, the optimizer's kernel launches). [s]
     */
    step_overhead_s: number;
    /**
     * HBM traffic of the MoE permutations (gathers and scatters of the token copies) relative to one pass each. [x one pass]
     */
    routing_traffic: number;
    /**
     * Fraction of an MoE layer's compute that hides its dispatch and combine when the framework overlaps them. [fraction]
     */
    expert_overlap_frac: number;
    /**
     * Seconds of host gap per op of a layer in a serving step, beyond the kernel's own floor (0 under CUDA graphs). [s]
     */
    decode_op_overhead_s: number;
    /**
     * Seconds per decode step outside the layers (host dispatch, sampling, the scheduler). [s]
     */
    decode_step_overhead_s: number;
  };
  /**
   * The out-of-sample error per task.
   */
  error_bands: {
    training?: ErrorBand;
    serving?: ErrorBand;
  };
  /**
   * Per task, the span of the runs it was fitted on (the calibrate query writes it) [absent: no scope check].
   */
  fitted_scope?: {
    training?: FittedScope;
    serving?: FittedScope;
  };
  /**
   * What the fit left per run (kept as written, not read).
   */
  residuals?: {
    [k: string]: unknown;
  };
  /**
   * Anything a reader must know (not read).
   */
  notes?: {
    [k: string]: unknown;
  };
};
/**
 * The kernels' matmul tile and how many run at once (one wave).
 */
export type MatmulTiling = {
  /**
   * Tile rows.
   */
  tile_m: number;
  /**
   * Tile columns.
   */
  tile_n: number;
  /**
   * Tile depth.
   */
  tile_k: number;
  /**
   * Tiles that run at once (one wave). [tiles]
   */
  parallel_tiles: number;
};
/**
 * A chip's kernel models (core/specs/kernel_models.cpp kernel_parameters(): every constant required, each in its range): each op's time from its shape, fitted to measured kernel tables or, for a chip without them, to end-to-end runs.
 */
export type KernelModels = {
  source: KernelSource;
  /**
   * Dense GEMMs by how the operands are stored: bf16, fp8 (or int8) with a scale per tensor, fp8 with block scales, 4-bit floats with block scales.
   */
  gemm: {
    bf16: GemmModel;
    fp8: GemmModel;
    fp8_block: GemmModel;
    fp4: GemmModel;
  };
  /**
   * The fused MoE kernel's grouped GEMMs, by the experts' storage format.
   */
  moe: {
    bf16: MoeModel;
    fp8: MoeModel;
    fp8_block: MoeModel;
    fp4: MoeModel;
  };
  prefill_attention: FlashAttentionModel;
  decode_attention: DecodeAttentionModel;
  /**
   * NCCL's four collectives and the serving engines' one-shot all-reduce for small tensor-parallel messages.
   */
  collective: {
    all_gather: CollectiveModel;
    reduce_scatter: CollectiveModel;
    all_reduce: CollectiveModel;
    all_to_all: CollectiveModel;
    custom_all_reduce: CollectiveModel;
  };
  /**
   * Memory-bound kernels.
   */
  memory: {
    /**
     * Fraction of the HBM bandwidth elementwise kernels stream at. [of peak]
     */
    stream_hbm_frac: number;
  };
};
/**
 * Where the kernel constants come from: the measured tables (repository, commit, one line per table fitted), or, with no repository, end-to-end runs.
 */
export type KernelSource = {
  /**
   * The repository of the measured kernel tables ("owner/name") [empty: fitted on end-to-end runs].
   */
  repository?: Text;
  /**
   * The tables' commit in that repository.
   */
  commit?: Text;
  /**
   * The tables' licence.
   */
  licence?: Text;
  /**
   * One line per table fitted: op, backend and release, path, rows sampled of the upstream rows.
   */
  tables?: string[];
  /**
   * The models without a table on this chip ("moe/fp4", "decode_attention"): they hold the chip family's constants.
   */
  unfitted?: string[];
  /**
   * Anything a reader must know about the constants.
   */
  note?: Text;
};
/**
 * One GEMM kind's model: time = launch + max(compute at the ceiling with the half-rate ramp, operands at the HBM share) + input passes.
 */
export type GemmModel = {
  /**
   * Fraction of the dtype's peak that large, well-tiled GEMMs reach. [of peak]
   */
  ceiling_frac: number;
  /**
   * FLOPs at which a GEMM reaches half its ceiling (fill, tail, epilogue). [FLOPs]
   */
  half_rate_flops: number;
  /**
   * Fraction of the HBM bandwidth a GEMM streams its operands at (GEMV-like shapes). [of peak]
   */
  hbm_frac: number;
  /**
   * Seconds a GEMM takes at the least: launch, and any fixed-size kernel run with it. [s]
   */
  launch_s: number;
  /**
   * Passes over the bf16 input a serving engine runs to quantise it for the GEMM (3 bytes an element). [passes]
   */
  input_passes: number;
};
/**
 * One storage format's fused MoE kernel: the GEMM model over the experts' grouped GEMMs.
 */
export type MoeModel = {
  /**
   * Fraction of the dtype's peak that the MoE experts' grouped GEMMs reach. [of peak]
   */
  ceiling_frac: number;
  /**
   * FLOPs at which one expert's GEMM reaches half the ceiling. [FLOPs]
   */
  half_rate_flops: number;
  /**
   * Fraction of the HBM bandwidth the MoE kernel loads expert weights and token copies at. [of peak]
   */
  hbm_frac: number;
  /**
   * Seconds an MoE layer's expert kernels take at the least (routing, permutations, launches). [s]
   */
  launch_s: number;
  /**
   * Passes over the routed token copies the fused MoE kernel runs (permute, quantise, unpermute; 3 bytes). [passes]
   */
  input_passes: number;
};
/**
 * Flash attention over whole sequences (training, prefill), and the QKV preprocessing of serving engines.
 */
export type FlashAttentionModel = {
  /**
   * Fraction of the bf16 peak flash attention's matmuls reach. [of peak]
   */
  ceiling_frac: number;
  /**
   * The softmax's work per score in head-dimension units (MMA-equivalent). [head dimensions]
   */
  softmax_head_dim: number;
  /**
   * MMA-equivalent FLOPs per 128-query tile (load Q, write O and its statistics). [FLOPs]
   */
  tile_overhead_flops: number;
  /**
   * Fraction of the HBM bandwidth of the fused QKV preprocessing (rotary, KV-cache write) of serving engines. [of peak]
   */
  preprocess_hbm_frac: number;
  /**
   * Key blocks of 128 a query tile under a causal sliding window visits beyond its mean keys. [key blocks]
   */
  window_blocks: number;
  /**
   * Seconds a prefill attention op takes at the least. [s]
   */
  launch_s: number;
  /**
   * Fraction of the fp8 peak an fp8 flash attention's matmuls reach. [of peak]
   */
  fp8_ceiling_frac: number;
  /**
   * Passes over the queries, keys and values (3 bytes an element) that a prefill with an fp8 KV cache runs to quantise them. [passes]
   */
  fp8_kv_passes: number;
  /**
   * The backward kernel's rate relative to the forward's. [x the forward rate]
   */
  backward_frac: number;
  mla: LatentFlashAttentionModel;
};
/**
 * Latent attention's (MLA) prefill kernels: the standard model's constants, fitted to their own tables.
 */
export type LatentFlashAttentionModel = {
  /**
   * Fraction of the bf16 peak flash attention's matmuls reach. [of peak]
   */
  ceiling_frac: number;
  /**
   * The softmax's work per score in head-dimension units (MMA-equivalent). [head dimensions]
   */
  softmax_head_dim: number;
  /**
   * MMA-equivalent FLOPs per 128-query tile (load Q, write O and its statistics). [FLOPs]
   */
  tile_overhead_flops: number;
  /**
   * Fraction of the HBM bandwidth of the fused QKV preprocessing (rotary, KV-cache write) of serving engines. [of peak]
   */
  preprocess_hbm_frac: number;
  /**
   * Seconds a prefill attention op takes at the least. [s]
   */
  launch_s: number;
  /**
   * Fraction of the fp8 peak an fp8 flash attention's matmuls reach. [of peak]
   */
  fp8_ceiling_frac: number;
  /**
   * Passes over the queries, keys and values (3 bytes an element) that a prefill with an fp8 KV cache runs to quantise them. [passes]
   */
  fp8_kv_passes: number;
};
/**
 * Decode attention (flash-decoding) of new tokens against the KV cache.
 */
export type DecodeAttentionModel = {
  /**
   * Fraction of the HBM bandwidth decode attention reads a bf16 KV cache at. [of peak]
   */
  hbm_frac: number;
  /**
   * Fraction of the HBM bandwidth decode attention reads an fp8 KV cache at (dequantised in the kernel). [of peak]
   */
  fp8_kv_hbm_frac: number;
  /**
   * Bytes-equivalent of fixed work per (sequence, KV head) (the ramp of short contexts). [bytes]
   */
  split_bytes: number;
  /**
   * Seconds per sequence of a decode step's attention (scheduling, the split partials' reduction). [s]
   */
  sequence_s: number;
  /**
   * Fraction of the bf16 peak decode attention computes its scores at. [of peak]
   */
  ceiling_frac: number;
  /**
   * Seconds a decode attention op takes at the least. [s]
   */
  launch_s: number;
  mla: LatentDecodeAttentionModel;
};
/**
 * Latent attention's (MLA, absorbed) decode kernels, one latent head of r + r_rope values: the standard model's constants, fitted to their own tables.
 */
export type LatentDecodeAttentionModel = {
  /**
   * Fraction of the HBM bandwidth decode attention reads a bf16 KV cache at. [of peak]
   */
  hbm_frac: number;
  /**
   * Fraction of the HBM bandwidth decode attention reads an fp8 KV cache at (dequantised in the kernel). [of peak]
   */
  fp8_kv_hbm_frac: number;
  /**
   * Bytes-equivalent of fixed work per (sequence, KV head) (the ramp of short contexts). [bytes]
   */
  split_bytes: number;
  /**
   * Seconds per sequence of a decode step's attention (scheduling, the split partials' reduction). [s]
   */
  sequence_s: number;
  /**
   * Fraction of the bf16 peak decode attention computes its scores at. [of peak]
   */
  ceiling_frac: number;
  /**
   * Seconds a decode attention op takes at the least. [s]
   */
  launch_s: number;
};
/**
 * One collective within an NVLink domain (ICI on TPUs): the faster of a bandwidth and a low-latency protocol, each a latency and a share of the links.
 */
export type CollectiveModel = {
  /**
   * Fraction of the NVLink (ICI) bandwidth the collective achieves, in the book's cost (scaling-book/sharding and /gpus, collective costs). [of peak]
   */
  link_frac: number;
  /**
   * Seconds of software latency of the bandwidth protocol beyond the preset's hop or ring latency. [s]
   */
  latency_s: number;
  /**
   * Fraction of the links the low-latency protocol achieves. [of peak]
   */
  low_latency_link_frac: number;
  /**
   * Seconds of software latency of the low-latency protocol. [s]
   */
  low_latency_s: number;
  /**
   * A group of N GPUs achieves N / (N + span_penalty) of the link share (fewer channels for small groups). [GPUs]
   */
  span_penalty: number;
};
/**
 * The out-of-sample error measured for one task.
 */
export type ErrorBand = {
  /**
   * Runs the band was measured on. [runs]
   */
  runs: number;
  /**
   * Median absolute error. [of the measured value]
   */
  median_frac: number;
  /**
   * 90th percentile of the absolute error (nearest rank). [of the measured value]
   */
  p90_frac: number;
  /**
   * Largest absolute error. [of the measured value]
   */
  max_frac: number;
  /**
   * Median signed error (negative: optimistic). [of the measured value]
   */
  signed_median_frac: number;
  /**
   * How it was measured: the chip's held runs, each chip of a family held out whole, or each fit run left out in turn [held for a chip, chip_held_out for a family].
   */
  method?: 'held' | 'chip_held_out' | 'left_out_in_turn';
};
/**
 * The span of the runs a profile was fitted on for one task.
 */
export type FittedScope = {
  /**
   * [min, max] chips of the fit runs. [chips]
   */
  chips: number[];
  /**
   * [min, max] sequence (training) or KV context (serving) of the fit runs. [tokens]
   */
  seq_len: number[];
  /**
   * The architectures among the fit runs.
   */
  architectures: ('dense' | 'moe')[];
  /**
   * The widest expert group among the fit runs. [expert ranks]
   */
  max_expert_degree: number;
  /**
   * Some fit run had its TP group span more than one GPU NVLink domain [absent: not checked].
   */
  tensor_across_domains?: boolean;
  /**
   * Some fit run had its EP group span more than one GPU NVLink domain [absent: not checked].
   */
  expert_across_domains?: boolean;
  /**
   * Training: the matmul precisions of the fit runs.
   */
  matmul?: Text[];
};
/**
 * A serving engine's runtime fitted on its measured deployments (calibration_profiles/serving/backends.json).
 */
export type ServingBackend = {
  /**
   * The backend.
   */
  id: string;
  /**
   * Its name.
   */
  name: string;
  /**
   * The kernels' launch floors and per-op host gaps kept.
   */
  launch_frac: number;
  /**
   * The tensor-parallel all-reduces' time kept.
   */
  comms_frac: number;
  /**
   * Host work per decode step. [s]
   */
  step_overhead_s: number;
  /**
   * The share of a step's prefill the decode tokens wait for.
   */
  prefill_stall_frac: number;
  /**
   * Per request before its prefill (the front end). [s]
   */
  request_overhead_s: number;
  /**
   * The in-flight requests whose prompts arrive with a new one.
   */
  burst_frac: number;
  /**
   * With attention data parallelism, the decode steps the gate admitting new prompts stays shut. [steps]
   */
  dp_gate_steps: number;
  /**
   * What it was fitted on.
   */
  source: string;
  /**
   * The systems of its fit rows.
   */
  fitted_on_systems: string[];
  /**
   * The models of its fit rows.
   */
  fitted_on_models: string[];
};
export type Answer = {
  /**
   * No errors: the result is there.
   */
  ok: boolean;
  /**
   * The query kind answered (absent when the kind could not be read).
   */
  query?:
    | 'summary'
    | 'chip'
    | 'roofline'
    | 'matmul'
    | 'topology'
    | 'transfer'
    | 'collective'
    | 'array'
    | 'sharded_matmul'
    | 'transformer'
    | 'model'
    | 'utilization'
    | 'bounds'
    | 'training_step'
    | 'serving'
    | 'mlp_roofline'
    | 'plan_search'
    | 'serving_search'
    | 'plan_mesh'
    | 'profile'
    | 'nearest_fit'
    | 'launch_config'
    | 'import_config'
    | 'validation'
    | 'calibrate'
    | 'kernel_fit'
    | 'kernel_family';
  /**
   * The query's result (one file each in schema/results/).
   */
  result?: {
    /**
     * Which model made the numbers.
     */
    fidelity: Fidelity;
  };
  /**
   * Every problem at once (errors drop the result; warnings keep it).
   */
  diagnostics: Diagnostic[];
  /**
   * The engine's version.
   */
  engine_version: string;
};
/**
 * A factor of a mesh axis (a logical axis): size chips of axis, stride chips apart.
 */
export type SubAxis = {
  /**
   * The mesh axis it is a factor of.
   */
  axis: MeshAxisName;
  /**
   * Chips in the sub-axis; divides the axis. [chips]
   */
  size: number;
  /**
   * Its place: 1 = innermost, else the product of the factors inside it [the engine tries both orders]. [chips]
   */
  stride?: number;
};
/**
 * Fractions of peak the engine derates by [1.0 each: the book's ideal].
 */
export type Efficiency = {
  /**
   * Achieved fraction of the chip's peak FLOP/s. [of peak]
   */
  flops_frac?: number;
  /**
   * Achieved fraction of the HBM bandwidth. [of peak]
   */
  hbm_frac?: number;
  /**
   * Achieved fraction of the links' bandwidth. [of peak]
   */
  network_frac?: number;
};
/**
 * A count per name.
 */
export type CountsByName = {
  [k: string]: number;
};
/**
 * Every field a chip may have; which are required is HardwareChip's.
 */
export type HardwareFields = {
  /**
   * The preset format's version.
   */
  schema?: 'scalescope.hardware/1';
  /**
   * The preset id: the file name without .json.
   */
  id?: Text;
  /**
   * Display name, e.g. TPU v5e.
   */
  name?: Text;
  /**
   * Google, NVIDIA, AMD.
   */
  vendor?: Text;
  /**
   * A TPU (torus interconnect) or a GPU (NVLink domain and fat tree).
   */
  kind?: 'tpu' | 'gpu';
  /**
   * Dense peak per dtype the matrix units run (bf16 required). [FLOP/s]
   */
  peak_flops_per_s?: {
    fp32?: PeakFlops;
    bf16?: PeakFlops;
    fp8?: PeakFlops;
    int8?: PeakFlops;
    int4?: PeakFlops;
    fp4?: PeakFlops;
  };
  /**
   * HBM per chip. [bytes]
   */
  hbm_capacity_bytes?: number;
  /**
   * HBM bandwidth per chip. [bytes/s]
   */
  hbm_bandwidth_bytes_per_s?: number;
  /**
   * TPU VMEM; GPU L2 per chip. [bytes]
   */
  on_chip_memory_bytes?: number;
  /**
   * VMEM to MXU (TPU) or L2 (GPU) bandwidth. [bytes/s]
   */
  on_chip_bandwidth_bytes_per_s?: number;
  /**
   * Tensor Cores or MXUs per chip. [units]
   */
  matrix_units?: number;
  /**
   * The clock the matrix units' peak assumes. [Hz]
   */
  clock_hz?: number;
  /**
   * fp32 vector lanes: CUDA cores or VPU ALUs. [lanes]
   */
  vector_lanes?: number;
  /**
   * fp32 vector (non-matrix) throughput. [FLOP/s]
   */
  vector_flops_per_s?: number;
  /**
   * One matrix unit's dense bf16 multiply-adds per cycle. [MACs per cycle]
   */
  matrix_unit_macs_per_cycle?: number;
  /**
   * GPU: streaming multiprocessors. [SMs]
   */
  sm_count?: number;
  /**
   * GPU: shared memory per SM. [bytes]
   */
  smem_bytes_per_sm?: number;
  /**
   * GPU: register file per SM. [bytes]
   */
  register_bytes_per_sm?: number;
  /**
   * TPU: vector registers per TensorCore. [bytes]
   */
  vector_register_bytes_per_core?: number;
  /**
   * Host to HBM, one way, per chip. [bytes/s]
   */
  host_pcie_unidir_bytes_per_s?: number;
  /**
   * TPU: data-centre network egress per chip. [bytes/s]
   */
  dcn_unidir_bytes_per_s_per_chip?: number;
  /**
   * On-demand list price. [USD per chip-hour]
   */
  price_usd_per_chip_hour?: number;
  /**
   * YYYY-MM of that price.
   */
  price_date?: Text;
  /**
   * TPU: the inter-chip interconnect (a torus).
   */
  ici?: {
    /**
     * Torus dimensions (2 or 3). [axes]
     */
    torus_dims?: number;
    /**
     * The largest slice, per axis. [chips]
     */
    max_slice_shape?: number[];
    /**
     * Chips per host as a shape. [chips]
     */
    host_shape?: number[];
    /**
     * TensorCores per chip. [cores]
     */
    cores_per_chip?: number;
    /**
     * One-way bandwidth of one link. [bytes/s]
     */
    link_unidir_bytes_per_s?: number;
    /**
     * Neighbours per chip (4 on a 2D torus, 6 on 3D). [links]
     */
    links_per_chip?: number;
    /**
     * An axis wraps when its size is a multiple of this. [chips]
     */
    wraparound_axis_multiple?: number;
    /**
     * whole_cubes: every axis wraps when all are multiples; per_axis: each axis on its own.
     */
    wraparound_rule?: 'whole_cubes' | 'per_axis';
    /**
     * Per-hop latency (the book's T_min). [s]
     */
    hop_latency_s?: number;
  };
  /**
   * GPU: the NVLink (or Infinity Fabric) domain.
   */
  scale_up?: {
    /**
     * GPUs in one switched domain. [GPUs]
     */
    domain_gpus?: number;
    /**
     * One-way egress per GPU into the domain. [bytes/s]
     */
    gpu_unidir_bytes_per_s?: number;
    /**
     * NVLink SHARP available.
     */
    in_network_reduction?: boolean;
    /**
     * NVSwitches in the domain. [switches]
     */
    switches?: number;
    /**
     * NVLink ports per switch. [ports]
     */
    switch_ports?: number;
    /**
     * NVLink links per GPU. [links]
     */
    links_per_gpu?: number;
    /**
     * One link's one-way bandwidth. [bytes/s]
     */
    link_unidir_bytes_per_s?: number;
    /**
     * Latency every collective pays before its first step [0]. [s]
     */
    launch_latency_s?: number;
    /**
     * One ring step (inside the domain, or between domains over the network) [0]. [s]
     */
    step_latency_s?: number;
  };
  /**
   * GPU: the InfiniBand or RoCE fat tree above the domains.
   */
  scale_out?: {
    /**
     * One-way scale-out bandwidth per GPU. [bytes/s]
     */
    nic_unidir_bytes_per_s_per_gpu?: number;
    /**
     * Children per parent at each level above the domain. [children]
     */
    fat_tree_fanouts?: number[];
    /**
     * A name per level, e.g. leaf, spine.
     */
    fat_tree_level_names?: string[];
    /**
     * One ring step (inside the domain, or between domains over the network) [0]. [s]
     */
    step_latency_s?: number;
  };
  /**
   * What a reader must know about the numbers.
   */
  notes?: string[];
  /**
   * JSON pointer to text, where the kept value differs from a datasheet's.
   */
  datasheet_differences?: {
    [k: string]: string;
  };
  /**
   * JSON pointer of every number in the file to its citation.
   */
  sources?: {
    [k: string]: string;
  };
};
/**
 * A hardware preset by id, with any field replaced.
 */
export type HardwarePresetRef = {
  /**
   * A hardware preset id: tpu-v4p, tpu-v5e, tpu-v5p, tpu-v6e, tpu7x, a100-80gb, h100-sxm, h800, h200, b200, gb200-nvl72, b300, gb300-nvl72, mi300x, mi325x, mi355x.
   */
  preset: Text;
  overrides?: HardwareOverrides;
};
/**
 * One op's measured kernels: each row a shape and its time, in the order of `columns`.
 */
export type KernelTable = {
  /**
   * The op measured; the columns it needs besides latency_s: gemm dtype, m, n, k; moe dtype, tokens, hidden, inter, topk, experts, tp, ep, gated; context_attention batch, seq_len, heads, kv_heads, head_dim, window, dtype, kv_dtype; generation_attention batch, kv_len, heads, kv_heads, head_dim, window, kv_dtype; context_mla batch, seq_len, heads, kv_dtype; generation_mla batch, kv_len, heads, kv_dtype; nccl collective, gpus, bytes, dtype; custom_all_reduce gpus, bytes.
   */
  op:
    | 'gemm'
    | 'moe'
    | 'context_attention'
    | 'generation_attention'
    | 'context_mla'
    | 'generation_mla'
    | 'nccl'
    | 'custom_all_reduce';
  /**
   * The table's file in the repository.
   */
  path: Text;
  /**
   * The backend that ran the kernels (trtllm, nccl, ...).
   */
  backend: Text;
  /**
   * The backend's release.
   */
  version: Text;
  /**
   * The rows of the upstream table these were sampled from. [rows]
   */
  upstream_rows: number;
  /**
   * The name of each row's values: the op's columns and latency_s, in any order (an unknown name makes every row invalid_value).
   */
  columns: string[];
  /**
   * The measured kernels.
   */
  rows: (number | string)[][];
};
/**
 * One chip's measured kernel tables, as the kernel_fit query and `scalescope kernels` read them (tests/kernels/<chip>.json, extracted from ai-dynamo/aiconfigurator by scripts/kernel_tables/extract.mjs): per op, the shape of each measured kernel and its time.
 */
export type KernelTables = {
  /**
   * The file format's version, "scalescope.kernel_tables/1" (kept as written, not read).
   */
  schema?: {
    [k: string]: unknown;
  };
  /**
   * The hardware preset id of the chip the tables were measured on (the scenario's hardware).
   */
  hardware: Text;
  /**
   * Where the tables come from.
   */
  source: {
    /**
     * The repository ("owner/name").
     */
    repository: Text;
    /**
     * The commit the tables were read at.
     */
    commit: Text;
    /**
     * The tables' licence.
     */
    licence: Text;
    /**
     * The repository's name for the system (kept as written, not read).
     */
    system?: {
      [k: string]: unknown;
    };
    /**
     * How the rows were measured and sampled (kept as written, not read).
     */
    note?: {
      [k: string]: unknown;
    };
  };
  /**
   * One table per op and backend release.
   */
  tables: KernelTable[];
};
/**
 * Every field a model may have (the book's L, D, F, N, K, H, V and the MoE counts); which are required is ModelDefinition's.
 */
export type ModelFields = {
  /**
   * The preset format's version.
   */
  schema?: 'scalescope.model/1';
  /**
   * The preset id: the file name without .json.
   */
  id?: Text;
  /**
   * Display name, e.g. LLaMA-3 70B.
   */
  name?: Text;
  /**
   * Transformer blocks, L.
   */
  layers?: number;
  /**
   * Residual width, D.
   */
  d_model?: number;
  /**
   * MLP width of a dense layer, F.
   */
  d_ff?: number;
  /**
   * Query heads, N.
   */
  heads?: number;
  /**
   * Key-value heads, K (not with mla).
   */
  kv_heads?: number;
  /**
   * Head width, H (not with mla).
   */
  head_dim?: number;
  /**
   * Vocabulary, V. [tokens]
   */
  vocab?: number;
  /**
   * The input embedding shares the unembedding matrix.
   */
  tied_embeddings?: boolean;
  /**
   * gated (3 matrices, SwiGLU) or plain (2 matrices).
   */
  mlp?: 'gated' | 'plain';
  /**
   * Routed experts per MoE layer; 0 for a dense model.
   */
  experts?: number;
  /**
   * Routed experts per token, k; 0 for a dense model.
   */
  active_experts?: number;
  /**
   * Always-on experts per MoE layer.
   */
  shared_experts?: number;
  /**
   * MLP width of one expert (an MoE model).
   */
  expert_d_ff?: number;
  /**
   * Latent MoE (Nemotron 3): the width routed experts read and write, projected from and back to d_model around them; 0: none.
   */
  expert_latent_dim?: number;
  /**
   * Leading dense layers of an MoE model. [layers]
   */
  dense_layers?: number;
  /**
   * The model re-shaped after every other field, as the explorer's model sliders do (docs/api.md "Re-shaping a model"): first D, then the MLP's width, then the whole model's size. The resolved model has the new fields and no resize.
   */
  resize?: {
    /**
     * The residual width D; d_ff and expert_d_ff follow in proportion, to multiples of 64, unless ff_ratio sets them.
     */
    d_model?: number;
    /**
     * d_ff as a multiple of D (rounded to a whole width); expert_d_ff moves in the same proportion as d_ff. [x d_model]
     */
    ff_ratio?: number;
    /**
     * About this many times the parameters: layers and D each x its cube root (D and the MLP widths to multiples of 128); the query heads follow D at their own width, keeping the query heads per KV head (latent attention: in multiples of 8).
     */
    params_factor?: number;
  };
  /**
   * Multi-head latent attention (DeepSeek-V2 §2.1.2): the cache holds kv_lora_rank + qk_rope_head_dim values per token per layer.
   */
  mla?: {
    /**
     * The query's low rank; 0 for a full-rank query.
     */
    q_lora_rank?: number;
    /**
     * The cached latent's width.
     */
    kv_lora_rank?: number;
    /**
     * Query-key head width without RoPE.
     */
    qk_nope_head_dim?: number;
    /**
     * Query-key head width with RoPE.
     */
    qk_rope_head_dim?: number;
    /**
     * Value head width.
     */
    v_head_dim?: number;
  };
  /**
   * The linear-attention layers' shape (Gated DeltaNet, arXiv 2412.06464; Mamba-2, arXiv 2405.21060): each value head keeps a key_head_dim x value_head_dim state instead of a KV cache.
   */
  linear_attention?: {
    /**
     * The recurrence. Mamba-2 maps to linear attention as C to q, B to k and x to v: key_heads its groups, key_head_dim its state size, value_heads its heads. kda: Kimi Delta Attention (Kimi Linear, arXiv 2510.26692), Gated DeltaNet with a decay per key channel and low-rank gates.
     */
    kind?: 'gated_deltanet' | 'mamba2' | 'kda';
    /**
     * Query-key heads. [heads]
     */
    key_heads: number;
    /**
     * Value heads, each with its own state (a multiple of key_heads). [heads]
     */
    value_heads: number;
    /**
     * Query-key head width.
     */
    key_head_dim: number;
    /**
     * Value head width.
     */
    value_head_dim: number;
    /**
     * Taps of the causal convolution over q, k and v. [tokens]
     */
    conv_kernel: number;
    /**
     * Tokens per chunk of the chunked kernel (prefill, training) [64 Gated DeltaNet, 256 Mamba-2]. [tokens]
     */
    chunk_tokens?: number;
    /**
     * The recurrent state's dtype.
     */
    state_dtype?: Dtype & string;
  };
  /**
   * Gemma 4: the full-attention layers' own head shape beside the sliding layers' (head_dim, kv_heads).
   */
  global_attention?: {
    /**
     * The full layers' head width.
     */
    head_dim: number;
    /**
     * The full layers' KV heads.
     */
    kv_heads: number;
    /**
     * V is K's projection (no V weights); the cache keeps both.
     */
    k_eq_v?: boolean;
  };
  /**
   * DeepSeek Sparse Attention (DeepSeek-V3.2-Exp): a lightning indexer scores every cached token and each query attends to its index_topk best; the full-attention layers keep an fp8 index key per token beside their cache.
   */
  sparse_attention?: {
    /**
     * The indexer's heads. [heads]
     */
    index_heads: number;
    /**
     * The indexer's head width.
     */
    index_head_dim: number;
    /**
     * Keys each query attends to. [tokens]
     */
    index_topk: number;
  };
  /**
   * Softmax attention gates its output by a sigmoid of a second query-sized projection (Qwen3-Next, Qwen3.5).
   */
  attention_output_gate?: boolean;
  /**
   * Each layer's MLP as a cycle from layer 0 (the first dense_layers are dense where it says moe); none: the layer has no MLP (Nemotron-H's mixers not followed by one).
   */
  mlp_pattern?: ('dense' | 'moe' | 'none')[];
  /**
   * Each layer's attention as a cycle from layer 0.
   */
  attention_pattern?: ('full' | 'sliding' | 'chunked' | 'linear')[];
  /**
   * Tokens a sliding-window layer attends to and caches. [tokens]
   */
  sliding_window?: number;
  /**
   * Tokens per chunk of a chunked-attention layer. [tokens]
   */
  attention_chunk?: number;
  /**
   * The dtype the published checkpoint stores its weights in: a serving query's weights dtype when it gives none (bf16 if left out).
   */
  weights_dtype?: Dtype;
  /**
   * Multi-token prediction modules (outside the parameter total). [layers]
   */
  mtp_layers?: number;
  /**
   * What the engine's formulas leave out for this model.
   */
  not_modelled?: string[];
  /**
   * Anything a reader must know.
   */
  notes?: string[];
  /**
   * JSON pointer of every number to its citation.
   */
  sources?: {
    [k: string]: string;
  };
};
/**
 * A model preset by id, with any field replaced.
 */
export type ModelPresetRef = {
  /**
   * A model preset id: llama-3-8b, llama-3-70b, llama-3-405b, llama-2-13b, gpt-3-175b, mixtral-8x7b, deepseek-v3, kimi-k2, qwen3-235b-a22b, qwen3-30b-a3b, qwen3-32b, gpt-oss-120b, gpt-oss-20b, llama-4-scout, llama-4-maverick, gemma-2-27b, gemma-3-27b, qwen3.5-397b-a17b, deepseek-v3.2, glm-5, kimi-k2.5, minimax-m2.5, gemma-4-26b-a4b, gemma-4-31b, nemotron-3-super-120b-a12b, nemotron-3-nano-30b-a3b, inference-18b.
   */
  preset: Text;
  overrides?: ModelOverrides;
};
/**
 * A Hugging Face config.json as the model (docs/api.md "A Hugging Face config.json as the model").
 */
export type HfModelRef = {
  hf_config: HfConfig;
  overrides?: ModelOverrides;
  /**
   * The model's display name [the config's model_type].
   */
  name?: Text;
};
/**
 * A Hugging Face config.json (a multimodal one keeps the language model in text_config), read by its model_type's rules (core/specs/hf_config.h). Keys that change nothing the book models are accepted; the engine names any other key (unknown_key), so more keys are allowed here than it reads.
 */
export type HfConfig = {
  /**
   * The family (gemma3, llama4, qwen3_5_moe and qwen3_5: a multimodal config whose text_config holds the language model).
   */
  model_type?:
    | 'llama'
    | 'mistral'
    | 'qwen2'
    | 'qwen3'
    | 'gemma'
    | 'gemma2'
    | 'gemma3_text'
    | 'gemma3'
    | 'mixtral'
    | 'qwen2_moe'
    | 'qwen3_moe'
    | 'deepseek_v2'
    | 'deepseek_v3'
    | 'kimi_k2'
    | 'llama4_text'
    | 'llama4'
    | 'gpt_oss'
    | 'qwen3_next'
    | 'qwen3_5_moe_text'
    | 'qwen3_5_text'
    | 'qwen3_5_moe'
    | 'qwen3_5'
    | 'deepseek_v32'
    | 'glm_moe_dsa'
    | 'minimax_m2'
    | 'gemma4_text'
    | 'gemma4'
    | 'nemotron_h'
    | 'kimi_linear';
  /**
   * A multimodal config's language model (Gemma 3, Llama 4).
   */
  text_config?: {};
  /**
   * L.
   */
  num_hidden_layers?: HfCount;
  /**
   * D.
   */
  hidden_size?: HfCount;
  /**
   * F (Llama 4: one expert's).
   */
  intermediate_size?: HfCount;
  /**
   * Llama 4: the dense layers' F.
   */
  intermediate_size_mlp?: HfCount;
  /**
   * N.
   */
  num_attention_heads?: HfCount;
  /**
   * K [N].
   */
  num_key_value_heads?: HfCount;
  /**
   * H [D/N].
   */
  head_dim?: HfCount;
  /**
   * V.
   */
  vocab_size?: HfCount;
  /**
   * [the family's]
   */
  tie_word_embeddings?: boolean | null;
  /**
   * MLA: the query's low rank (0: full rank).
   */
  q_lora_rank?: HfCountOrZero;
  /**
   * MLA: the cached latent's width.
   */
  kv_lora_rank?: HfCount;
  /**
   * MLA: query-key width without RoPE.
   */
  qk_nope_head_dim?: HfCountOrZero;
  /**
   * MLA: query-key width with RoPE.
   */
  qk_rope_head_dim?: HfCountOrZero;
  /**
   * MLA: value head width.
   */
  v_head_dim?: HfCount;
  /**
   * Routed experts (Mixtral, Llama 4, gpt-oss).
   */
  num_local_experts?: HfCount;
  /**
   * Routed experts (Qwen).
   */
  num_experts?: HfCount;
  /**
   * Routed experts (DeepSeek).
   */
  n_routed_experts?: HfCount;
  /**
   * DeepSeek: shared experts.
   */
  n_shared_experts?: HfCountOrZero;
  /**
   * One expert's MLP width.
   */
  moe_intermediate_size?: HfCount;
  /**
   * Qwen: the shared expert's MLP width.
   */
  shared_expert_intermediate_size?: HfCountOrZero;
  /**
   * Experts each token is routed to (k).
   */
  num_experts_per_tok?: HfCount;
  /**
   * gpt-oss: experts each token is routed to (k).
   */
  experts_per_token?: HfCount;
  /**
   * DeepSeek: leading dense layers.
   */
  first_k_dense_replace?: HfCountOrZero;
  /**
   * DeepSeek: MoE on every this-many layers.
   */
  moe_layer_freq?: HfCount;
  /**
   * Qwen: MoE on every this-many layers.
   */
  decoder_sparse_step?: HfCount;
  /**
   * Qwen: the dense layers' indices.
   */
  mlp_only_layers?: number[] | null;
  /**
   * Llama 4: MoE on every this-many layers.
   */
  interleave_moe_layer_step?: HfCount;
  /**
   * Llama 4: the MoE layers' indices.
   */
  moe_layers?: number[] | null;
  /**
   * Each layer's attention (gpt-oss, Qwen3-Next, Qwen3.5 and others).
   */
  layer_types?: ('full_attention' | 'sliding_attention' | 'chunked_attention' | 'linear_attention')[] | null;
  /**
   * Qwen3-Next, Qwen3.5: one full-attention layer in this many, the others Gated DeltaNet (without layer_types).
   */
  full_attention_interval?: HfCount;
  /**
   * Gated DeltaNet: query-key heads.
   */
  linear_num_key_heads?: HfCount;
  /**
   * Gated DeltaNet: value heads.
   */
  linear_num_value_heads?: HfCount;
  /**
   * Gated DeltaNet: query-key head width.
   */
  linear_key_head_dim?: HfCount;
  /**
   * Gated DeltaNet: value head width.
   */
  linear_value_head_dim?: HfCount;
  /**
   * Gated DeltaNet: causal convolution taps.
   */
  linear_conv_kernel_dim?: HfCount;
  /**
   * Gated DeltaNet: the recurrent state's dtype [float32].
   */
  mamba_ssm_dtype?: 'float32' | 'bfloat16' | 'float16' | null;
  /**
   * Qwen3.5: softmax attention gates its output [true].
   */
  attn_output_gate?: boolean | null;
  /**
   * DeepSeek-V3.2, GLM-5: the sparse attention indexer's heads.
   */
  index_n_heads?: HfCount;
  /**
   * DeepSeek-V3.2, GLM-5: the indexer's head width.
   */
  index_head_dim?: HfCount;
  /**
   * DeepSeek-V3.2, GLM-5: keys each query attends to.
   */
  index_topk?: HfCount;
  /**
   * Gemma 4: the full-attention layers' head width.
   */
  global_head_dim?: HfCount;
  /**
   * Gemma 4: the full-attention layers' KV heads.
   */
  num_global_key_value_heads?: HfCount;
  /**
   * Gemma 4: the full layers' V is their K projection.
   */
  attention_k_eq_v?: boolean | null;
  /**
   * Gemma 4: routed experts beside the dense MLP.
   */
  enable_moe_block?: boolean | null;
  /**
   * Gemma 4: experts each token is routed to (k).
   */
  top_k_experts?: HfCount;
  /**
   * Gemma: layers reusing another's KV (not modelled; 0 only).
   */
  num_kv_shared_layers?: HfCountOrZero;
  /**
   * MiniMax-M2: multi-token prediction modules (with use_mtp).
   */
  num_mtp_modules?: HfCountOrZero;
  /**
   * MiniMax-M2: layers per prediction module [1].
   */
  mtp_transformer_layers?: HfCountOrZero;
  /**
   * MiniMax-M2: whether the prediction modules are used.
   */
  use_mtp?: boolean | null;
  /**
   * Nemotron-H: one character a block, M (Mamba-2), * (attention), E (MoE), - (MLP); as many as num_hidden_layers.
   */
  hybrid_override_pattern?: string;
  /**
   * Nemotron 3: the blocks by name, in place of hybrid_override_pattern.
   */
  layers_block_type?: ('mamba' | 'attention' | 'moe' | 'mlp')[];
  /**
   * Nemotron-H: Mamba-2 heads.
   */
  mamba_num_heads?: HfCount;
  /**
   * Nemotron-H: the attention blocks' head width, where head_dim is absent.
   */
  attention_head_dim?: HfCount;
  /**
   * Nemotron-H: Mamba-2 head width.
   */
  mamba_head_dim?: HfCount;
  /**
   * Nemotron-H: Mamba-2 state size per head (d_state).
   */
  ssm_state_size?: HfCount;
  /**
   * Nemotron-H: Mamba-2's B and C groups.
   */
  n_groups?: HfCount;
  /**
   * Nemotron-H: Mamba-2's convolution taps.
   */
  conv_kernel?: HfCount;
  /**
   * Nemotron-H: Mamba-2's scan chunk in tokens.
   */
  chunk_size?: HfCount;
  /**
   * Nemotron-H: the Mamba-2 state's dtype [float32].
   */
  mamba_ssm_cache_dtype?: 'float32' | 'bfloat16' | 'float16' | null;
  /**
   * Nemotron 3: the routed experts' latent width (LatentMoE).
   */
  moe_latent_size?: HfCountOrZero;
  /**
   * Nemotron-H: the shared expert's width.
   */
  moe_shared_expert_intermediate_size?: HfCountOrZero;
  /**
   * MiniMax-M2: the shared expert's width (0: none).
   */
  shared_intermediate_size?: HfCountOrZero;
  /**
   * Qwen3-Next, Qwen3.5: multi-token prediction modules.
   */
  mtp_num_hidden_layers?: HfCountOrZero;
  /**
   * The sliding window's tokens.
   */
  sliding_window?: HfCount;
  /**
   * Qwen: sliding windows from max_window_layers on.
   */
  use_sliding_window?: boolean | null;
  /**
   * Qwen: layers before the sliding windows start.
   */
  max_window_layers?: HfCountOrZero;
  /**
   * Gemma 3: one full-attention layer in this many.
   */
  sliding_window_pattern?: HfCount;
  /**
   * Llama 4: tokens per attention chunk.
   */
  attention_chunk_size?: HfCount;
  /**
   * Llama 4: 1 per layer with RoPE (chunked), 0 without (full attention).
   */
  no_rope_layers?: unknown[] | null;
  /**
   * Llama 4: every this-many layers attends fully.
   */
  no_rope_layer_interval?: HfCount;
  /**
   * DeepSeek: multi-token prediction modules.
   */
  num_nextn_predict_layers?: HfCountOrZero;
  /**
   * DeepSeek: expert groups (node-limited routing, not modelled).
   */
  n_group?: HfCount;
};
/**
 * One measured run and the scenario that predicts it.
 */
export type PublishedRun = {
  /**
   * A unique id.
   */
  id: Text;
  /**
   * The source table or framework release on one chip: held out whole by family_holdout.
   */
  family?: Text;
  /**
   * Where the measurement comes from (repository file @ commit, paper table, benchmark log).
   */
  source?: Text;
  /**
   * The chip kind [the scenario's chip].
   */
  kind?: 'tpu' | 'gpu';
  /**
   * What was measured.
   */
  task: 'training' | 'inference';
  /**
   * Seconds per optimizer step, or output tokens per second.
   */
  metric: 'step_s' | 'throughput_tok_s';
  /**
   * The measured value, in the metric's unit. [s or tokens/s]
   */
  measured: number;
  /**
   * The source does not state its recompute policy: use the lightest that fits [false].
   */
  remat_auto?: boolean;
  /**
   * Offline serving at the largest batch that fits [false].
   */
  auto_batch?: boolean;
  /**
   * Throughput counted over this many replicas [1]. [replicas]
   */
  replicas?: number;
  /**
   * Offline serving: the requests the benchmark sent, as its source states; no more sequences run at once [not stated: no cap]. [requests]
   */
  requests?: number;
  /**
   * fit: a profile may be fitted on it; held: out of sample (required by the validation query).
   */
  split?: 'fit' | 'held';
  /**
   * Why the run is predicted but never fitted on or counted in scope.
   */
  excluded?: Text;
  /**
   * A setting of the source that bears on memory per chip and that the scenario cannot express (the validation reports it beside the predicted memory).
   */
  memory_unexpressed?: Text;
  /**
   * A peak memory per chip the source measured, in bytes (GiB x 2^30 where it printed GiB). [bytes]
   */
  measured_memory_bytes?: number;
  /**
   * What the source printed for measured_memory_bytes and what it includes: peak allocated or reserved, which rank, which phase.
   */
  measured_memory_how?: Text;
  /**
   * The hardware as the source names it (documentation: kept, not read).
   */
  hw?: {
    [k: string]: unknown;
  };
  /**
   * The chip count as the source states it (documentation: kept, not read).
   */
  chips?: {
    [k: string]: unknown;
  };
  /**
   * The model as the source names it (documentation: kept, not read).
   */
  model?: {
    [k: string]: unknown;
  };
  /**
   * The plan as the source states it (documentation: kept, not read).
   */
  plan?: {
    [k: string]: unknown;
  };
  /**
   * How the measured number follows from what the source printed (documentation: kept, not read).
   */
  measured_how?: {
    [k: string]: unknown;
  };
  /**
   * What the scenario could not express, and the stand-in used (documentation: kept, not read).
   */
  approx?: {
    [k: string]: unknown;
  };
  /**
   * Notes (documentation: kept, not read).
   */
  notes?: {
    [k: string]: unknown;
  };
  /**
   * When the run was added (documentation: kept, not read).
   */
  added?: {
    [k: string]: unknown;
  };
  scenario: RunScenario;
};
/**
 * The scenario that predicts the run: a training_step or serving query on a whole plan (its other arguments are not read).
 */
export type RunScenario = {
  /**
   * The scenario format's version [1].
   */
  version?: number;
  hardware: HardwareRef;
  model: ModelRef;
  mesh: Mesh;
  /**
   * A training_step or serving query.
   */
  query: {
    /**
     * The planner that predicts the run.
     */
    kind: 'training_step' | 'serving';
  };
};
/**
 * Named mesh axes on the chips (docs/api.md Mesh).
 */
export type Mesh = {
  /**
   * Chips along each axis (TPU: the slice on the torus; GPU: the last axis innermost). [chips]
   */
  shape: number[];
  /**
   * A name per axis [X, Y, Z, W, V, U].
   */
  axis_names?: string[];
  /**
   * TPU slices joined over DCN, an extra axis [1]. [slices]
   */
  slices?: number;
  /**
   * The DCN axis's name [DCN].
   */
  slice_axis_name?: Text;
  /**
   * TPU: whether each axis wraps [the chip's rule].
   */
  wraparound?: boolean[];
};
/**
 * A measured peak memory per chip and the training scenario that predicts it.
 */
export type MemoryCheck = {
  /**
   * A unique id.
   */
  id: Text;
  /**
   * Where the measurement comes from (repository file @ commit, paper table).
   */
  source: Text;
  /**
   * The peak memory per chip the source measured, in bytes. [bytes]
   */
  measured_memory_bytes: number;
  /**
   * What the source printed and what it includes: peak allocated or reserved, which rank, which phase.
   */
  measured_memory_how: Text;
  /**
   * A setting of the source that bears on memory per chip and that the scenario cannot express.
   */
  memory_unexpressed?: Text;
  /**
   * The plan as the source states it (documentation: kept, not read).
   */
  plan?: {
    [k: string]: unknown;
  };
  /**
   * What the scenario could not express, and the stand-in used (documentation: kept, not read).
   */
  approx?: {
    [k: string]: unknown;
  };
  /**
   * Notes (documentation: kept, not read).
   */
  notes?: {
    [k: string]: unknown;
  };
  scenario: RunScenario;
};
/**
 * Measured training and serving runs with the scenario that predicts each: tests/validation/published-runs.json, a team's own runs (docs/validation.md), and the runs of the calibrate and validation queries.
 */
export type PublishedRuns = {
  /**
   * This schema, for editors.
   */
  $schema?: string;
  /**
   * What the file is and where its runs come from.
   */
  about?: string;
  /**
   * The runs.
   */
  runs: PublishedRun[];
  /**
   * Measured peak memories per chip that no run of the file matches, each with the training scenario that reproduces it.
   */
  memory_checks?: MemoryCheck[];
};
/**
 * An array in the book's sharding notation: its shard, bytes and replication (scaling-book/sharding).
 */
export type ArrayQuery = {
  /**
   * The query kind.
   */
  kind: 'array';
  fidelity?: BookFidelity;
  /**
   * The array, e.g. A[I_XY, J].
   */
  array: Text;
  /**
   * Each named dimension's size: {"I": 128, "J": 2048}.
   */
  dims: {
    [k: string]: number;
  };
  /**
   * Its dtype [bf16].
   */
  dtype?: Dtype;
};
/**
 * The book's parallelism thresholds: DP/FSDP batch, TP limit, the mixed bound, X_opt (scaling-book/training).
 */
export type BoundsQuery = {
  /**
   * The query kind.
   */
  kind: 'bounds';
  fidelity?: BookFidelity;
  /**
   * F [the model's; without either, the bounds that need it are left out].
   */
  d_ff?: number;
  /**
   * Mesh axes FSDP spans, M_X [1]. [axes]
   */
  fsdp_axes?: number;
  /**
   * Mesh axes TP spans, M_Y [1]. [axes]
   */
  tp_axes?: number;
  /**
   * The global batch: adds X_opt and max_chips_compute_bound. [tokens]
   */
  batch_tokens?: number;
  /**
   * Chips [the mesh's]. [chips]
   */
  chips?: number;
  /**
   * Picks the peak [bf16].
   */
  dtype?: Dtype;
  /**
   * GPUs of one model replica (e.g. TP x PP) [1]. [GPUs]
   */
  model_parallel_gpus?: number;
};
/**
 * Fits calibration profiles to measured runs: a team fits the engine to its own cluster (docs/validation.md).
 */
export type CalibrateQuery = {
  /**
   * The query kind.
   */
  kind: 'calibrate';
  fidelity?: BookFidelity;
  /**
   * The runs (published-runs.json's format; split optional).
   */
  runs: PublishedRun[];
  /**
   * Each returned profile's id becomes <prefix>-<id> and its name <prefix>: <name>.
   */
  profile_prefix?: string;
  /**
   * Where the fit starts: the shipped profiles, or the literature priors [embedded].
   */
  priors?: 'embedded' | 'literature';
  /**
   * The profiles' provenance [fitted by the calibrate query].
   */
  source?: Text;
  /**
   * Of each fit [200]. [iterations]
   */
  max_iterations?: number;
};
/**
 * The chip: peaks, critical intensities, FLOPs per dollar, the book's derived numbers.
 */
export type ChipQuery = {
  /**
   * The query kind.
   */
  kind: 'chip';
  fidelity?: BookFidelity;
};
/**
 * An AllGather, ReduceScatter, AllReduce or AllToAll over mesh axes (scaling-book/sharding, /gpus and /training: collective costs).
 */
export type CollectiveQuery = {
  /**
   * The query kind.
   */
  kind: 'collective';
  fidelity?: BookFidelity;
  /**
   * The collective.
   */
  op: 'all_gather' | 'reduce_scatter' | 'all_reduce' | 'all_to_all';
  /**
   * V: the full (gathered, or unreduced) array one group sees. [bytes]
   */
  bytes: number;
  /**
   * The mesh axes the group spans.
   */
  axes: AxisList;
  /**
   * GPU: NVLink SHARP reduces in the switches [false].
   */
  in_network_reduction?: boolean;
  /**
   * A top-k AllToAll: each token goes to active of the shards.
   */
  ragged?: {
    /**
     * Shards each token is sent to. [shards]
     */
    active: number;
    /**
     * How the ragged traffic is counted [approx].
     */
    model?: 'approx' | 'exact';
  };
};
/**
 * A framework's launch configuration read back into the scenario it runs: a training_step or serving query in degrees, its mesh and model, and each setting mapped or not (docs/api.md Framework launch configs).
 */
export type ImportConfigQuery = {
  /**
   * The query kind.
   */
  kind: 'import_config';
  fidelity?: BookFidelity;
  /**
   * The framework the text is written for.
   */
  framework: Framework;
  /**
   * The configuration as the framework reads it: a command line, YAML (or dotted overrides) or JSON; at most 262144 bytes.
   */
  text: string;
  /**
   * The world size where the config does not say it [the mesh's chips]. [chips]
   */
  chips?: number;
  /**
   * The sequence length where the config gives none (DeepSpeed's) [the config's]. [tokens]
   */
  seq_len?: number;
  /**
   * Tokens of each prompt (a serve command gives only the context, prompt and generated together) [the context less generated_len]. [tokens]
   */
  prompt_len?: number;
  /**
   * Tokens generated per sequence (a serve command gives only the context) [the context less prompt_len]. [tokens]
   */
  generated_len?: number;
};
/**
 * A chip family's kernel models from its chips': each constant the geometric mean over the chips that fitted its model, and each chip's models without a table taken from the family.
 */
export type KernelFamilyQuery = {
  /**
   * The query kind.
   */
  kind: 'kernel_family';
  fidelity?: BookFidelity;
  /**
   * The chips of the family, each with its kernel models.
   *
   * Items: One chip's fitted kernel models (a kernel_fit result's hardware and kernels).
   */
  chips: {
    /**
     * The chip's hardware preset id (named in the result).
     */
    hardware: Text;
    /**
     * Its kernel models; source.repository empty or source.unfitted list the models without a table.
     */
    kernels: KernelModels;
  }[];
};
/**
 * Fits one chip's kernel models to its measured kernel tables, with each op's error on held-out shapes.
 */
export type KernelFitQuery = {
  /**
   * The query kind.
   */
  kind: 'kernel_fit';
  fidelity?: BookFidelity;
  /**
   * The chip's kernel tables (tests/kernels/<chip>.json's format), measured on the scenario's hardware.
   */
  tables: KernelTables;
};
/**
 * The arguments training_step and plan_search share: the batch, the model's numerics and recompute, efficiency and the run.
 */
export type TrainingInput = {
  /**
   * The global batch in tokens. [tokens]
   */
  batch_tokens: number;
  /**
   * Tokens per sequence. [tokens]
   */
  seq_len: number;
  /**
   * Causal attention [true].
   */
  causal?: boolean;
  /**
   * Tokens to train on, for the time and cost to train [0]. [tokens]
   */
  train_tokens?: number;
  /**
   * How comms on different axes combine [max].
   */
  comms_model?: CommsModel & string;
  /**
   * What the backward pass recomputes [block; a plan_search without space.remat searches this one alone if it is set, else space.remat's default list].
   */
  remat?: Remat;
  /**
   * Checkpoints per layer (required with remat checkpoints).
   */
  checkpoints_per_layer?: number;
  /**
   * Fused attention, or the softmax probabilities kept for the backward pass [flash].
   */
  attention_kernel?: 'flash' | 'materialized';
  /**
   * A 1-byte mask per residual dropout (and the dropped probabilities with materialized) [false].
   */
  dropout?: boolean;
  /**
   * Which FLOPs model_flops counts: every matmul plus attention, or the book's 6 N D [full].
   */
  flop_account?: 'full' | '6nd';
  /**
   * The book's "days at X% MFU": compute at this utilisation (not with efficiency.flops_frac). [of peak]
   */
  target_mfu_frac?: number;
  efficiency?: Efficiency;
  /**
   * The step's numeric formats [bf16 params and matmuls, a bf16 gradient buffer, fp32 Adam moments: 12 bytes per parameter].
   */
  precision?: {
    /**
     * The matmuls' precision or low-precision recipe [bf16].
     */
    matmul?: MatmulPrecision & string;
    /**
     * The parameters' dtype [bf16].
     */
    params?: 'bf16' | 'fp32';
    /**
     * The gradient buffer: as the params, fp32, or fused into the optimizer (no buffer) [params].
     */
    gradients?: 'params' | 'fp32' | 'fused';
    /**
     * A master copy of the weights [none].
     */
    master_weights?: 'none' | 'bf16' | 'fp32';
    /**
     * Adam's moments [fp32].
     */
    optimizer_states?: 'fp32' | 'bf16';
  };
  /**
   * How an MoE model's layers run [no capacity, dropless, 1, all_to_all, false].
   */
  moe?: {
    /**
     * Each expert takes at most this many times its mean tokens. [x the mean tokens per expert]
     */
    capacity_factor?: number;
    /**
     * Past the capacity: keep every token, drop the rest, or pad every expert to it [drop with a capacity, else dropless].
     */
    token_policy?: 'dropless' | 'drop' | 'pad';
    /**
     * The busiest expert rank's tokens over the mean [1]. [x the mean tokens per expert rank]
     */
    load_imbalance?: number;
    /**
     * Every copy of a token sent (all_to_all), or one per destination node (hierarchical) [all_to_all].
     */
    dispatcher?: 'all_to_all' | 'hierarchical';
    /**
     * Dispatch and combine run beside another microbatch's compute [false].
     */
    overlap?: boolean;
  };
  /**
   * Multi-token prediction modules trained [the model's]. [layers]
   */
  mtp_layers?: number;
  /**
   * Failures, checkpoints and restarts in the time to train (issue 38) [each default from a cited source; the result's goodput.sources says which].
   */
  goodput?: {
    /**
     * Interruptions per chip-hour from every cause [the chip family's published rate]. [1/h]
     */
    failures_per_chip_hour?: number;
    /**
     * Interruptions per host-hour on top of the chips' [0]. [1/h]
     */
    failures_per_host_hour?: number;
    /**
     * Chips per host, for the hosts' rate [8 GPUs; a TPU preset's host shape]. [chips]
     */
    chips_per_host?: number;
    /**
     * Planned restarts (maintenance) per day: a restart without lost work [47 in 54 days, Llama 3]. [1/day]
     */
    planned_interruptions_per_day?: number;
    /**
     * The step waits for the write to storage, for a copy to host memory, or for a copy to host memory that a peer host also keeps [async].
     */
    checkpoint?: 'blocking' | 'async' | 'in_memory';
    /**
     * Each chip's share of the storage bandwidth for saves and loads [7 TB/s over 16,384 GPUs, Llama 3]. [bytes/s]
     */
    storage_bytes_per_s_per_chip?: number;
    /**
     * Time between checkpoints [Young's optimum]. [s]
     */
    checkpoint_interval_s?: number;
    /**
     * Detecting a failure and swapping in a healthy host [300]. [s]
     */
    host_replace_s?: number;
    /**
     * Relaunching the job: processes, communicators, data loaders [30]. [s]
     */
    job_startup_s?: number;
    /**
     * Hot spares held for the job, paid for and idle [0]. [chips]
     */
    spare_chips?: number;
  };
  /**
   * The book's closed forms, or the calibrated per-layer model [calibrated].
   */
  fidelity?: Fidelity & string;
  /**
   * A profile of your own in place of the embedded one (the calibrated fidelity), or a calibrate result whose profile for the chip the engine takes (docs/api.md profile).
   */
  calibration?: ProfileOrResult;
};
/**
 * A serving replica: a serving query's arguments (the load, the sweep and the deployment taken and not read) and its speculative lookahead.
 */
export type LaunchServingPlan = {
  /**
   * The plan's query kind.
   */
  kind: 'serving';
  /**
   * Taken and not read (the launch config has the book's fidelity).
   */
  fidelity?: {
    [k: string]: unknown;
  };
  /**
   * Taken and not read (a calibration profile prices, it does not launch).
   */
  calibration?: {
    [k: string]: unknown;
  };
  /**
   * Sequences decoded together.
   */
  batch: number;
  /**
   * Tokens of each prompt. [tokens]
   */
  prompt_len: number;
  /**
   * Tokens generated per sequence. [tokens]
   */
  generated_len: number;
  /**
   * The KV length a decode step reads [prompt + generated/2]. [tokens]
   */
  kv_context_len?: number;
  /**
   * The dtypes of the weights, the KV cache and the activations [bf16 each; the weights: the model's weights_dtype if it has one].
   */
  dtypes?: {
    /**
     * The weights' dtype [the model's weights_dtype, else bf16].
     */
    weights?: Dtype;
    /**
     * The KV cache's dtype [bf16].
     */
    kv?: Dtype & string;
    /**
     * The activations' dtype [bf16].
     */
    activations?: Dtype & string;
  };
  /**
   * The replica's parallelism: tensor axes (1D Megatron) or layout 2d with x and yz axes, and expert axes.
   */
  parallelism?: {
    /**
     * 1D Megatron (tensor) or 2D weight-stationary (x and yz) [1d].
     */
    layout?: '1d' | '2d';
    /**
     * Tensor parallelism's axes (1d).
     */
    tensor?: AxisList;
    /**
     * 2D weight-stationary: the x axes.
     */
    x?: AxisList;
    /**
     * 2D weight-stationary: the yz axes.
     */
    yz?: AxisList;
    /**
     * Wide expert parallelism with attention data parallel: the routed experts split over these axes.
     */
    expert?: AxisList;
    /**
     * The experts' TP [the TP degree]; smaller folds the other TP ranks into the expert group. [chips]
     */
    expert_tensor?: number;
  };
  /**
   * Fractions of peak [1.0 each].
   */
  efficiency?: Efficiency;
  /**
   * Prefill's fraction of the peak FLOP/s [efficiency.flops_frac]. [of peak]
   */
  prefill_flops_frac?: number;
  /**
   * Count communication (the book's figures leave it out) [true].
   */
  include_comms?: boolean;
  /**
   * The parameter count the serving math uses [the model's]. [parameters]
   */
  params_override?: number;
  /**
   * The share of each chip's HBM the engine gives to the weights and the KV caches, the rest held for activations, CUDA graphs and workspaces (vLLM gpu_memory_utilization, SGLang mem_fraction_static) [the book fidelity all of it, the calibrated 0.9 (vLLM's default)]. [of HBM]
   */
  memory_frac?: number;
  /**
   * Instead of memory_frac: the share of the HBM the weights leave that the KV caches get (TensorRT-LLM kv_cache_config.free_gpu_memory_fraction). [of HBM left]
   */
  free_memory_frac?: number;
  speculative?: LaunchSpeculative;
  /**
   * Taken and not read (a training_step argument).
   */
  explain?: {
    [k: string]: unknown;
  };
  /**
   * Taken and not read (a training_step argument).
   */
  goodput?: {
    [k: string]: unknown;
  };
  /**
   * Taken and not read (a serving argument that prices, not launches).
   */
  sweep?: {
    [k: string]: unknown;
  };
  /**
   * Taken and not read (the launch config is one replica's).
   */
  deployment?: {
    [k: string]: unknown;
  };
  /**
   * Taken and not read (a serving argument that prices, not launches).
   */
  load?: {
    [k: string]: unknown;
  };
  /**
   * Taken and not read (a serving argument that prices, not launches).
   */
  latency_target_s?: {
    [k: string]: unknown;
  };
};
/**
 * Speculative decoding: the engine writes the lookahead; the draft is yours to name.
 */
export type LaunchSpeculative = {
  /**
   * Tokens the draft proposes per step [4]. [tokens]
   */
  lookahead?: number;
  /**
   * Taken and not read: the launch config names no draft (a placeholder).
   */
  draft_model?: {
    [k: string]: unknown;
  };
  /**
   * Taken and not read: the launch config does not depend on it.
   */
  acceptance_rate?: {
    [k: string]: unknown;
  };
};
/**
 * A training_step or serving plan written as a framework's launch configuration: its command line, YAML or JSON, what it cannot carry and what it leaves to you (docs/api.md Framework launch configs).
 */
export type LaunchConfigQuery = {
  /**
   * The query kind.
   */
  kind: 'launch_config';
  fidelity?: BookFidelity;
  /**
   * The framework to launch with: one that launches the plan's kind on the scenario's chip (else not_applicable, naming those that do).
   */
  framework: Framework;
  plan: LaunchPlan;
};
/**
 * X[batch, d] * Y[d, f] with exact bytes (scaling-book/roofline).
 */
export type MatmulQuery = {
  /**
   * The query kind.
   */
  kind: 'matmul';
  fidelity?: BookFidelity;
  /**
   * Rows of X (tokens).
   */
  batch: number;
  /**
   * The contracting dimension.
   */
  d: number;
  /**
   * Columns of Y.
   */
  f: number;
  /**
   * X's dtype [bf16].
   */
  lhs_dtype?: Dtype;
  /**
   * Y's (the weights') dtype [bf16].
   */
  rhs_dtype?: Dtype;
  /**
   * The output's dtype [lhs_dtype].
   */
  out_dtype?: Dtype;
  /**
   * The dtype the matrix units run [lhs_dtype].
   */
  compute_dtype?: Dtype;
  /**
   * Which memory feeds the chip [hbm].
   */
  memory?: 'hbm' | 'on_chip' | 'host';
  /**
   * A bandwidth of your own, in place of memory's. [bytes/s]
   */
  bandwidth_bytes_per_s?: number;
  /**
   * Chips the work splits over evenly [1]. [chips]
   */
  chips?: number;
};
/**
 * The book's training-roofline figure (scaling-book/training): a 2-matrix MLP under FSDP x TP.
 */
export type MlpRooflineQuery = {
  /**
   * The query kind.
   */
  kind: 'mlp_roofline';
  fidelity?: BookFidelity;
  /**
   * D.
   */
  d_model: number;
  /**
   * F.
   */
  d_ff: number;
  /**
   * FSDP degree. [chips]
   */
  fsdp: number;
  /**
   * TP degree. [chips]
   */
  tp: number;
  /**
   * Token batches to evaluate (tokens).
   */
  batches: number[];
  /**
   * M_X [from the mesh: the axes each degree spans, laid out in order; required without a mesh]. [axes]
   */
  fsdp_axes?: number;
  /**
   * M_Y [from the mesh; required without a mesh]. [axes]
   */
  tp_axes?: number;
  /**
   * How comms on different axes combine [max].
   */
  comms_model?: CommsModel;
  /**
   * Count the backward pass too [false].
   */
  include_backward?: boolean;
};
/**
 * What the engine makes of the scenario's model (a preset with overrides, a pasted config.json or an inline model): the fields it computes with and what it leaves out.
 */
export type ModelQuery = {
  /**
   * The query kind.
   */
  kind: 'model';
  fidelity?: BookFidelity;
};
/**
 * The scenario nearest to a training_step or serving question that runs, fits in HBM and warns of nothing (docs/api.md): the degrees, then the recomputation, the batch, the model and last a serving replica move only as far as they must.
 */
export type NearestFitQuery = {
  /**
   * The query kind.
   */
  kind: 'nearest_fit';
  /**
   * The fidelity of the question and of serve_instead where they give none [each kind's default].
   */
  fidelity?: Fidelity;
  /**
   * The question to fit: a training_step or serving query, run on the scenario's hardware, model and mesh (a mesh to lay out lets its degrees move).
   */
  query: {
    /**
     * The question's kind.
     */
    kind: 'training_step' | 'serving';
  };
  /**
   * Model preset ids that may replace the question's model when the question does not run cleanly at its own batch: then at each batch the largest that runs cleanly wins, the question's own on a tie [none: the model is kept].
   */
  models?: Text[];
  /**
   * For a training question with a mesh to lay out: the serving query to ask, on one replica with TP over all the chips, when no model trains cleanly at any batch tried [none].
   */
  serve_instead?: ServingQuery;
  /**
   * What may not move [none: each moves as far as it must].
   */
  keep?: ('degrees' | 'remat' | 'batch')[];
};
/**
 * Prefill and decode of a serving replica (scaling-book/inference and /applied-inference, with its figures).
 */
export type ServingQuery = {
  /**
   * The query kind.
   */
  kind: 'serving';
  /**
   * The book's closed forms, or the calibrated per-layer model [calibrated].
   */
  fidelity?: Fidelity & string;
  /**
   * A profile of your own in place of the embedded one (the calibrated fidelity), or a calibrate result whose profile for the chip the engine takes (docs/api.md profile).
   */
  calibration?: ProfileOrResult;
  /**
   * Sequences decoded together.
   */
  batch: number;
  /**
   * Tokens of each prompt. [tokens]
   */
  prompt_len: number;
  /**
   * Tokens generated per sequence. [tokens]
   */
  generated_len: number;
  /**
   * The KV length a decode step reads [prompt + generated/2]. [tokens]
   */
  kv_context_len?: number;
  /**
   * The dtypes of the weights, the KV cache and the activations [bf16 each; the weights: the model's weights_dtype if it has one].
   */
  dtypes?: {
    /**
     * The weights' dtype [the model's weights_dtype, else bf16].
     */
    weights?: Dtype;
    /**
     * The KV cache's dtype [bf16].
     */
    kv?: Dtype & string;
    /**
     * The activations' dtype [bf16].
     */
    activations?: Dtype & string;
  };
  /**
   * The replica's parallelism: tensor axes (1D Megatron) or layout 2d with x and yz axes, and expert axes.
   */
  parallelism?: {
    /**
     * 1D Megatron (tensor) or 2D weight-stationary (x and yz) [1d].
     */
    layout?: '1d' | '2d';
    /**
     * Tensor parallelism's axes (1d).
     */
    tensor?: AxisList;
    /**
     * 2D weight-stationary: the x axes.
     */
    x?: AxisList;
    /**
     * 2D weight-stationary: the yz axes.
     */
    yz?: AxisList;
    /**
     * Wide expert parallelism with attention data parallel: the routed experts split over these axes.
     */
    expert?: AxisList;
    /**
     * The experts' TP [the TP degree]; smaller folds the other TP ranks into the expert group. [chips]
     */
    expert_tensor?: number;
  };
  /**
   * Fractions of peak [1.0 each].
   */
  efficiency?: Efficiency;
  /**
   * Prefill's fraction of the peak FLOP/s [efficiency.flops_frac]. [of peak]
   */
  prefill_flops_frac?: number;
  /**
   * Count communication (the book's figures leave it out) [true].
   */
  include_comms?: boolean;
  /**
   * The share of each chip's HBM the engine gives to the weights and the KV caches, the rest held for activations, CUDA graphs and workspaces (vLLM gpu_memory_utilization, SGLang mem_fraction_static) [the book fidelity all of it, the calibrated 0.9 (vLLM's default)]. [of HBM]
   */
  memory_frac?: number;
  /**
   * Instead of memory_frac: the share of the HBM the weights leave that the KV caches get (TensorRT-LLM kv_cache_config.free_gpu_memory_fraction). [of HBM left]
   */
  free_memory_frac?: number;
  /**
   * The parameter count the serving math uses [the model's]. [parameters]
   */
  params_override?: number;
  /**
   * The latency-throughput sweep [powers of two up to the largest batch that fits, at the decode context].
   */
  sweep?: {
    /**
     * Batches.
     */
    batches?: number[];
    /**
     * KV contexts. [tokens]
     */
    contexts?: number[];
  };
  /**
   * Speculative decoding with a draft model.
   */
  speculative?: {
    /**
     * The draft model: a preset, a config.json or a model inline.
     */
    draft_model: ModelRef;
    /**
     * Tokens the draft proposes per step. [tokens]
     */
    lookahead: number;
    /**
     * Chance each proposed token is accepted.
     */
    acceptance_rate: number;
  };
  /**
   * Replicas of this one for a demand, costed as serving_search costs its rows.
   */
  deployment?: {
    /**
     * Prefill on the decode replicas, or on prefill servers.
     */
    prefill: 'colocated' | 'disaggregated';
    /**
     * Output tokens per second to serve [0: one replica]. [tokens/s]
     */
    demand_tokens_per_s?: number;
  };
  /**
   * The replica under a benchmark's load: closed-loop clients at a fixed concurrency, prompt_len and generated_len fixed (issue 35). Adds load.
   */
  load?: {
    /**
     * Requests in flight (each client sends its next when the last ends). [requests]
     */
    concurrency: number;
    /**
     * Prompt tokens one step may prefill per attention rank [8192, the engines' default]. [tokens]
     */
    max_tokens_per_step?: number;
    /**
     * The engine's cap on sequences batched at once (TensorRT-LLM max_batch_size, vLLM max_num_seqs, SGLang max_running_requests, JetStream slots) [none: the KV caches alone limit them]. [sequences]
     */
    max_in_flight?: number;
    /**
     * With attention data parallelism, the engine's balancer holds new prompts until every rank has one, or for at most the backend's dp_gate_steps (TensorRT-LLM attention_dp_config.enable_balance) [false, TensorRT-LLM's default].
     */
    attention_dp_balance?: boolean;
    /**
     * The serving engine whose runtime is fitted beside the calibrated kernels (calibration_profiles/serving/backends.json) [none: the kernels' step as it is].
     */
    backend?: 'sglang' | 'trtllm' | 'vllm';
    /**
     * Concurrencies for the interactivity frontier (adds load.frontier: throughput per chip against tokens per second per user). [requests]
     */
    concurrencies?: number[];
    /**
     * Disaggregated serving: the prompts prefill on a pool of their own, on the same chip, and the decode replica never stalls for a prefill.
     */
    prefill_pool?: {
      /**
       * Prefill workers per decode replica (the pools' worker ratio; 0.25: one prefill worker for four decode replicas). [workers]
       */
      workers_per_decode_replica: number;
      /**
       * A prefill worker's chips.
       */
      mesh: Mesh;
      /**
       * A prefill worker's split, as the query's parallelism.
       */
      parallelism?: {
        /**
         * 1D Megatron (tensor) or 2D weight-stationary (x and yz) [1d].
         */
        layout?: '1d' | '2d';
        /**
         * Tensor parallelism's axes (1d).
         */
        tensor?: AxisList;
        /**
         * 2D weight-stationary: the x axes.
         */
        x?: AxisList;
        /**
         * 2D weight-stationary: the yz axes.
         */
        yz?: AxisList;
        /**
         * Wide expert parallelism with attention data parallel: the routed experts split over these axes.
         */
        expert?: AxisList;
        /**
         * The experts' TP [the TP degree]; smaller folds the other TP ranks into the expert group. [chips]
         */
        expert_tensor?: number;
      };
    };
  };
  /**
   * A per-token decode step to meet: adds chips_for_latency_target. [s]
   */
  latency_target_s?: number;
};
/**
 * The mesh and axes for parallelism degrees given as numbers, the degrees each strategy can take, and the nearest degrees that run (issue 20).
 */
export type PlanMeshQuery = {
  /**
   * The query kind.
   */
  kind: 'plan_mesh';
  /**
   * The rules are the planners' checks: one fidelity.
   */
  fidelity?: BookFidelity;
  /**
   * A training plan, or a serving replica (tensor and expert only, in one slice, on whole axes) [training].
   */
  mode?: 'training' | 'serving';
  /**
   * The degrees per slice, and what the model's splits depend on.
   */
  parallelism?: {
    /**
     * The data degree per slice [1]. [chips]
     */
    data?: number;
    /**
     * The fsdp degree per slice [1]. [chips]
     */
    fsdp?: number;
    /**
     * The tensor degree per slice [1]. [chips]
     */
    tensor?: number;
    /**
     * The pipeline degree per slice [1]. [chips]
     */
    pipeline?: number;
    /**
     * The expert degree per slice [1]. [chips]
     */
    expert?: number;
    /**
     * The context degree per slice [1]. [chips]
     */
    context?: number;
    /**
     * The experts' TP, dividing TP (parallel folding) [the TP degree]. [chips]
     */
    expert_tensor?: number;
    /**
     * The pipeline schedule, which decides the stage counts that run (training) [1f1b].
     */
    pipeline_schedule?: 'gpipe' | '1f1b' | 'interleaved' | 'zero_bubble' | 'dualpipe' | 'dualpipe_v';
    /**
     * Model chunks per stage of an interleaved schedule (training) [1].
     */
    virtual_stages?: number;
  };
  /**
   * TPU slices joined over DCN (training) [1]. [slices]
   */
  slices?: number;
  /**
   * The strategy the DCN axis joins (training) [data].
   */
  dcn_strategy?: 'data' | 'fsdp';
  /**
   * A fixed chip count: the balancing degree takes what the others leave [none]. [chips]
   */
  chips?: number;
  /**
   * Tokens per sequence: CP must divide it (training) [none]. [tokens]
   */
  seq_len?: number;
  /**
   * Tokens per step: the nearest runnable batch is whole sequences (training) [none]. [tokens]
   */
  batch_tokens?: number;
  /**
   * The strategies whose valid degrees to list [none].
   */
  list_degrees?: {
    /**
     * Which degrees to list.
     */
    data?: {
      /**
       * The largest degree to try. [chips]
       */
      up_to: number;
      /**
       * Try 1, 2, 4, ... only [false].
       */
      powers_of_two?: boolean;
    };
    /**
     * Which degrees to list.
     */
    fsdp?: {
      /**
       * The largest degree to try. [chips]
       */
      up_to: number;
      /**
       * Try 1, 2, 4, ... only [false].
       */
      powers_of_two?: boolean;
    };
    /**
     * Which degrees to list.
     */
    tensor?: {
      /**
       * The largest degree to try. [chips]
       */
      up_to: number;
      /**
       * Try 1, 2, 4, ... only [false].
       */
      powers_of_two?: boolean;
    };
    /**
     * Which degrees to list.
     */
    pipeline?: {
      /**
       * The largest degree to try. [chips]
       */
      up_to: number;
      /**
       * Try 1, 2, 4, ... only [false].
       */
      powers_of_two?: boolean;
    };
    /**
     * Which degrees to list.
     */
    expert?: {
      /**
       * The largest degree to try. [chips]
       */
      up_to: number;
      /**
       * Try 1, 2, 4, ... only [false].
       */
      powers_of_two?: boolean;
    };
    /**
     * Which degrees to list.
     */
    context?: {
      /**
       * The largest degree to try. [chips]
       */
      up_to: number;
      /**
       * Try 1, 2, 4, ... only [false].
       */
      powers_of_two?: boolean;
    };
  };
};
/**
 * The calibration profile the calibrated fidelity uses for the chip: the shipped one, or the one the engine chooses from a profile or a calibrate result given.
 */
export type ProfileQuery = {
  /**
   * The query kind.
   */
  kind: 'profile';
  fidelity?: BookFidelity;
  /**
   * A profile, or a calibrate result to choose from [the shipped profiles].
   */
  calibration?: ProfileOrResult;
};
/**
 * An op's time on the roofline: compute, memory, bound.
 */
export type RooflineQuery = {
  /**
   * The query kind.
   */
  kind: 'roofline';
  fidelity?: BookFidelity;
  /**
   * The op's FLOPs. [FLOPs]
   */
  flops: number;
  /**
   * The bytes it moves. [bytes]
   */
  bytes: number;
  /**
   * Picks the chip's peak [bf16].
   */
  dtype?: Dtype;
  /**
   * A training matmul precision, in place of dtype: the peak of the dtype it runs at (fp8_blockwise and mxfp8 at fp8's, nvfp4 at fp4's).
   */
  precision?: MatmulPrecision;
  /**
   * A peak of your own, in place of dtype's. [FLOP/s]
   */
  peak_flops_per_s?: number;
  /**
   * Which memory feeds the chip [hbm].
   */
  memory?: 'hbm' | 'on_chip' | 'host';
  /**
   * A bandwidth of your own, in place of memory's. [bytes/s]
   */
  bandwidth_bytes_per_s?: number;
  /**
   * Chips the work splits over evenly [1]. [chips]
   */
  chips?: number;
};
/**
 * The serving deployments that meet a latency target, ranked (scaling-book/inference).
 */
export type ServingSearchQuery = {
  /**
   * The query kind.
   */
  kind: 'serving_search';
  /**
   * The book's closed forms, or the calibrated per-layer model [calibrated].
   */
  fidelity?: Fidelity & string;
  /**
   * A profile of your own in place of the embedded one (the calibrated fidelity), or a calibrate result whose profile for the chip the engine takes (docs/api.md profile).
   */
  calibration?: ProfileOrResult;
  /**
   * Tokens of each prompt. [tokens]
   */
  prompt_len: number;
  /**
   * Tokens generated per sequence. [tokens]
   */
  generated_len: number;
  /**
   * The KV length a decode step reads [prompt + generated/2]. [tokens]
   */
  kv_context_len?: number;
  /**
   * Latency targets [none].
   */
  targets?: {
    /**
     * Per output token. [s]
     */
    latency_per_token_s?: number;
    /**
     * To the first token. [s]
     */
    time_to_first_token_s?: number;
  };
  /**
   * What best means [usd_per_million_tokens].
   */
  objective?: 'fewest_chips' | 'usd_per_million_tokens' | 'tokens_per_s_per_chip';
  /**
   * Output tokens per second to serve: sets the replicas [one replica]. [tokens/s]
   */
  demand_tokens_per_s?: number;
  /**
   * Dtypes to try [bf16 and int8 on TPUs, bf16 and fp8 on GPUs].
   */
  dtypes?: {
    /**
     * Weight dtypes.
     */
    weights?: Dtype[];
    /**
     * KV cache dtypes.
     */
    kv?: Dtype[];
    /**
     * The activations' dtype [bf16].
     */
    activations?: Dtype & string;
  };
  /**
   * Replica sizes to try. [chips]
   */
  replica_chips?: number[];
  /**
   * The largest replica [256 TPU, 64 GPU]. [chips]
   */
  max_replica_chips?: number;
  /**
   * Batches to try [powers of two up to the largest that fits, and that one].
   */
  batches?: number[];
  /**
   * Prefill colocated, on prefill servers, or both tried [both].
   */
  disaggregation?: 'both' | 'colocated' | 'disaggregated';
  /**
   * Fractions of peak [1.0 each].
   */
  efficiency?: Efficiency;
  /**
   * Count communication [true].
   */
  include_comms?: boolean;
  /**
   * The share of each chip's HBM the engine gives to the weights and the KV caches, the rest held for activations, CUDA graphs and workspaces (vLLM gpu_memory_utilization, SGLang mem_fraction_static) [the book fidelity all of it, the calibrated 0.9 (vLLM's default)]. [of HBM]
   */
  memory_frac?: number;
  /**
   * Instead of memory_frac: the share of the HBM the weights leave that the KV caches get (TensorRT-LLM kv_cache_config.free_gpu_memory_fraction). [of HBM left]
   */
  free_memory_frac?: number;
  /**
   * The parameter count the serving math uses, as in serving [the model's]. [parameters]
   */
  params_override?: number;
  /**
   * How many best deployments [10]. [deployments]
   */
  keep?: number;
  /**
   * Price each deployment under a benchmark's load with this serving engine's fitted runtime: the batch is its concurrency per replica, the targets apply to the steady state's TTFT and TPOT, a disaggregated deployment takes the fewest prefill workers that keep up [none: the one-step model].
   */
  backend?: 'sglang' | 'trtllm' | 'vllm';
};
/**
 * A sharded matmul: its case and every plan, cheapest first (scaling-book/sharding).
 */
export type ShardedMatmulQuery = {
  /**
   * The query kind.
   */
  kind: 'sharded_matmul';
  fidelity?: BookFidelity;
  /**
   * A[I_X, J] * B[J, K_Y], optionally -> C[I_X, K] for the output's sharding ({U_X} marks unreduced).
   */
  expression: Text;
  /**
   * Each named dimension's size: {"I": 128, "J": 2048}.
   */
  dims: {
    [k: string]: number;
  };
  /**
   * The operands' dtype [bf16].
   */
  dtype?: Dtype;
  /**
   * GPU: NVLink SHARP reduces in the switches [false].
   */
  in_network_reduction?: boolean;
};
/**
 * The chip, the slice, the model's accounting, the book's thresholds and the headline numbers of a default training step and serving point.
 */
export type SummaryQuery = {
  /**
   * The query kind.
   */
  kind: 'summary';
  /**
   * The book's closed forms, or the calibrated per-layer model [calibrated].
   */
  fidelity?: Fidelity;
  /**
   * A training_step query's arguments [TP over the innermost axis, FSDP over the rest].
   */
  training?: TrainingStepQuery;
  /**
   * A serving query's arguments [TP over every axis].
   */
  serving?: ServingQuery;
};
/**
 * A TPU slice (hosts, wraparound, hops) or a GPU cluster (domains, fat-tree levels).
 */
export type TopologyQuery = {
  /**
   * The query kind.
   */
  kind: 'topology';
  fidelity?: BookFidelity;
  /**
   * GPU: the cluster's GPUs [the mesh's chips]. [GPUs]
   */
  gpus?: number;
};
/**
 * Moving bytes over one link kind: bandwidth plus hop latency (scaling-book/tpus).
 */
export type TransferQuery = {
  /**
   * The query kind.
   */
  kind: 'transfer';
  fidelity?: BookFidelity;
  /**
   * The bytes to move. [bytes]
   */
  bytes: number;
  /**
   * The link [ici].
   */
  link?: 'ici' | 'pcie' | 'dcn' | 'hbm' | 'scale_up' | 'scale_out';
  /**
   * Links used at once [1, or with from/to the route's disjoint shortest paths]. [ports]
   */
  ports?: number;
  /**
   * Hops the first byte crosses [0]. [hops]
   */
  hops?: number;
  /**
   * A chip's coordinates on the mesh (with to; not with hops).
   */
  from?: number[];
  /**
   * The other chip's coordinates.
   */
  to?: number[];
};
/**
 * The model's accounting: parameters, FLOPs, KV cache, activations per remat policy (scaling-book/transformers).
 */
export type TransformerQuery = {
  /**
   * The query kind.
   */
  kind: 'transformer';
  fidelity?: BookFidelity;
  /**
   * Tokens per sequence [4096]. [tokens]
   */
  seq_len?: number;
  /**
   * The batch in tokens [seq_len]. [tokens]
   */
  tokens?: number;
  /**
   * Causal attention [true].
   */
  causal?: boolean;
  /**
   * The weights' dtype [bf16].
   */
  param_dtype?: Dtype;
  /**
   * The KV cache's dtype [bf16].
   */
  kv_dtype?: Dtype;
  /**
   * The activations' dtype [bf16].
   */
  activation_dtype?: Dtype;
  /**
   * What the backward pass recomputes [block].
   */
  remat?: Remat;
  /**
   * Checkpoints per layer (required with remat checkpoints).
   */
  checkpoints_per_layer?: number;
};
/**
 * MFU from chip-hours and tokens: 6 N tokens / (chip-hours 3600 C) (scaling-book/transformers).
 */
export type UtilizationQuery = {
  /**
   * The query kind.
   */
  kind: 'utilization';
  fidelity?: BookFidelity;
  /**
   * Chip-hours spent. [chip-hours]
   */
  chip_hours: number;
  /**
   * Tokens trained. [tokens]
   */
  tokens: number;
  /**
   * N [the model's active parameters; required without a model]. [parameters]
   */
  active_params?: number;
  /**
   * Picks the peak [bf16].
   */
  dtype?: Dtype;
};
/**
 * Every published run predicted by the book and by the calibrated model, with the error per run and the statistics (docs/validation.md).
 */
export type ValidationQuery = {
  /**
   * The query kind.
   */
  kind: 'validation';
  fidelity?: BookFidelity;
  /**
   * The runs (published-runs.json's format), each with its split.
   */
  runs: PublishedRun[];
  /**
   * Measured peak memories per chip that no run matches, each with its training scenario (a runs file's memory_checks) [none].
   */
  memory_checks?: MemoryCheck[];
  /**
   * Profiles in place of the embedded ones.
   */
  profiles?: CalibrationProfile[];
  /**
   * Add family_holdout: each family held out whole in turn and refitted [false].
   */
  family_holdout?: boolean;
};
/**
 * The result of a array query (docs/api.md).
 */
export type ArrayResult = {
  /**
   * The array, in the book's notation.
   */
  array: string;
  /**
   * Bytes over every device (with replication). [bytes]
   */
  bytes_all_devices: number;
  /**
   * Bytes of one unsharded copy. [bytes]
   */
  bytes_one_copy: number;
  /**
   * Bytes of one device's shard. [bytes per device]
   */
  bytes_per_device: number;
  /**
   * Which model made the numbers.
   */
  fidelity?: Fidelity;
  /**
   * Loading one device's shard from HBM. [s]
   */
  hbm_load_s: number;
  /**
   * One device's shard's shape.
   */
  local_shape: number[];
  /**
   * Copies of each element.
   */
  replication: number;
};
/**
 * The result of a bounds query (docs/api.md).
 */
export type BoundsResult = {
  /**
   * ICI critical intensity C / W_ici (scaling-book/training). [FLOPs/byte]
   */
  alpha_ici_flops_per_byte?: number;
  /**
   * Scale-out critical intensity C / W_nic (scaling-book/gpus, rooflines). [FLOPs/byte]
   */
  alpha_scale_out_flops_per_byte?: number;
  /**
   * NVLink critical intensity C / W_nvlink (scaling-book/gpus, rooflines). [FLOPs/byte]
   */
  alpha_scale_up_flops_per_byte?: number;
  /**
   * Chips. [chips]
   */
  chips: number;
  /**
   * F.
   */
  d_ff?: number;
  /**
   * DCN data parallelism's minimum tokens per slice. [tokens per slice]
   */
  dcn_min_tokens_per_slice?: number;
  /**
   * The smallest global batch that keeps DP/FSDP compute-bound. [tokens]
   */
  dp_fsdp_min_global_batch_tokens: number;
  /**
   * DP/FSDP's minimum tokens per chip for 1, 2, 3 axes (scaling-book/training, data parallelism).
   *
   * Items:  [tokens per chip]
   */
  dp_fsdp_min_tokens_per_chip_by_axes?: number[];
  /**
   * DP/FSDP's minimum tokens per GPU across domains. [tokens per GPU]
   */
  dp_fsdp_min_tokens_per_gpu_across_domains?: number;
  /**
   * The same at this cluster's size ((X-1)/X). [tokens per GPU]
   */
  dp_fsdp_min_tokens_per_gpu_at_this_size?: number;
  /**
   * DP/FSDP's minimum tokens per GPU inside a domain. [tokens per GPU]
   */
  dp_fsdp_min_tokens_per_gpu_in_domain?: number;
  /**
   * Across domains, with a replica spanning several nodes. [tokens per GPU]
   */
  dp_fsdp_min_tokens_per_gpu_with_model_span?: number;
  /**
   * Which model made the numbers.
   */
  fidelity?: Fidelity;
  /**
   * X_opt (scaling-book/training, mixed FSDP + TP).
   */
  fsdp_optimal_degree?: number;
  /**
   * The most chips a batch keeps compute-bound, per strategy.
   */
  max_chips_compute_bound?: {
    /**
     * Slices it spans over DCN. [slices]
     */
    dcn_slices?: number;
    /**
     * DP/FSDP across domains.
     */
    dp_fsdp_across_domains?: number;
    /**
     * DP/FSDP on the axes.
     */
    dp_fsdp_by_axes?: number[];
    /**
     * DP/FSDP inside one domain.
     */
    dp_fsdp_in_domain?: number;
    /**
     * FSDP x TP (Aug-2025).
     */
    fsdp_tp?: number;
    /**
     * FSDP x TP (Feb-2025 sum).
     */
    fsdp_tp_feb2025_sum?: number;
  };
  /**
   * Mixed FSDP+TP minimum tokens per chip (Aug-2025 max model). [tokens per chip]
   */
  mixed_min_tokens_per_chip?: number;
  /**
   * The same with the Feb-2025 sum model. [tokens per chip]
   */
  mixed_min_tokens_per_chip_feb2025_sum?: number;
  /**
   * (E + shared) / (k + shared).
   */
  moe_factor: number;
  /**
   * Tokens per chip. [tokens per chip]
   */
  tokens_per_chip?: number;
  /**
   * TP at X_opt.
   */
  tp_degree_at_optimum?: number;
  /**
   * The largest TP that stays compute-bound (scaling-book/training, tensor parallelism).
   */
  tp_max_degree?: number;
  /**
   * Across NVLink domains.
   */
  tp_max_degree_across_domains?: number;
  /**
   * Inside an NVLink domain.
   */
  tp_max_degree_in_domain?: number;
};
/**
 * The result of a calibrate query (docs/api.md).
 */
export type CalibrateResult = {
  /**
   * Which model made the numbers.
   */
  fidelity?: Fidelity;
  /**
   * Fits in HBM.
   */
  fits: {
    /**
     * Every fit converged.
     */
    converged: boolean;
    /**
     * The cost.
     */
    cost: number;
    /**
     * The objective before the fit.
     */
    initial_cost: number;
    /**
     * Iterations run.
     */
    iterations: number;
    /**
     * The kind.
     */
    kind: string;
    /**
     * How the fit stopped.
     */
    message: string;
    /**
     * The largest gradient component where the fit stopped.
     */
    projected_gradient: number;
    /**
     * Runs.
     */
    runs: number;
    /**
     * How the fit stopped.
     */
    stop: 'converged' | 'stalled' | 'iteration_limit' | 'work_limit';
    /**
     * training or serving.
     */
    task: string;
    /**
     * Work units spent.
     */
    work: number;
  }[];
  /**
   * The fitted profiles.
   */
  profiles: CalibrationProfile[];
  /**
   * Runs.
   */
  runs: RunOutcome[];
  /**
   * Statistics per chip kind, task and split.
   */
  summary: SummaryRow[];
};
/**
 * One run predicted by the book and the calibrated model, with the errors.
 */
export type RunOutcome = {
  /**
   * dense or moe (all: every run).
   */
  architecture: string;
  /**
   * The book's error statistics.
   */
  book: number;
  /**
   * The book's error on the run. [fraction]
   */
  book_error_frac: number;
  /**
   * The calibrated model's error statistics.
   */
  calibrated: number;
  /**
   * The calibrated model's error on the run. [fraction]
   */
  calibrated_error_frac: number;
  /**
   * The run is excluded from the statistics.
   */
  excluded: string;
  /**
   * The run's family.
   */
  family: string;
  /**
   * The id.
   */
  id: string;
  /**
   * The kind.
   */
  kind: string;
  /**
   * The measured value.
   */
  measured: number;
  /**
   * step_s or throughput_tok_s.
   */
  metric: 'step_s' | 'throughput_tok_s';
  /**
   * The calibration profile used.
   */
  profile: string;
  /**
   * fit or held.
   */
  split: string;
  /**
   * training or serving.
   */
  task: string;
  memory?: RunMemory;
};
/**
 * A training run's memory per chip as predicted, against its HBM and a measured peak (issue 34).
 */
export type RunMemory = {
  /**
   * Predicted / measured - 1 (with measured_bytes). [fraction]
   */
  error_frac?: number;
  /**
   * The predicted memory fits the chip's HBM.
   */
  fits: boolean;
  /**
   * The chip's HBM (the scenario's, with its overrides). [bytes]
   */
  hbm_capacity_bytes: number;
  /**
   * The peak the source measured (the run's measured_memory_bytes). [bytes]
   */
  measured_bytes?: number;
  /**
   * What the measured figure includes (the run's measured_memory_how).
   */
  measured_how?: string;
  /**
   * The remat policy predicted: the run's, or the one remat_auto picks.
   */
  remat: Remat;
  /**
   * The policy was picked: the lightest of none, big_matmuls and block that fits.
   */
  remat_auto: boolean;
  /**
   * The predicted memory per chip (the calibrated step's, the book's without a profile). [bytes]
   */
  total_bytes: number;
  /**
   * The setting of the source that bears on memory and the engine cannot express (the run's memory_unexpressed).
   */
  unexpressed?: string;
};
/**
 * The error statistics per chip kind, task and split.
 */
export type SummaryRow = {
  /**
   * dense or moe (all: every run).
   */
  architecture: string;
  /**
   * The book's error statistics.
   */
  book: ErrorStats;
  /**
   * The calibrated model's error statistics.
   */
  calibrated: ErrorStats;
  /**
   * The kind.
   */
  kind: string;
  /**
   * fit or held.
   */
  split: string;
  /**
   * training or serving.
   */
  task: string;
};
/**
 * Error statistics over a group of runs (error: predicted / measured - 1 for a time, measured / predicted - 1 for a throughput).
 */
export type ErrorStats = {
  /**
   * Largest absolute error. [fraction]
   */
  max_abs_frac: number;
  /**
   * Median absolute error. [fraction]
   */
  median_abs_frac: number;
  /**
   * Share of runs predicted faster than measured. [fraction]
   */
  optimistic_frac: number;
  /**
   * 90th percentile absolute error. [fraction]
   */
  p90_abs_frac: number;
  /**
   * Runs.
   */
  runs: number;
  /**
   * Median signed error. [fraction]
   */
  signed_median_frac: number;
};
/**
 * Dense peak per dtype the chip runs. [FLOP/s]
 */
export type PeakFlopsPerDtype = {
  /**
   * fp32.
   */
  fp32?: number;
  /**
   * bf16.
   */
  bf16?: number;
  /**
   * fp8.
   */
  fp8?: number;
  /**
   * int8.
   */
  int8?: number;
  /**
   * int4.
   */
  int4?: number;
  /**
   * fp4.
   */
  fp4?: number;
};
/**
 * FLOPs per dollar per dtype (scaling-book/applied-inference, cost). [FLOPs/USD]
 */
export type FlopsPerUsd = {
  /**
   * fp32.
   */
  fp32?: number;
  /**
   * bf16.
   */
  bf16?: number;
  /**
   * fp8.
   */
  fp8?: number;
  /**
   * int8.
   */
  int8?: number;
  /**
   * int4.
   */
  int4?: number;
  /**
   * fp4.
   */
  fp4?: number;
};
/**
 * HBM critical intensity per dtype (scaling-book/tpus). [FLOPs/byte]
 */
export type HbmCriticalIntensity = {
  /**
   * fp32.
   */
  fp32?: number;
  /**
   * bf16.
   */
  bf16?: number;
  /**
   * fp8.
   */
  fp8?: number;
  /**
   * int8.
   */
  int8?: number;
  /**
   * int4.
   */
  int4?: number;
  /**
   * fp4.
   */
  fp4?: number;
};
/**
 * The result of a chip query (docs/api.md).
 */
export type ChipResult = {
  /**
   * DCN critical intensity. [FLOPs/byte]
   */
  dcn_critical_intensity_flops_per_byte?: number;
  /**
   * One NVLink domain's egress. [bytes/s]
   */
  domain_egress_unidir_bytes_per_s?: number;
  /**
   * Which model made the numbers.
   */
  fidelity?: Fidelity;
  /**
   * FLOPs per dollar (scaling-book/applied-inference, cost).
   */
  flops_per_usd: FlopsPerUsd;
  /**
   * The geometry's peak over the preset's. [fraction]
   */
  geometry_to_preset_peak_frac?: number;
  /**
   * HBM bandwidth. [bytes/s]
   */
  hbm_bandwidth_bytes_per_s: number;
  /**
   * HBM capacity. [bytes]
   */
  hbm_capacity_bytes: number;
  /**
   * The bf16 batch above which a matmul is compute-bound. [tokens]
   */
  hbm_critical_batch_bf16_tokens: number;
  /**
   * HBM critical intensity per dtype (scaling-book/tpus).
   */
  hbm_critical_intensity_flops_per_byte: HbmCriticalIntensity;
  /**
   * Host link critical intensity. [FLOPs/byte]
   */
  host_critical_intensity_flops_per_byte: number;
  /**
   * ICI bandwidth per axis, both directions. [bytes/s per axis]
   */
  ici_bidir_bytes_per_s_per_axis?: number;
  /**
   * ICI critical intensity. [FLOPs/byte]
   */
  ici_critical_intensity_flops_per_byte?: number;
  /**
   * Below this many bytes one hop is latency-bound (scaling-book/sharding). [bytes per hop]
   */
  ici_latency_bound_bytes_per_hop?: number;
  /**
   * The id.
   */
  id: string;
  /**
   * The kind.
   */
  kind: string;
  /**
   * One matrix unit's FLOPs per cycle. [FLOPs per unit per cycle]
   */
  matrix_flops_per_unit_per_cycle?: number;
  /**
   * Largest model pure DP holds (HBM / 10 bytes). [params]
   */
  max_params_pure_dp: number;
  /**
   * The name.
   */
  name: string;
  /**
   * The memories below HBM.
   */
  on_chip: {
    /**
     * L2 bandwidth. [bytes/s]
     */
    l2_bandwidth_bytes_per_s?: number;
    /**
     * L2 per chip. [bytes]
     */
    l2_bytes?: number;
    /**
     * Registers per chip. [bytes]
     */
    register_bytes?: number;
    /**
     * Registers per SM. [bytes per SM]
     */
    register_bytes_per_sm?: number;
    /**
     * SMs.
     */
    sm_count?: number;
    /**
     * Shared memory per chip. [bytes]
     */
    smem_bytes?: number;
    /**
     * Shared memory per SM. [bytes per SM]
     */
    smem_bytes_per_sm?: number;
    /**
     * Vector registers per chip. [bytes]
     */
    vector_register_bytes?: number;
    /**
     * Vector registers per core. [bytes per core]
     */
    vector_register_bytes_per_core?: number;
    /**
     * VMEM bandwidth. [bytes/s]
     */
    vmem_bandwidth_bytes_per_s?: number;
    /**
     * VMEM per chip. [bytes]
     */
    vmem_bytes?: number;
  };
  /**
   * On-chip critical intensity. [FLOPs/byte]
   */
  on_chip_critical_intensity_flops_per_byte?: number;
  /**
   * 2 x MACs x units x clock. [FLOP/s]
   */
  peak_bf16_flops_per_s_from_geometry?: number;
  /**
   * Peak FLOP/s.
   */
  peak_flops_per_s: PeakFlopsPerDtype;
  /**
   * Price. [USD per chip hour]
   */
  price_usd_per_chip_hour: number;
  /**
   * Scale-out critical intensity. [FLOPs/byte]
   */
  scale_out_critical_intensity_flops_per_byte?: number;
  /**
   * NVLink critical intensity. [FLOPs/byte]
   */
  scale_up_critical_intensity_flops_per_byte?: number;
  /**
   * 2C / W_link (scaling-book/roofline).
   */
  two_chip_contracting_dim_threshold?: number;
  /**
   * The clock the vector peak implies with FMAs. [Hz]
   */
  vector_clock_hz_if_fma?: number;
  /**
   * fp32 vector throughput from the lanes and the clock, one FLOP per lane per cycle. [FLOP/s]
   */
  vector_flops_per_s_from_lanes?: number;
  /**
   * The same with fused multiply-adds: two FLOPs per lane per cycle. [FLOP/s]
   */
  vector_flops_per_s_from_lanes_with_fma?: number;
  /**
   * Vector critical intensity. [FLOPs/byte]
   */
  vector_critical_intensity_flops_per_byte?: number;
  /**
   * fp32 vector throughput. [FLOP/s]
   */
  vector_flops_per_s?: number;
  /**
   * fp32 vector lanes.
   */
  vector_lanes?: number;
  /**
   * Vector over matrix peak.
   */
  vector_to_matrix_ratio?: number;
};
/**
 * The result of a collective query (docs/api.md).
 */
export type CollectiveResult = {
  /**
   * The mesh axes the collective spans.
   */
  axes: string[];
  /**
   * The bandwidth term: bytes over the links. [s]
   */
  bandwidth_s: number;
  /**
   * Bytes moved or stored. [bytes]
   */
  bytes: number;
  /**
   * Bytes of one device's shard of V. [bytes per device]
   */
  bytes_per_device_shard: number;
  /**
   * Devices in one group. [devices]
   */
  devices_in_group: number;
  /**
   * Bytes per second the collective achieves. [bytes/s]
   */
  effective_bandwidth_bytes_per_s: number;
  /**
   * Which model made the numbers.
   */
  fidelity?: Fidelity;
  /**
   * The latency term. [s]
   */
  latency_s: number;
  /**
   * The collective.
   */
  op: 'all_gather' | 'reduce_scatter' | 'all_reduce' | 'all_to_all';
  /**
   * Bandwidth- or latency-bound.
   */
  regime: 'bandwidth' | 'latency';
  /**
   * Time. [s]
   */
  time_s: number;
  /**
   * Share of the dense traffic (ragged AllToAll). [fraction]
   */
  traffic_fraction: number;
};
/**
 * The parts of a scenario the configuration gives; the hardware is the scenario's.
 */
export type ImportedScenario = {
  /**
   * The plan: a training_step or serving query in degrees (launch_config's plan's form; a speculative serving plan names its lookahead only: add the draft and its acceptance to price it).
   */
  query: TrainingStepQuery | LaunchedServingPlan;
  /**
   * A GPU plan's chips as one count (and slices), or a serving replica's own EP x TP axes; absent for a TPU plan read against the scenario's torus.
   */
  mesh?: Mesh;
  /**
   * The model the config spells out or names by an engine preset (absent when the scenario gives one).
   */
  model?: ModelRef;
};
/**
 * A serving replica as the framework sees it: a serving query on the replica's own axes (TP, and EP with experts), and its speculative lookahead.
 */
export type LaunchedServingPlan = {
  /**
   * The query kind.
   */
  kind: 'serving';
  /**
   * Sequences decoded together.
   */
  batch: number;
  /**
   * Tokens of each prompt. [tokens]
   */
  prompt_len: number;
  /**
   * Tokens generated per sequence. [tokens]
   */
  generated_len: number;
  /**
   * The dtypes of the weights, the KV cache and the activations [bf16 each; the weights: the model's weights_dtype if it has one].
   */
  dtypes: {
    /**
     * The weights' dtype [the model's weights_dtype, else bf16].
     */
    weights?: Dtype;
    /**
     * The KV cache's dtype [bf16].
     */
    kv?: Dtype & string;
    /**
     * The activations' dtype [bf16].
     */
    activations?: Dtype & string;
  };
  /**
   * The replica's parallelism: tensor axes (1D Megatron) or layout 2d with x and yz axes, and expert axes.
   */
  parallelism: {
    /**
     * 1D Megatron (tensor) or 2D weight-stationary (x and yz) [1d].
     */
    layout?: '1d' | '2d';
    /**
     * Tensor parallelism's axes (1d).
     */
    tensor?: AxisList;
    /**
     * 2D weight-stationary: the x axes.
     */
    x?: AxisList;
    /**
     * 2D weight-stationary: the yz axes.
     */
    yz?: AxisList;
    /**
     * Wide expert parallelism with attention data parallel: the routed experts split over these axes.
     */
    expert?: AxisList;
    /**
     * The experts' TP [the TP degree]; smaller folds the other TP ranks into the expert group. [chips]
     */
    expert_tensor?: number;
  };
  /**
   * Speculative decoding, when the plan decodes so (import_config writes the same).
   */
  speculative?: {
    /**
     * Tokens the draft proposes per step. [tokens]
     */
    lookahead: number;
  };
};
/**
 * A setting of the configuration read into the scenario.
 */
export type MappedSetting = {
  /**
   * The setting's name as the framework spells it (without dashes).
   */
  key: string;
  /**
   * Its value as written.
   */
  value: string;
  /**
   * Its line in the text (1: the first).
   */
  line: number;
  /**
   * The JSON pointer it became, into the scenario's query (or /mesh, /model).
   */
  setting: string;
};
/**
 * A setting of the configuration not read into the scenario.
 */
export type UnmappedSetting = {
  /**
   * The setting's name as the framework spells it (without dashes).
   */
  key: string;
  /**
   * Its value as written.
   */
  value: string;
  /**
   * Its line in the text (1: the first).
   */
  line: number;
  /**
   * Why: not a setting the engine prices, a value out of range, a recipe the engine does not price.
   */
  reason: string;
};
/**
 * A launch configuration read back: the scenario it runs, each setting read and the one it became, each setting not read and why, and the framework defaults the plan took.
 */
export type ImportConfigResult = {
  /**
   * Which model made the numbers.
   */
  fidelity: Fidelity;
  /**
   * The framework read.
   */
  framework: Framework;
  scenario: ImportedScenario;
  /**
   * Each setting read, in the text's order, and the JSON pointer it became.
   */
  mapped: MappedSetting[];
  /**
   * Each setting not read, in the text's order, and why.
   */
  unmapped: UnmappedSetting[];
  /**
   * Each framework default the plan took where the config is silent (Megatron-LM's 0.1 dropout, MaxText's remat_policy full).
   */
  assumed: string[];
};
/**
 * The result of a kernel_family query (docs/api.md).
 */
export type KernelFamilyResult = {
  /**
   * Which model made the numbers.
   */
  fidelity?: Fidelity;
  /**
   * The family's kernel models: each constant the geometric mean over the chips that fitted its model (source.unfitted: the models no chip fitted, which keep the first chip's).
   */
  family: KernelModels;
  /**
   * The chips in the order given.
   *
   * Items: One chip's kernel models, filled in.
   */
  chips: {
    /**
     * The chip, as given.
     */
    hardware: string;
    /**
     * Its kernel models, those it had no table for taken from the family.
     */
    kernels: KernelModels;
  }[];
};
/**
 * One kernel model's |predicted / measured - 1| on its table's rows, split before the fit.
 */
export type KernelScore = {
  /**
   * The model: gemm, moe, prefill_attention, decode_attention, collective; "prefill_attention (MLA)" and "decode_attention (MLA)" for the latent-attention tables, predicted and never fitted.
   */
  op: string;
  /**
   * The GEMM kind or collective ("" for ops with one model).
   */
  variant: string;
  /**
   * The shape family held out whole, in words.
   */
  held_family: string;
  /**
   * Rows the model was fitted on. [rows]
   */
  fit_rows: number;
  /**
   * Every fifth row, held out (interpolation between measured shapes). [rows]
   */
  held_rows: number;
  /**
   * Rows of the held shape family (all rows of a table that is only predicted). [rows]
   */
  family_rows: number;
  /**
   * Median error on the fit rows. [fraction]
   */
  fit_median_frac: number;
  /**
   * Median error on the held rows. [fraction]
   */
  held_median_frac: number;
  /**
   * 90th percentile error on the held rows. [fraction]
   */
  held_p90_frac: number;
  /**
   * Median error on the held shape family. [fraction]
   */
  family_median_frac: number;
  /**
   * 90th percentile error on the held shape family. [fraction]
   */
  family_p90_frac: number;
  /**
   * Median signed error over the held and family rows (below 0: the model is fast). [fraction]
   */
  signed_median_frac: number;
  /**
   * How the fit stopped ("" for a table that is only predicted).
   */
  stop: 'converged' | 'stalled' | 'iteration_limit' | 'work_limit' | '';
  /**
   * Iterations of the fit.
   */
  iterations: number;
};
/**
 * The result of a kernel_fit query (docs/api.md).
 */
export type KernelFitResult = {
  /**
   * Which model made the numbers.
   */
  fidelity?: Fidelity;
  /**
   * The chip the tables were measured on.
   */
  hardware: string;
  /**
   * The fitted kernel models (a calibration profile's kernels); the models without a table keep the stated defaults and are listed in source.unfitted.
   */
  kernels: KernelModels;
  /**
   * The GEMM tiling the bf16 GEMM fit chose (a profile's tiling).
   */
  tiling: MatmulTiling;
  /**
   * Per model fitted (and per latent-attention table, predicted only): its error on the fit rows, the held rows and the held shape family.
   */
  scores: KernelScore[];
};
/**
 * A setting of the plan the framework's configuration cannot carry.
 */
export type UnexpressedSetting = {
  /**
   * Its JSON pointer into plan.
   */
  setting: string;
  /**
   * What the plan has and the framework does not, for people.
   */
  text: string;
};
/**
 * The plan as the framework's configuration, ready to run or to paste, with what the framework cannot carry and what the engine does not decide.
 */
export type LaunchConfigResult = {
  /**
   * Which model made the numbers.
   */
  fidelity: Fidelity;
  /**
   * The framework written for.
   */
  framework: Framework;
  /**
   * The framework and the form of its configuration, for people.
   */
  title: string;
  /**
   * The text's format: a command line, YAML or JSON (the first two with # comments).
   */
  format: 'command_line' | 'yaml' | 'json';
  /**
   * The configuration: # comments, where the format has them, say what it leaves out (unexpressed, undecided).
   */
  text: string;
  /**
   * The plan as the framework sees it: the training_step or serving query in degrees, every setting the written keys decide filled in; a strategy wholly across slices is pinned to the DCN axis.
   */
  plan: TrainingStepQuery | LaunchedServingPlan;
  /**
   * Each setting of the plan the framework's config cannot carry: reading text back changes these and nothing else.
   */
  unexpressed: UnexpressedSetting[];
  /**
   * What the engine does not decide and the config leaves to you: data paths, learning rate, checkpoints, the launch on each node.
   */
  undecided: string[];
};
/**
 * The result of a matmul query (docs/api.md).
 */
export type MatmulResult = {
  /**
   * The roofline: min(peak, intensity x bandwidth). [FLOP/s]
   */
  attainable_flops_per_s: number;
  /**
   * The memory bandwidth used. [bytes/s]
   */
  bandwidth_bytes_per_s: number;
  /**
   * What binds.
   */
  bound: string;
  /**
   * Bytes moved or stored. [bytes]
   */
  bytes: number;
  /**
   * (C/W) x bytes per weight / 2 (scaling-book/roofline).
   */
  compute_bound_batch_approx: number;
  /**
   * The batch where compute time equals memory time (0: never).
   */
  compute_bound_batch_exact: number;
  /**
   * Compute time. [s]
   */
  compute_s: number;
  /**
   * Peak over bandwidth: above it, compute binds. [FLOPs/byte]
   */
  critical_intensity_flops_per_byte: number;
  /**
   * Which model made the numbers.
   */
  fidelity?: Fidelity;
  /**
   * FLOPs. [FLOPs]
   */
  flops: number;
  /**
   * FLOPs per byte moved. [FLOPs/byte]
   */
  intensity_flops_per_byte: number;
  /**
   * Perfect overlap: the max of the terms. [s]
   */
  lower_bound_s: number;
  /**
   * Memory time. [s]
   */
  memory_s: number;
  /**
   * Peak FLOP/s. [FLOP/s]
   */
  peak_flops_per_s: number;
  /**
   * No overlap: the sum of the terms. [s]
   */
  upper_bound_s: number;
};
/**
 * The result of a mlp_roofline query (docs/api.md).
 */
export type MlpRooflineResult = {
  /**
   * Chips. [chips]
   */
  chips: number;
  /**
   * Communication binds at every batch.
   */
  comms_bound_at_every_batch: boolean;
  /**
   * Below this batch, communication binds.
   */
  comms_bound_below_batch: number;
  /**
   * Which model made the numbers.
   */
  fidelity?: Fidelity;
  /**
   * FSDP.
   */
  fsdp: number;
  /**
   * M_X.
   */
  fsdp_axes: number;
  /**
   * X_opt (scaling-book/training, mixed FSDP + TP).
   */
  fsdp_optimal_degree: number;
  /**
   * One point per batch.
   */
  points: {
    /**
     * Sequences (or tokens) in the batch.
     */
    batch: number;
    /**
     * What binds.
     */
    bound: string;
    /**
     * Communication time. [s]
     */
    comms_s: number;
    /**
     * Compute time. [s]
     */
    compute_s: number;
    /**
     * FSDP's comms. [s]
     */
    fsdp_s: number;
    /**
     * TP comms. [s]
     */
    tp_s: number;
  }[];
  /**
   * TP degree.
   */
  tp: number;
  /**
   * M_Y.
   */
  tp_axes: number;
};
/**
 * The result of a model query (docs/api.md): the model as an inline model object, which a scenario can carry in place of the one it came from and get the same numbers.
 */
export type ModelResult = {
  /**
   * The preset fields the engine computes with (latent attention's derived kv_heads and head_dim included), and not_modelled: what the config.json's family, the preset or the inline model says the engine leaves out.
   */
  model: ResolvedModelWithGaps;
  /**
   * Which model made the numbers.
   */
  fidelity?: Fidelity;
};
/**
 * The result of a nearest_fit query (docs/api.md): the scenario that fits, or the nearest that runs, and each value changed.
 */
export type NearestFitResult = {
  /**
   * A scenario was found that runs, fits in HBM and warns of nothing.
   */
  fits: boolean;
  /**
   * That scenario, with the question as its query (runnable as it is); when none fits, the question on its nearest runnable degrees.
   */
  scenario: Scenario;
  /**
   * Every value that differs from the question; a question that became a serving one is one change at /query/kind.
   */
  changes: {
    /**
     * The value's JSON pointer in the scenario (the question at /query).
     */
    path: string;
    /**
     * Its value in the question (null: unset).
     */
    from: number | string | boolean | null;
    /**
     * Its value in the answer (null: unset).
     */
    to: number | string | boolean | null;
    /**
     * Why it moved.
     */
    reason: string;
  }[];
  /**
   * Candidates the engine evaluated. [scenarios]
   */
  scenarios_tried: number;
  /**
   * The fidelity each candidate was judged at: the question's.
   */
  fidelity: Fidelity;
};
/**
 * Degrees per strategy (serving: tensor and expert).
 */
export type PlanMeshDegrees = {
  /**
   * The data degree.
   */
  data?: number;
  /**
   * The fsdp degree.
   */
  fsdp?: number;
  /**
   * The tensor degree.
   */
  tensor?: number;
  /**
   * The pipeline degree.
   */
  pipeline?: number;
  /**
   * The expert degree.
   */
  expert?: number;
  /**
   * The context degree.
   */
  context?: number;
};
/**
 * One change toward the nearest runnable question.
 */
export type PlanMeshChange = {
  /**
   * The query key that changed (/query/parallelism/<strategy>, /query/chips, /query/batch_tokens).
   */
  path: string;
  /**
   * Its value as asked.
   */
  from: number;
  /**
   * Its value now (null: the key is dropped).
   */
  to: number | null;
  /**
   * Why, in words.
   */
  reason: string;
};
/**
 * The result of a plan_mesh query (docs/api.md).
 */
export type PlanMeshResult = {
  /**
   * The degrees lay out on the chip, the model splits into them and a fixed chip count splits.
   */
  runs: boolean;
  /**
   * Why they do not run, at the query's keys (empty when they do).
   */
  problems: Diagnostic[];
  /**
   * The degrees after a fixed chip count set the balancing one.
   */
  degrees: PlanMeshDegrees;
  /**
   * The degree a fixed chip count sets: TP for a serving replica, else FSDP, or DP when only DP is on.
   */
  balancing: 'data' | 'fsdp' | 'tensor' | 'pipeline' | 'expert' | 'context';
  /**
   * The chips the degrees ask for, the slices included. [chips]
   */
  chips: number;
  /**
   * A fixed chip count is a multiple of this: the other degrees' chips times the slices. [chips]
   */
  chips_multiple_of: number;
  /**
   * The mesh the degrees lay out on, for a training_step or serving query (absent when they do not).
   */
  mesh?: {
    /**
     * The slice's axis sizes.
     */
    shape: number[];
    /**
     * The axes' names (X, Y, Z, ...).
     */
    axis_names: string[];
    /**
     * Slices joined over DCN. [slices]
     */
    slices: number;
  };
  /**
   * Each strategy's whole axes by name (the DCN axis too), or its degree where the engine lays it out.
   */
  parallelism?: {
    /**
     * The data strategy's axes, or degree.
     */
    data?: string[] | number;
    /**
     * The fsdp strategy's axes, or degree.
     */
    fsdp?: string[] | number;
    /**
     * The tensor strategy's axes, or degree.
     */
    tensor?: string[] | number;
    /**
     * The pipeline strategy's axes, or degree.
     */
    pipeline?: string[] | number;
    /**
     * The expert strategy's axes, or degree.
     */
    expert?: string[] | number;
    /**
     * The context strategy's axes, or degree.
     */
    context?: string[] | number;
  };
  /**
   * The strategies are given as degrees for the engine to lay out (no whole-axis split fits).
   */
  engine_layout?: boolean;
  /**
   * Chips in one slice of the mesh. [chips]
   */
  chips_per_slice?: number;
  /**
   * Per strategy listed, the degrees the model splits into (with a fixed count, those that leave the balancing degree whole and splitting too); the balancing strategy is left out while the count is fixed.
   */
  valid_degrees: {
    /**
     * The data degrees that run.
     */
    data?: number[];
    /**
     * The fsdp degrees that run.
     */
    fsdp?: number[];
    /**
     * The tensor degrees that run.
     */
    tensor?: number[];
    /**
     * The pipeline degrees that run.
     */
    pipeline?: number[];
    /**
     * The expert degrees that run.
     */
    expert?: number[];
    /**
     * The context degrees that run.
     */
    context?: number[];
  };
  /**
   * The nearest question that runs, when anything had to change.
   */
  nearest?: {
    /**
     * Its degrees.
     */
    parallelism: PlanMeshDegrees;
    /**
     * Its fixed chip count (null: none, or dropped). [chips]
     */
    chips: number | null;
    /**
     * Its batch: whole sequences, at least one token per data shard. [tokens]
     */
    batch_tokens?: number;
    /**
     * Its slices over DCN (training; GPU clusters have none). [slices]
     */
    slices?: number;
    /**
     * Its experts' TP, when the question gave one (null: dropped, so it is the TP degree).
     */
    expert_tensor?: number | null;
    /**
     * What changed, in order, each with its reason.
     */
    changes: PlanMeshChange[];
  };
  /**
   * Which model made the numbers.
   */
  fidelity: Fidelity;
};
/**
 * The result of a plan_search query (docs/api.md).
 */
export type PlanSearchResult = {
  /**
   * The calibration behind the numbers.
   */
  calibration?: CalibrationInfo;
  /**
   * The whole space was searched.
   */
  complete: boolean;
  /**
   * How many plans each stage saw.
   */
  counts: SearchCounts;
  /**
   * While not complete: pass it back as resume.
   */
  cursor?: {
    /**
     * How many plans each stage saw.
     */
    counts: SearchCounts;
    /**
     * The next plan's index.
     */
    next: number;
    /**
     * Indices of the plans kept.
     */
    retained: number[];
  };
  /**
   * Plans or deployments evaluated.
   */
  evaluated: number;
  /**
   * Which model made the numbers.
   */
  fidelity?: Fidelity;
  /**
   * Plans or deployments that fit.
   */
  fitting: number;
  /**
   * What best means.
   */
  objective: string;
  /**
   * The front, fastest first, memory falling (at most 200 listed).
   */
  pareto: SearchedPlanCore[];
  /**
   * Plans on the front.
   */
  pareto_size: number;
  /**
   * The best plans, best first.
   */
  plans: SearchedPlan[];
  /**
   * Share of the space searched. [fraction]
   */
  progress_frac: number;
  /**
   * Plans in the space.
   */
  space: number;
  /**
   * How the space was built.
   */
  space_breakdown: {
    /**
     * Combinations of degrees in the space.
     */
    degree_combinations: number;
    /**
     * Layouts in the space.
     */
    layouts: number;
    /**
     * Degree combinations left out, per reason.
     */
    rejected_by: {
      [k: string]: number;
    };
    /**
     * Combinations left out.
     */
    rejected_degree_combinations: number;
  };
  /**
   * What stopped the chunk.
   */
  stopped_by?: 'chunk_plans' | 'work_limit';
  /**
   * Plans that can run.
   */
  valid: number;
};
/**
 * How a calibrated number was made: the profile, and how well it predicted published runs it was not fitted on.
 */
export type CalibrationInfo = {
  /**
   * The out-of-sample error and where it holds.
   */
  error_band: {
    /**
     * Largest absolute error. [fraction]
     */
    max_frac: number;
    /**
     * Median absolute error. [fraction]
     */
    median_frac: number;
    /**
     * Why the plan lies outside the fitted span, one phrase each.
     */
    outside: string[];
    /**
     * 90th percentile absolute error. [fraction]
     */
    p90_frac: number;
    /**
     * Runs.
     */
    runs: number;
    /**
     * fitted: inside the fit runs' span (the sibling band); transfer: outside it, or a chip without runs of its own; unrecorded: a profile without a fitted_scope.
     */
    scope: 'fitted' | 'transfer' | 'unrecorded';
    /**
     * Median signed error. [fraction]
     */
    signed_median_frac: number;
    /**
     * The band in a sentence.
     */
    text: string;
  };
  /**
   * The calibration profile used.
   */
  profile: {
    /**
     * The chip has no profile of its own: its family's is used.
     */
    family_fallback?: boolean;
    /**
     * The runs it was fitted on.
     */
    fitted_on: string[];
    /**
     * The id.
     */
    id: string;
    /**
     * The name.
     */
    name: string;
    /**
     * The source.
     */
    source: string;
  };
  /**
   * The query's efficiency below 1 at the calibrated fidelity: the factors on the fitted rates, and a line saying so.
   */
  what_if?: {
    /**
     * Of the fitted FLOP rate. [fraction]
     */
    flops_frac: number;
    /**
     * Of the fitted HBM rate. [fraction]
     */
    hbm_frac: number;
    /**
     * Of the fitted link rates. [fraction]
     */
    network_frac: number;
    /**
     * In a sentence.
     */
    text: string;
  };
};
/**
 * How many plans of the space each stage saw.
 */
export type SearchCounts = {
  /**
   * Ranked plans the calibrated search never priced: their bound could not win.
   */
  bounded: number;
  /**
   * Layouts skipped: every collective costs what an earlier one's does.
   */
  equivalent: number;
  /**
   * Plans or deployments evaluated.
   */
  evaluated: number;
  /**
   * Plans or deployments that fit.
   */
  fitting: number;
  /**
   * Ranked plans another beats in step and memory.
   */
  pruned: number;
  /**
   * Plans ranked.
   */
  ranked: number;
  /**
   * Plans in the space.
   */
  space: number;
  /**
   * Plans that can run.
   */
  valid: number;
  /**
   * Plans with a warning.
   */
  with_warnings: number;
};
/**
 * A plan as plan_search writes it, in plans and in the Pareto front.
 */
export type SearchedPlanCore = {
  /**
   * The threshold with the smallest margin.
   */
  binding: string;
  /**
   * What binds.
   */
  bound: string;
  /**
   * The term that sets the step.
   */
  critical: string;
  /**
   * Each strategy's degree.
   */
  degrees: Degrees;
  /**
   * Fits in HBM.
   */
  fits: boolean;
  /**
   * What lives in host memory (offload). [bytes]
   */
  host_bytes: number;
  /**
   * Its ordinal in the space.
   */
  index: number;
  /**
   * Memory per chip. [bytes]
   */
  memory_bytes: number;
  /**
   * GPU plans: the mesh the plan runs on (one axis per strategy piece, outermost first).
   */
  mesh?: {
    /**
     * A name per axis.
     */
    axis_names: string[];
    /**
     * Chips per axis.
     */
    shape: number[];
  };
  /**
   * Model FLOPs utilisation. [fraction]
   */
  mfu_frac: number;
  /**
   * The microbatch in whole sequences. [sequences]
   */
  microbatch_sequences: number;
  /**
   * Host offload.
   */
  offload: {
    /**
     * Saved activations go to the host and back.
     */
    activations: boolean;
    /**
     * Adam's moments live on the host.
     */
    optimizer: boolean;
  };
  /**
   * The plan's parallelism, ready for a query.
   */
  parallelism: PlanParallelism;
  /**
   * The matmul precision.
   */
  precision: {
    /**
     * The matmul precision.
     */
    matmul: MatmulPrecision;
  };
  /**
   * The remat policy.
   */
  remat: Remat;
  /**
   * One step. [s]
   */
  step_s: number;
  /**
   * Tokens per second. [tokens/s]
   */
  tokens_per_s: number;
  /**
   * Time to train on train_tokens. [s]
   */
  train_time_s: number;
  /**
   * Cost to train on train_tokens. [USD]
   */
  train_usd: number;
  /**
   * Dollars per step. [USD per step]
   */
  usd_per_step: number;
  /**
   * A capacity the search tried: the MoE settings that reproduce the plan.
   */
  moe?: {
    /**
     * Each expert takes at most this many times its mean tokens (0: dropless).
     */
    capacity_factor: number;
    /**
     * Past the capacity: dropless, drop or pad.
     */
    token_policy: string;
  };
};
/**
 * Each strategy's degree (1: unused) and the slices.
 */
export type Degrees = {
  /**
   * The data degree.
   */
  data: number;
  /**
   * The fsdp degree.
   */
  fsdp: number;
  /**
   * The tensor degree.
   */
  tensor: number;
  /**
   * The pipeline degree.
   */
  pipeline: number;
  /**
   * The expert degree.
   */
  expert: number;
  /**
   * The context degree.
   */
  context: number;
  /**
   * TPU slices over DCN. [slices]
   */
  slices: number;
};
/**
 * A plan as the engine writes it, ready for a training_step query: each strategy on whole mesh axes or sub-axes, and its settings.
 */
export type PlanParallelism = {
  /**
   * Data parallelism.
   */
  data?: PlacedAxisRef[];
  /**
   * FSDP.
   */
  fsdp?: PlacedAxisRef[];
  /**
   * Tensor parallelism.
   */
  tensor?: PlacedAxisRef[];
  /**
   * Pipeline parallelism.
   */
  pipeline?: PlacedAxisRef[];
  /**
   * Expert parallelism.
   */
  expert?: PlacedAxisRef[];
  /**
   * Context parallelism.
   */
  context?: PlacedAxisRef[];
  /**
   * ZeRO stage.
   */
  zero_stage?: number;
  /**
   * Sequence parallelism with TP.
   */
  sequence_parallel?: boolean;
  /**
   * The pipeline schedule.
   */
  pipeline_schedule?: PipelineSchedule;
  /**
   * Model chunks per stage.
   */
  virtual_stages?: number;
  /**
   * Microbatches per step.
   */
  microbatches?: number;
  /**
   * Context parallelism's variant.
   */
  context_variant?: ContextVariant;
  /**
   * The experts' own TP degree.
   */
  expert_tensor?: number;
};
/**
 * A sub-axis as the engine writes a plan: its place (stride) always given.
 */
export type PlacedSubAxis = {
  /**
   * The mesh axis.
   */
  axis: string;
  /**
   * Chips in the sub-axis.
   */
  size: number;
  /**
   * Its place: 1 = innermost.
   */
  stride: number;
};
/**
 * Per strategy used, its place on the mesh.
 */
export type StrategyLayouts = {
  /**
   * Data parallelism.
   */
  data?: StrategyLayout;
  /**
   * FSDP.
   */
  fsdp?: StrategyLayout;
  /**
   * Tensor parallelism.
   */
  tensor?: StrategyLayout;
  /**
   * Pipeline parallelism.
   */
  pipeline?: StrategyLayout;
  /**
   * Expert parallelism.
   */
  expert?: StrategyLayout;
  /**
   * Context parallelism.
   */
  context?: StrategyLayout;
};
/**
 * One strategy's place on the mesh: its pieces, rings, shared links and bandwidth.
 */
export type StrategyLayout = {
  /**
   * Bytes per second an AllGather over this strategy's group achieves. [bytes/s]
   */
  all_gather_bandwidth_bytes_per_s: number;
  /**
   * Slices it spans over DCN. [slices]
   */
  dcn_slices: number;
  /**
   * The strategy's degree.
   */
  degree: number;
  /**
   * GPU: the GPUs one group spans. [GPUs]
   */
  gpus_spanned?: number;
  /**
   * ICI axes it spans.
   */
  ici_axes: number;
  /**
   * GPU: the NVLink domains one group spans.
   */
  nvlink_domains_spanned?: number;
  /**
   * The pieces of the mesh it runs on.
   */
  pieces: LayoutPiece[];
};
/**
 * A piece of the mesh a strategy runs on: size chips of an axis, stride apart.
 */
export type LayoutPiece = {
  /**
   * The mesh axis.
   */
  axis: string;
  /**
   * The whole axis's size.
   */
  axis_size: number;
  /**
   * TPU: groups interleaved on the same links.
   */
  links_shared_by?: number;
  /**
   * TPU: the group closes through the wraparound.
   */
  ring?: boolean;
  /**
   * Chips in the piece.
   */
  size: number;
  /**
   * Its place on the axis.
   */
  stride: number;
  /**
   * The DCN axis between slices.
   */
  dcn?: boolean;
};
/**
 * The result of a profile query (docs/api.md): the profile, as given or shipped, and why it is the one.
 */
export type ProfileResult = {
  /**
   * The profile, as given (or as shipped).
   */
  profile: CalibrationProfile;
  /**
   * Its id.
   */
  id: string;
  /**
   * It is its kind's family profile: none lists the chip.
   */
  family_fallback: boolean;
  /**
   * How many profiles it was chosen among (1: a profile given alone, or the shipped one).
   */
  among: number;
  /**
   * The engine's own, no calibration given.
   */
  shipped: boolean;
  /**
   * Which model made the numbers.
   */
  fidelity?: Fidelity;
};
/**
 * The result of a roofline query (docs/api.md).
 */
export type RooflineResult = {
  /**
   * The roofline: min(peak, intensity x bandwidth). [FLOP/s]
   */
  attainable_flops_per_s: number;
  /**
   * The memory bandwidth used. [bytes/s]
   */
  bandwidth_bytes_per_s: number;
  /**
   * What binds.
   */
  bound: string;
  /**
   * Bytes per chip. [bytes per chip]
   */
  bytes_per_chip: number;
  /**
   * Compute time. [s]
   */
  compute_s: number;
  /**
   * Peak over bandwidth: above it, compute binds. [FLOPs/byte]
   */
  critical_intensity_flops_per_byte: number;
  /**
   * Which model made the numbers.
   */
  fidelity?: Fidelity;
  /**
   * FLOPs per chip. [FLOPs per chip]
   */
  flops_per_chip: number;
  /**
   * FLOPs per byte moved. [FLOPs/byte]
   */
  intensity_flops_per_byte: number;
  /**
   * Perfect overlap: the max of the terms. [s]
   */
  lower_bound_s: number;
  /**
   * Memory time. [s]
   */
  memory_s: number;
  /**
   * Peak FLOP/s. [FLOP/s]
   */
  peak_flops_per_s: number;
  /**
   * No overlap: the sum of the terms. [s]
   */
  upper_bound_s: number;
  /**
   * The dtype whose peak the op ran at (left out with a peak of your own).
   */
  dtype?: Dtype;
};
/**
 * The result of a serving_search query (docs/api.md).
 */
export type ServingSearchResult = {
  /**
   * The calibration behind the numbers.
   */
  calibration?: CalibrationInfo;
  /**
   * Best first; only deployments that meet the targets.
   */
  deployments: ServingDeployment[];
  /**
   * Plans or deployments evaluated.
   */
  evaluated: number;
  /**
   * Which model made the numbers.
   */
  fidelity?: Fidelity;
  /**
   * Plans or deployments that fit.
   */
  fitting: number;
  /**
   * Fitting deployments on the latency x cost front, fastest first (at most 100).
   */
  frontier: ServingDeployment[];
  /**
   * Deployments on the front.
   */
  frontier_size: number;
  /**
   * Deployments that meet the targets.
   */
  meeting_targets: number;
  /**
   * What best means.
   */
  objective: string;
  /**
   * The serving engine's fitted runtime the deployments were priced with (null: the one-step model).
   */
  backend: ServingBackend | null;
};
/**
 * One deployment: mesh, parallelism, dtypes and batch go into a serving query as they are.
 */
export type ServingDeployment = {
  /**
   * Sequences (or tokens) in the batch.
   */
  batch: number;
  /**
   * What sets the latency: the decode step's bound, or prefill (colocated prompts).
   */
  bound: 'compute' | 'memory' | 'communication' | 'prefill';
  /**
   * One decode step. [s]
   */
  decode_step_s: number;
  /**
   * Each strategy's degree.
   */
  degrees: {
    /**
     * Expert parallelism.
     */
    expert: number;
    /**
     * The experts' TP degree.
     */
    expert_tensor: number;
    /**
     * Tensor parallelism.
     */
    tensor: number;
  };
  /**
   * Prefill on prefill servers.
   */
  disaggregated: boolean;
  /**
   * The weights' and KV cache's dtypes.
   */
  dtypes: {
    /**
     * The KV cache's dtype.
     */
    kv: Dtype;
    /**
     * The weights' dtype.
     */
    weights: Dtype;
  };
  /**
   * HBM capacity. [bytes]
   */
  hbm_capacity_bytes: number;
  /**
   * Per output token. [s]
   */
  latency_per_token_s: number;
  /**
   * Meets the latency targets.
   */
  meets_targets: boolean;
  /**
   * Memory per chip. [bytes]
   */
  memory_bytes: number;
  /**
   * The mesh the plan runs on.
   */
  mesh: {
    /**
     * Chips per axis.
     */
    shape: number[];
  };
  /**
   * The plan's parallelism, ready for a query.
   */
  parallelism: {
    /**
     * Expert parallelism.
     */
    expert?: string[];
    /**
     * Tensor parallelism.
     */
    tensor?: string[];
    /**
     * Wide EP: the experts' TP (1: every expert whole).
     */
    expert_tensor?: number;
  };
  /**
   * Prefilling one prompt. [s]
   */
  prefill_one_sequence_s: number;
  /**
   * Prefill servers. [servers]
   */
  prefill_servers: number;
  /**
   * In deployments only (1 = best).
   */
  rank?: number;
  /**
   * Replicas.
   */
  replicas: number;
  /**
   * One request's prompt prefilled alone. [s]
   */
  time_to_first_token_s: number;
  /**
   * Tokens per second. [tokens/s]
   */
  tokens_per_s: number;
  /**
   * Tokens per second per chip. [tokens/s per chip]
   */
  tokens_per_s_per_chip: number;
  /**
   * Chips in all. [chips]
   */
  total_chips: number;
  /**
   * Per million output tokens. [USD per million output tokens]
   */
  usd_per_million_output_tokens: number;
  /**
   * Under load, disaggregated: prefill workers per decode replica (0 otherwise). [workers]
   */
  prefill_workers_per_replica: number;
};
/**
 * The result of a serving query (docs/api.md).
 */
export type ServingResult = {
  /**
   * The calibration behind the numbers.
   */
  calibration?: CalibrationInfo;
  /**
   * Chips a per-token latency target needs (scaling-book/inference).
   */
  chips_for_latency_target?: {
    /**
     * Chips. [chips]
     */
    chips: number;
    /**
     * The per-token target. [s]
     */
    latency_target_s: number;
    /**
     * What limits it.
     */
    limited_by: string;
    /**
     * The fewest chips. [chips]
     */
    min_chips: number;
  };
  /**
   * The batch above which decode is compute-bound.
   */
  compute_bound_batch: number;
  /**
   * The dtypes the answer prices.
   */
  dtypes: {
    /**
     * The weights' dtype: the query's, else the model's weights_dtype, else bf16.
     */
    weights: Dtype;
    /**
     * The KV cache's dtype.
     */
    kv: Dtype;
    /**
     * The activations' and matmuls' dtype.
     */
    activations: Dtype;
  };
  /**
   * Continuous batching per decode step (scaling-book/inference).
   */
  continuous_batching: {
    /**
     * Sequences finishing per decode step. [sequences per step]
     */
    sequences_finished_per_step: number;
    /**
     * Tokens leaving the cache per decode step. [tokens per step]
     */
    tokens_evicted_per_step: number;
  };
  /**
   * The decode step.
   */
  decode: {
    /**
     * What binds.
     */
    bound: string;
    /**
     * Communication time. [s]
     */
    comms_s: number;
    /**
     * The term that sets the step.
     */
    critical: string;
    /**
     * What each term adds to the step.
     */
    exposed: ServingExposed;
    /**
     * FLOPs' time. [s]
     */
    flops_s: number;
    /**
     * Loading the KV caches. [s]
     */
    kv_load_s: number;
    /**
     * The MLPs' own roofline.
     */
    mlp_bound: 'compute' | 'memory';
    /**
     * Launches and fixed per-step time. [s]
     */
    overhead_s: number;
    /**
     * Loading the weights. [s]
     */
    param_load_s: number;
    /**
     * One step. [s]
     */
    step_s: number;
  };
  /**
   * generated_len decode steps. [s]
   */
  decode_time_s: number;
  /**
   * Replicas of this replica for the demand.
   */
  deployment?: ServingDeploymentCost;
  /**
   * Disaggregated prefill (scaling-book/inference).
   */
  disaggregation: {
    /**
     * Prefill servers per decode server. [servers per decode server]
     */
    prefill_servers_per_decode_server: number;
    /**
     * Prefilling one prompt. [s]
     */
    prefill_time_one_sequence_s: number;
  };
  /**
   * Which model made the numbers.
   */
  fidelity?: Fidelity;
  /**
   * The book's numbers for the same plan.
   */
  ideal?: {
    /**
     * Whether the book's time to first token is below the calibrated one.
     */
    lower_bound: boolean;
    /**
     * Where the book's time to first token is not a lower bound: its largest term, above the calibrated prefill's whole time.
     */
    above_estimate?: {
      /**
       * The book's term.
       */
      part: 'flops' | 'param_load' | 'comms';
      /**
       * The time it is above.
       */
      metric: 'time_to_first_token_s';
      /**
       * The book's time for that term. [s]
       */
      book_s: number;
      /**
       * What the term adds to the calibrated time. [s]
       */
      calibrated_s: number;
      /**
       * In a sentence.
       */
      text: string;
    };
    /**
     * Replicas of this replica for the demand.
     */
    deployment?: ServingDeploymentCost;
    /**
     * Per output token. [s]
     */
    latency_per_token_s: number;
    /**
     * Time to first token plus decode. [s]
     */
    request_latency_s: number;
    /**
     * One request's prompt prefilled alone. [s]
     */
    time_to_first_token_s: number;
    /**
     * Tokens per second. [tokens/s]
     */
    tokens_per_s: number;
    /**
     * Per million output tokens. [USD per million output tokens]
     */
    usd_per_million_output_tokens: number;
  };
  /**
   * The KV length a decode step reads.
   */
  kv_context_len: number;
  /**
   * Per output token. [s]
   */
  latency_per_token_s: number;
  /**
   * Memory per chip.
   */
  memory: {
    /**
     * Chips whose HBM holds the weights (unrounded). [chips]
     */
    chips_for_params: number;
    /**
     * Fits in HBM.
     */
    fits: boolean;
    /**
     * HBM capacity. [bytes]
     */
    hbm_capacity_bytes: number;
    /**
     * One sequence's KV cache (with its copies). [bytes per sequence]
     */
    kv_bytes_per_sequence: number;
    /**
     * What one token adds to the KV caches. [bytes per token]
     */
    kv_bytes_per_token: number;
    /**
     * The replica's HBM left for KV caches once the weights are in, within the memory budget (0 when they do not fit). [bytes]
     */
    hbm_for_kv_bytes: number;
    /**
     * What the engine's memory budget gives the weights and KV caches together (memory_frac or free_memory_frac; the HBM when all of it). [bytes]
     */
    budget_bytes: number;
    /**
     * The largest batch that fits.
     */
    max_batch: number;
    /**
     * The fewest chips. [chips]
     */
    min_chips: number;
    /**
     * The fewest chips whose HBM holds the weights. [chips]
     */
    min_chips_for_params: number;
    /**
     * Weights' bytes. [bytes]
     */
    param_bytes: number;
    /**
     * Memory per chip in all. [bytes]
     */
    total_bytes: number;
  };
  /**
   * Prefill.
   */
  prefill: {
    /**
     * What binds.
     */
    bound: string;
    /**
     * Communication time. [s]
     */
    comms_s: number;
    /**
     * What each term adds to the step.
     */
    exposed: ServingExposed;
    /**
     * FLOPs' time. [s]
     */
    flops_s: number;
    /**
     * The book's 2NT / (chips C). [s]
     */
    matmul_flops_s: number;
    /**
     * Launches and fixed per-step time. [s]
     */
    overhead_s: number;
    /**
     * Loading the weights. [s]
     */
    param_load_s: number;
    /**
     * Sequences prefilled. [sequences]
     */
    sequences: number;
    /**
     * Time. [s]
     */
    time_s: number;
    /**
     * Tokens. [tokens]
     */
    tokens: number;
  };
  /**
   * Requests per second per chip. [queries/s per chip]
   */
  queries_per_s_per_chip: number;
  /**
   * Time to first token plus decode. [s]
   */
  request_latency_s: number;
  /**
   * Speculative decoding.
   */
  speculative?: {
    /**
     * One draft model step. [s]
     */
    draft_step_s: number;
    /**
     * Tokens accepted per verify step. [tokens per step]
     */
    expected_tokens_per_step: number;
    /**
     * The formula.
     */
    formula: string;
    /**
     * One draft-and-verify iteration. [s]
     */
    iteration_s: number;
    /**
     * Per output token. [s]
     */
    latency_per_token_s: number;
    /**
     * Over plain decoding.
     */
    speedup: number;
    /**
     * One verify step. [s]
     */
    verify_step_s: number;
  };
  /**
   * The latency-throughput sweep.
   */
  sweep: {
    /**
     * Sequences (or tokens) in the batch.
     */
    batch: number;
    /**
     * Communication time. [s]
     */
    comms_s: number;
    /**
     * Context parallelism.
     */
    context: number;
    /**
     * Fits in HBM.
     */
    fits: boolean;
    /**
     * FLOPs' time. [s]
     */
    flops_s: number;
    /**
     * Loading the KV caches. [s]
     */
    kv_load_s: number;
    /**
     * Per output token. [s]
     */
    latency_per_token_s: number;
    /**
     * Launches and fixed per-step time. [s]
     */
    overhead_s: number;
    /**
     * Loading the weights. [s]
     */
    param_load_s: number;
    /**
     * One step. [s]
     */
    step_s: number;
    /**
     * Tokens per second per chip. [tokens/s per chip]
     */
    tokens_per_s_per_chip: number;
  }[];
  /**
   * TP above which decode comms bind (scaling-book/inference).
   */
  tensor_parallel_compute_limit?: number;
  /**
   * TP whose HBM holds the weights.
   */
  tensor_parallel_hbm_limit?: number;
  /**
   * One request's prompt prefilled alone. [s]
   */
  time_to_first_token_s: number;
  /**
   * Tokens per second. [tokens/s]
   */
  tokens_per_s: number;
  /**
   * Tokens per second per chip. [tokens/s per chip]
   */
  tokens_per_s_per_chip: number;
  /**
   * Per million prompt tokens. [USD per million input tokens]
   */
  usd_per_million_input_tokens: number;
  /**
   * Per million output tokens. [USD per million output tokens]
   */
  usd_per_million_output_tokens: number;
  /**
   * Chips 2D weight-stationary needs. [chips]
   */
  weight_stationary_2d_min_chips?: number;
  /**
   * The steady state under the load asked for (closed-loop clients, continuous batching).
   */
  load?: {
    /**
     * Requests in flight. [requests]
     */
    concurrency: number;
    /**
     * Whether one sequence's KV cache fits beside the weights (false: nothing is served, the times are null).
     */
    fits: boolean;
    /**
     * Sequences decoding at once: the concurrency, or the sequences whose KV caches fit at their last token. [sequences]
     */
    in_flight: number;
    /**
     * Requests waiting for a KV slot. [requests]
     */
    queued: number;
    /**
     * Prompts prefilled together in one step (the token budget allows). [prompts]
     */
    prefill_group: number;
    /**
     * That step's prefill. [s]
     */
    prefill_group_s: number;
    /**
     * Decode steps between the openings of the gate that admits new prompts under attention data parallelism (1: every step). [steps]
     */
    admission_gate_steps: number;
    /**
     * A decode step of the sequences in flight at their mean context. [s]
     */
    decode_step_s: number;
    /**
     * The decode step plus the other requests' prefills it waits behind. [s]
     */
    time_per_output_token_s: number | null;
    /**
     * Half a step's wait, the step that prefills its group, and any wait for a KV slot. [s]
     */
    time_to_first_token_s: number | null;
    /**
     * The mean wait for a KV slot. [s]
     */
    slot_wait_s: number;
    /**
     * Time to first token plus the rest of the tokens. [s]
     */
    request_latency_s: number | null;
    /**
     * Requests finished per second. [requests/s]
     */
    requests_per_s: number;
    /**
     * Output tokens per second. [tokens/s]
     */
    output_tokens_per_s: number;
    /**
     * Output tokens per second per chip. [tokens/s]
     */
    output_tokens_per_s_per_chip: number;
    /**
     * One request's tokens per second while it decodes: 1 / time per output token. [tokens/s]
     */
    tokens_per_s_per_user: number;
    /**
     * The serving engine's fitted runtime used (null: the kernels' step as it is).
     */
    backend: ServingBackend | null;
    /**
     * One point per concurrency asked for (until nothing fits).
     */
    frontier?: {
      /**
       * Requests in flight. [requests]
       */
      concurrency: number;
      /**
       * Sequences decoding at once. [sequences]
       */
      in_flight: number;
      /**
       * Output tokens per second per chip. [tokens/s]
       */
      output_tokens_per_s_per_chip: number;
      /**
       * 1 / TPOT. [tokens/s]
       */
      tokens_per_s_per_user: number;
      /**
       * Time to first token. [s]
       */
      time_to_first_token_s: number;
      /**
       * Time per output token. [s]
       */
      time_per_output_token_s: number;
    }[];
    /**
     * Disaggregated: the prefill pool's load.
     */
    prefill_pool?: {
      /**
       * Prefill workers per decode replica. [workers]
       */
      workers_per_decode_replica: number;
      /**
       * A prefill worker's chips. [chips]
       */
      chips_per_worker: number;
      /**
       * The share of its time a prefill worker is busy (1: saturated, requests queue for it).
       */
      busy_frac: number;
      /**
       * One prompt's KV cache from a prefill worker to the decode replica. [s]
       */
      kv_transfer_s: number;
    };
  };
  /**
   * The decode step's and the prefill's main ops on one chip (the matmuls and attention of each layer kind, merged by name, and the logits), at the chip's roofline.
   */
  main_ops: MainOp[];
};
/**
 * What each term adds to the step: they sum to it.
 */
export type ServingExposed = {
  /**
   * Communication time. [s]
   */
  comms_s: number;
  /**
   * FLOPs' time. [s]
   */
  flops_s: number;
  /**
   * Loading the KV caches. [s]
   */
  kv_load_s: number;
  /**
   * Launches and fixed per-step time. [s]
   */
  overhead_s: number;
  /**
   * Loading the weights. [s]
   */
  param_load_s: number;
};
/**
 * Replicas of this replica for a demand: serving_search's row for it, to the last digit.
 */
export type ServingDeploymentCost = {
  /**
   * The output tokens per second served. [tokens/s]
   */
  demand_tokens_per_s: number;
  /**
   * Per output token. [s]
   */
  latency_per_token_s: number;
  /**
   * Prefill.
   */
  prefill: 'colocated' | 'disaggregated';
  /**
   * Prefill sets the latency.
   */
  prefill_bound: boolean;
  /**
   * Prefill servers. [servers]
   */
  prefill_servers: number;
  /**
   * Replicas.
   */
  replicas: number;
  /**
   * Tokens per second. [tokens/s]
   */
  tokens_per_s: number;
  /**
   * Tokens per second per chip. [tokens/s per chip]
   */
  tokens_per_s_per_chip: number;
  /**
   * Chips in all. [chips]
   */
  total_chips: number;
  /**
   * Per million output tokens. [USD per million output tokens]
   */
  usd_per_million_output_tokens: number;
};
/**
 * One of a step's main ops on one chip (a matmul or attention, as the step prices it) at the chip's roofline.
 */
export type MainOp = {
  /**
   * What the roofline lets it reach: min(peak, intensity x HBM bandwidth). [FLOP/s]
   */
  attainable_flops_per_s: number;
  /**
   * What bounds it at the chip's roofline: compute when its intensity is above the chip's critical intensity for its dtype.
   */
  bound: 'compute' | 'memory';
  /**
   * The dtype whose peak FLOP/s prices it (the weight matmuls in the matmul dtype, the rest in bf16).
   */
  dtype: Dtype;
  /**
   * Its FLOPs on one chip, one layer, forward (the mean over the layers that run it). [FLOPs]
   */
  flops: number;
  /**
   * Its HBM bytes on one chip: inputs and weights read, outputs written (decode attention: the KV caches read). [bytes]
   */
  hbm_bytes: number;
  /**
   * Arithmetic intensity: flops / hbm_bytes. [FLOPs/byte]
   */
  intensity_flops_per_byte: number;
  /**
   * A matmul, or the attention core (scores and weighted sum).
   */
  kind: 'matmul' | 'attention';
  /**
   * The model's layers that run it (1 for the logits). [layers]
   */
  layers: number;
  /**
   * The engine's name for it: qkv_projection, q_down_projection, kv_up_projection, attention, mlp_up, experts_up, logits, ...
   */
  name: string;
  /**
   * Serving: the decode step's op or the prefill's.
   */
  phase?: 'decode' | 'prefill';
  /**
   * Its time at the chip's roofline: max(FLOPs / peak, bytes / HBM bandwidth). [s]
   */
  time_s: number;
};
/**
 * One collective of a plan.
 */
export type CollectiveStep = {
  /**
   * The array's sharding after the collective ('(interleaved)' when it is).
   */
  after: string;
  /**
   * Present (true) when the gather left a more major axis of the split than it took: each shard holds every n-th block, not a contiguous one.
   */
  interleaved?: boolean;
  /**
   * The array, in the book's notation.
   */
  array: string;
  /**
   * The mesh axes the collective spans.
   */
  axes: string[];
  /**
   * The bandwidth term: bytes over the links. [s]
   */
  bandwidth_s: number;
  /**
   * The array's sharding before the collective.
   */
  before: string;
  /**
   * Bytes moved or stored. [bytes]
   */
  bytes: number;
  /**
   * The latency term. [s]
   */
  latency_s: number;
  /**
   * The collective.
   */
  op: 'all_gather' | 'reduce_scatter' | 'all_reduce' | 'all_to_all';
  /**
   * Bandwidth- or latency-bound.
   */
  regime: 'bandwidth' | 'latency';
  /**
   * Time. [s]
   */
  time_s: number;
};
/**
 * One plan of a sharded matmul: its collectives, compute, memory and bound.
 */
export type MatmulPlan = {
  /**
   * What binds.
   */
  bound: string;
  /**
   * Communication time. [s]
   */
  comms_s: number;
  /**
   * Compute time. [s]
   */
  compute_s: number;
  /**
   * FLOPs per device of the local matmul. [FLOPs per device]
   */
  flops_per_device: number;
  /**
   * HBM bytes of the local matmul (inputs and output). [bytes per device]
   */
  hbm_bytes_per_device: number;
  /**
   * FLOPs per byte moved. [FLOPs/byte]
   */
  intensity_flops_per_byte: number;
  /**
   * The local matmul.
   */
  local_matmul: string;
  /**
   * Perfect overlap: the max of the terms. [s]
   */
  lower_bound_s: number;
  /**
   * Memory time. [s]
   */
  memory_s: number;
  /**
   * The name.
   */
  name: string;
  /**
   * The output's sharding.
   */
  output: string;
  /**
   * Its collectives.
   */
  steps: CollectiveStep[];
  /**
   * No overlap: the sum of the terms. [s]
   */
  upper_bound_s: number;
};
/**
 * The result of a sharded_matmul query (docs/api.md).
 */
export type ShardedMatmulResult = {
  /**
   * Dimensions kept in the output (batch dimensions).
   */
  batch_dims: string[];
  /**
   * The cheapest plan (the first of plans).
   */
  best: MatmulPlan;
  /**
   * The book's case (scaling-book/sharding): 1 local, 2 one input sharded on the contraction, 3 both, 4 an axis on different free dims.
   */
  case: number;
  /**
   * The contracted dimensions.
   */
  contracting_dims: string[];
  /**
   * The case in words.
   */
  description: string;
  /**
   * Which model made the numbers.
   */
  fidelity?: Fidelity;
  /**
   * The plans, cheapest first.
   */
  plans: MatmulPlan[];
  /**
   * FLOPs of the whole matmul. [FLOPs]
   */
  total_flops: number;
  /**
   * FLOPs per device x chips. [FLOPs]
   */
  total_flops_all_devices: number;
};
/**
 * One of the book's thresholds for this plan: the closed form, the step model's verdict, and why they differ.
 */
export type Threshold = {
  /**
   * The plan's value of the threshold's quantity.
   */
  actual: number;
  /**
   * actual must reach required (at_least), or stay below it (at_most).
   */
  kind: 'at_least' | 'at_most';
  /**
   * actual/required or required/actual: below 1, violated.
   */
  margin: number;
  /**
   * The name.
   */
  name: string;
  /**
   * No errors.
   */
  ok: boolean;
  /**
   * Why the two verdicts differ.
   */
  reason: string;
  /**
   * The book's closed form for this plan.
   */
  required: number;
  /**
   * What the closed form leaves out.
   */
  simplification: string;
  /**
   * The step model's margin.
   */
  step_margin: number;
  /**
   * The step model clears it.
   */
  step_ok: boolean;
};
/**
 * The expected wall time to train once chips fail, checkpoints are saved and the job restarts (Young 1974, Daly 2006; issue 38).
 */
export type GoodputResult = {
  /**
   * Useful time over wall time (the effective training time ratio). [fraction]
   */
  goodput_frac: number;
  /**
   * False when failures come so much faster than the job can save and restart that less than 1% of its time trains.
   */
  finishes: boolean;
  /**
   * Expected wall-clock time to train (null: never, the job does not finish). [s]
   */
  wall_time_s: number | null;
  /**
   * The failure-free time to train (cost.train_time_s). [s]
   */
  useful_time_s: number;
  /**
   * Expected cost to train, spares included (null: never, the job does not finish). [USD]
   */
  wall_usd: number | null;
  /**
   * What the hot spares cost over the run (null: never, the job does not finish). [USD]
   */
  spares_usd: number | null;
  /**
   * The job's failure rate: its chips' and hosts'. [1/h]
   */
  job_failures_per_hour: number;
  /**
   * Mean time between the job's failures (null: never, the job does not finish). [s]
   */
  job_mtbf_s: number | null;
  /**
   * Expected interruptions over the run.
   */
  interruptions: {
    /**
     * Failures and planned restarts (null: the job does not finish). [interruptions]
     */
    expected: number | null;
    /**
     * Unexpected ones (null: the job does not finish). [interruptions]
     */
    failures: number | null;
    /**
     * Planned restarts (maintenance) (null: the job does not finish). [interruptions]
     */
    planned: number | null;
    /**
     * The Poisson 95% interval's low end (null: the job does not finish). [interruptions]
     */
    low_95: number | null;
    /**
     * The Poisson 95% interval's high end (null: the job does not finish). [interruptions]
     */
    high_95: number | null;
  };
  /**
   * What a checkpoint saves and what it costs.
   */
  checkpoint: {
    /**
     * How the step saves.
     */
    mode: 'blocking' | 'async' | 'in_memory';
    /**
     * A chip's parameters, master weights and optimizer state (after ZeRO). [bytes per chip]
     */
    bytes_per_chip: number;
    /**
     * The model's state once. [bytes]
     */
    unique_bytes: number;
    /**
     * The state to storage at every chip's share of its bandwidth (null: never, the job does not finish). [s]
     */
    write_s: number | null;
    /**
     * A chip's state to host memory (null: never, the job does not finish). [s]
     */
    snapshot_s: number | null;
    /**
     * What one checkpoint stalls the step (null: never, the job does not finish). [s]
     */
    blocking_s: number | null;
    /**
     * Young's optimum: sqrt(2 x blocking x MTBF) (null: never, the job does not finish). [s]
     */
    young_interval_s: number | null;
    /**
     * A step, and the previous save's write (async) or peer copy (in memory) (null: never, the job does not finish). [s]
     */
    min_interval_s: number | null;
    /**
     * The interval used: given or Young's, in whole steps (null: never, the job does not finish). [s]
     */
    interval_s: number | null;
    /**
     * Steps between checkpoints (null: never, the job does not finish). [steps]
     */
    interval_steps: number | null;
  };
  /**
   * What one interruption costs.
   */
  restart: {
    /**
     * Detecting the failure and swapping in a host. [s]
     */
    replace_s: number;
    /**
     * Relaunching the job. [s]
     */
    startup_s: number;
    /**
     * Reading a chip's checkpoint back (null: never, the job does not finish). [s]
     */
    load_s: number | null;
    /**
     * A failure's restart: replace, start, load (null: never, the job does not finish). [s]
     */
    restart_s: number | null;
    /**
     * A planned restart: start and load (null: never, the job does not finish). [s]
     */
    planned_restart_s: number | null;
    /**
     * Work redone after a failure: half an interval and its save (null: never, the job does not finish). [s]
     */
    lost_work_per_failure_s: number | null;
  };
  /**
   * Where the wall time beyond the useful time goes.
   */
  lost_time_s: {
    /**
     * Steps stalled by saves (null: the job does not finish). [s]
     */
    checkpoints: number | null;
    /**
     * Restarts (null: the job does not finish). [s]
     */
    restarts: number | null;
    /**
     * Work redone, and failures during restarts (null: the job does not finish). [s]
     */
    lost_work: number | null;
  };
  /**
   * Where adding chips stops paying: the job size with the shortest wall time if the step scaled perfectly (null: still shorter at 1024 x these chips). [chips]
   */
  chips_at_shortest_wall_time: number | null;
  /**
   * The settings used, defaults filled in.
   */
  settings: {
    /**
     * Interruptions per chip-hour. [1/h]
     */
    failures_per_chip_hour: number;
    /**
     * Interruptions per host-hour. [1/h]
     */
    failures_per_host_hour: number;
    /**
     * Chips per host. [chips]
     */
    chips_per_host: number;
    /**
     * Planned restarts per day. [1/day]
     */
    planned_interruptions_per_day: number;
    /**
     * Each chip's share of the storage bandwidth. [bytes/s]
     */
    storage_bytes_per_s_per_chip: number;
    /**
     * Hot spares. [chips]
     */
    spare_chips: number;
  };
  /**
   * Where each default comes from, by setting.
   */
  sources: {
    [k: string]: string;
  };
  /**
   * The headline: expected time, interruptions and goodput, or why the job never finishes.
   */
  text: string;
  /**
   * The run at 1/16 to 64 times its chips (doubling) with a perfect step while failures grow with the chips: for a chart of wall time against chips.
   */
  scaling: {
    /**
     * Chips in the job. [chips]
     */
    chips: number;
    /**
     * The failure-free time to train at that size. [s]
     */
    useful_time_s: number;
    /**
     * Expected wall-clock time to train (null: never, the job does not finish). [s]
     */
    wall_time_s: number | null;
    /**
     * Useful time over wall time (the effective training time ratio). [fraction]
     */
    goodput_frac: number;
  }[];
};
/**
 * The result of a summary query (docs/api.md).
 */
export type SummaryResult = {
  /**
   * The bounds query's result.
   */
  bounds?: BoundsResult;
  /**
   * The chip query's result.
   */
  chip: ChipResult;
  /**
   * Which model made the numbers.
   */
  fidelity?: Fidelity;
  /**
   * The transformer query's result.
   */
  model?: TransformerResult;
  /**
   * The default serving point's headline.
   */
  serving?: {
    /**
     * The calibration behind the numbers.
     */
    calibration?: {
      /**
       * The out-of-sample error and where it holds.
       */
      error_band: {
        /**
         * Where the band holds.
         */
        scope: 'fitted' | 'transfer' | 'unrecorded';
        /**
         * In a sentence.
         */
        text: string;
      };
      /**
       * The calibration profile used.
       */
      profile: {
        /**
         * The id.
         */
        id: string;
        /**
         * The name.
         */
        name: string;
      };
    };
    /**
     * The batch above which decode is compute-bound.
     */
    compute_bound_batch?: number;
    /**
     * The decode step.
     */
    decode?: {
      /**
       * What binds.
       */
      bound: string;
      /**
       * One step. [s]
       */
      step_s: number;
    };
    /**
     * Which model made the numbers.
     */
    fidelity: Fidelity;
    /**
     * The book's numbers for the same plan.
     */
    ideal?: {
      /**
       * Per output token. [s]
       */
      latency_per_token_s: number;
      /**
       * One request's prompt prefilled alone. [s]
       */
      time_to_first_token_s: number;
    };
    /**
     * Memory per chip.
     */
    memory?: {
      /**
       * Fits in HBM.
       */
      fits: boolean;
      /**
       * The largest batch that fits.
       */
      max_batch: number;
    };
    /**
     * Why the default plan could not run (its diagnostics).
     */
    problems?: string[];
    /**
     * The serving arguments it ran.
     */
    query: ServingQuery;
    /**
     * One request's prompt prefilled alone. [s]
     */
    time_to_first_token_s?: number;
    /**
     * Tokens per second per chip. [tokens/s per chip]
     */
    tokens_per_s_per_chip?: number;
    /**
     * Per million output tokens. [USD per million output tokens]
     */
    usd_per_million_output_tokens?: number;
  };
  /**
   * The topology query's result.
   */
  topology: TpuTopology | GpuTopology;
  /**
   * The default training step's headline.
   */
  training_step?: {
    /**
     * The threshold with the smallest margin.
     */
    binding?: string;
    /**
     * The calibration behind the numbers.
     */
    calibration?: {
      /**
       * The out-of-sample error and where it holds.
       */
      error_band: {
        /**
         * Where the band holds.
         */
        scope: 'fitted' | 'transfer' | 'unrecorded';
        /**
         * In a sentence.
         */
        text: string;
      };
      /**
       * The calibration profile used.
       */
      profile: {
        /**
         * The id.
         */
        id: string;
        /**
         * The name.
         */
        name: string;
      };
    };
    /**
     * The cost.
     */
    cost?: {
      /**
       * Time to train on train_tokens. [s]
       */
      train_time_s: number;
      /**
       * Cost to train on train_tokens. [USD]
       */
      train_usd: number;
      /**
       * Dollars per hour for the chips. [USD per hour]
       */
      usd_per_hour: number;
    };
    /**
     * Each strategy's degree (1: unused) and the slices.
     */
    degrees?: {
      /**
       * The data degree.
       */
      data: number;
      /**
       * The fsdp degree.
       */
      fsdp: number;
      /**
       * The tensor degree.
       */
      tensor: number;
      /**
       * The pipeline degree.
       */
      pipeline: number;
      /**
       * The expert degree.
       */
      expert: number;
      /**
       * The context degree.
       */
      context: number;
      /**
       * TPU slices over DCN. [slices]
       */
      slices: number;
      /**
       * Chips in the mesh. [chips]
       */
      chips: number;
    };
    /**
     * Which model made the numbers.
     */
    fidelity: Fidelity;
    /**
     * The book's numbers for the same plan.
     */
    ideal?: {
      /**
       * Model FLOPs utilisation. [fraction]
       */
      mfu_frac: number;
      /**
       * One step. [s]
       */
      step_s: number;
      /**
       * Time to train on train_tokens. [s]
       */
      train_time_s: number;
      /**
       * Cost to train on train_tokens. [USD]
       */
      train_usd: number;
    };
    /**
     * Memory per chip.
     */
    memory?: {
      /**
       * Fits in HBM.
       */
      fits: boolean;
      /**
       * The fewest chips whose HBM holds the plan. [chips]
       */
      min_chips_for_memory: number;
      /**
       * Bytes more than HBM holds. [bytes]
       */
      shortfall_bytes: number;
      /**
       * Memory per chip in all. [bytes]
       */
      total_bytes: number;
    };
    /**
     * Model FLOPs utilisation. [fraction]
     */
    mfu_frac?: number;
    /**
     * Why the default plan could not run (its diagnostics).
     */
    problems?: string[];
    /**
     * The training_step arguments the summary ran.
     */
    query: TrainingStepQuery;
    /**
     * The book's thresholds for the plan.
     */
    thresholds?: Threshold[];
    /**
     * The step's time.
     */
    time?: {
      /**
       * What binds.
       */
      bound: string;
      /**
       * Comms as the comms model combines them (max or sum; the calibrated step sums). [s]
       */
      comms_total_s: number;
      /**
       * Compute time. [s]
       */
      compute_s: number;
      /**
       * The term that sets the step.
       */
      critical: string;
      /**
       * One step. [s]
       */
      step_s: number;
    };
    /**
     * Tokens per second per chip. [tokens/s per chip]
     */
    tokens_per_s_per_chip?: number;
    /**
     * The expected wall time with failures, checkpoints and restarts (the calibrated fidelity).
     */
    goodput?: {
      /**
       * Useful time over wall time (the effective training time ratio). [fraction]
       */
      goodput_frac: number;
      /**
       * Expected wall-clock time to train (null: never, the job does not finish). [s]
       */
      wall_time_s: number | null;
      /**
       * Expected cost to train, spares included (null: never, the job does not finish). [USD]
       */
      wall_usd: number | null;
      /**
       * Expected interruptions over the run.
       */
      interruptions: {
        /**
         * Failures and planned restarts (null: the job does not finish). [interruptions]
         */
        expected: number | null;
      };
      /**
       * The headline: expected time, interruptions and goodput, or why the job never finishes.
       */
      text: string;
    };
  };
};
/**
 * The result of a transformer query (docs/api.md).
 */
export type TransformerResult = {
  /**
   * Saved activations per chip for the remat policy. [bytes]
   */
  activation_bytes: number;
  /**
   * How attention is computed: mha, gqa, mqa, or mla with the form prefill and decode use.
   */
  attention: {
    /**
     * The decode step.
     */
    decode?: string;
    /**
     * Decode's attention FLOPs per key per layer. [FLOPs per key per layer]
     */
    decode_flops_per_key_per_layer?: number;
    /**
     * The kind.
     */
    kind: string;
    /**
     * Values cached per token per layer.
     */
    kv_values_per_token_per_layer: number;
    /**
     * Prefill's attention FLOPs per key per layer. [FLOPs per key per layer]
     */
    prefill_flops_per_key_per_layer?: number;
    /**
     * The form training and prefill use.
     */
    training_and_prefill?: string;
  };
  /**
   * The sequence length at which attention's FLOPs equal the matmuls' (sliding and chunked layers over their windows); absent when the windows keep attention below them at any length.
   */
  attention_equals_matmuls_seq_len?: number;
  /**
   * The sequence length at which attention's FLOPs equal the QKVO projections' (sliding and chunked layers over their windows); absent when the windows keep attention below them at any length.
   */
  attention_equals_qkvo_seq_len?: number;
  /**
   * Attention's share of the forward FLOPs. [fraction]
   */
  attention_flops_fraction: number;
  /**
   * Attention's arithmetic intensity in decode. [FLOPs/byte]
   */
  attention_intensity_decode_flops_per_byte: number;
  /**
   * Attention's arithmetic intensity in prefill. [FLOPs/byte]
   */
  attention_intensity_prefill_flops_per_byte: number;
  /**
   * The decode batch above which the MLPs are compute-bound (x E/k for MoE). [tokens]
   */
  decode_compute_bound_batch_tokens?: number;
  /**
   * Which model made the numbers.
   */
  fidelity?: Fidelity;
  /**
   * Forward attention FLOPs. [FLOPs]
   */
  forward_attention_flops: number;
  /**
   * Forward FLOPs (matmuls and attention). [FLOPs]
   */
  forward_flops: number;
  /**
   * Forward matmul FLOPs. [FLOPs]
   */
  forward_matmul_flops: number;
  /**
   * One sequence's KV cache at seq_len (with the linear layers' state). [bytes per sequence]
   */
  kv_cache_bytes_per_sequence: number;
  /**
   * What one sequence's linear-attention layers keep whatever its length (their state and convolution window; in kv_cache_bytes_per_sequence too). Only for a model with linear layers. [bytes per sequence]
   */
  recurrent_state_bytes_per_sequence?: number;
  /**
   * What one token adds to every softmax-attention layer's cache. [bytes per token]
   */
  kv_cache_bytes_per_token: number;
  /**
   * Layers of each kind.
   */
  layers: {
    /**
     * Dense MLP layers with chunked attention.
     */
    dense_chunked?: number;
    /**
     * Dense MLP layers with full attention.
     */
    dense_full?: number;
    /**
     * Dense MLP layers with sliding-window attention.
     */
    dense_sliding?: number;
    /**
     * MoE layers with chunked attention.
     */
    moe_chunked?: number;
    /**
     * MoE layers with full attention.
     */
    moe_full?: number;
    /**
     * MoE layers with sliding-window attention.
     */
    moe_sliding?: number;
    /**
     * Dense MLP layers with linear attention (Gated DeltaNet).
     */
    dense_linear?: number;
    /**
     * MoE layers with linear attention (Gated DeltaNet).
     */
    moe_linear?: number;
  };
  /**
   * Weights' bytes. [bytes]
   */
  param_bytes: number;
  /**
   * Parameters by component.
   */
  params: {
    /**
     * Parameters a token uses (routed experts: k of E).
     */
    active: number;
    /**
     * Parameters a token's matmuls use (the unembedding in; the embedding lookup and norms out).
     */
    active_in_matmuls: number;
    /**
     * Attention parameters.
     */
    attention: number;
    /**
     * Embedding and unembedding parameters.
     */
    embeddings: number;
    /**
     * MLP parameters.
     */
    mlp: number;
    /**
     * MLP parameters a token uses.
     */
    mlp_active: number;
    /**
     * Multi-token prediction parameters (outside total).
     */
    mtp?: number;
    /**
     * Norm parameters.
     */
    norms: number;
    /**
     * Router parameters.
     */
    router: number;
    /**
     * Total parameters.
     */
    total: number;
  };
  /**
   * Parameters and Adam at 10 bytes each (scaling-book/training, memory). [bytes]
   */
  params_and_adam_bytes: number;
  /**
   * The remat policy.
   */
  remat: string;
  /**
   * Activations and recompute per policy.
   */
  remat_policies: {
    /**
     * Recompute all but the big matmuls' outputs.
     */
    big_matmuls: RematPolicy;
    /**
     * Recompute each block from its input.
     */
    block: RematPolicy;
    /**
     * Keep checkpoints_per_layer checkpoints per layer.
     */
    checkpoints?: RematPolicy;
    /**
     * Recompute all but the MLPs' matmul outputs.
     */
    mlp_matmuls: RematPolicy;
    /**
     * Keep every activation.
     */
    none: RematPolicy;
    /**
     * Recompute the attention core only.
     */
    selective: RematPolicy;
  };
  /**
   * Tokens per sequence.
   */
  seq_len: number;
  /**
   * 6 N D. [FLOPs]
   */
  six_n_flops: number;
  /**
   * 6 N. [FLOPs per token]
   */
  six_n_flops_per_token: number;
  /**
   * Tokens. [tokens]
   */
  tokens: number;
  /**
   * 3 x the forward FLOPs. [FLOPs]
   */
  training_flops: number;
  /**
   * Training FLOPs per token. [FLOPs per token]
   */
  training_flops_per_token: number;
  /**
   * The model the numbers are of: the preset fields the engine computes with (overrides and resize applied).
   */
  model: ResolvedModel;
};
/**
 * What one remat policy keeps and recomputes.
 */
export type RematPolicy = {
  /**
   * Saved activations per chip for the remat policy. [bytes]
   */
  activation_bytes: number;
  /**
   * Forward FLOPs recomputed. [FLOPs]
   */
  extra_forward_flops: number;
  /**
   * Values saved per token per layer.
   */
  saved_width_per_layer: number;
  /**
   * Training FLOPs with the recompute. [FLOPs]
   */
  training_flops_with_remat: number;
};
/**
 * A TPU slice: its shape, wraparound, hosts, cores, totals and hops.
 */
export type TpuTopology = {
  /**
   * Which model made the numbers.
   */
  fidelity?: Fidelity;
  /**
   * HBM capacity. [bytes]
   */
  hbm_capacity_bytes: number;
  /**
   * The bf16 peak. [FLOP/s]
   */
  peak_bf16_flops_per_s: number;
  /**
   * Chips. [chips]
   */
  chips: number;
  /**
   * TensorCores in the slice.
   */
  cores: number;
  /**
   * The slice's DCN egress. [bytes/s]
   */
  dcn_unidir_bytes_per_s: number;
  /**
   * HBM bandwidth. [bytes/s]
   */
  hbm_bandwidth_bytes_per_s: number;
  /**
   * Hosts in the slice.
   */
  hosts: number;
  /**
   * One ICI link, one way. [bytes/s]
   */
  ici_link_unidir_bytes_per_s: number;
  /**
   * The most hops between two chips. [hops]
   */
  max_hops: number;
  /**
   * Chips per axis.
   */
  shape: number[];
  /**
   * Slices. [slices]
   */
  slices: number;
  /**
   * Chips in all. [chips]
   */
  total_chips: number;
  /**
   * Whether each axis wraps.
   */
  wraparound: boolean[];
};
/**
 * A GPU cluster: NVLink domains, their egress and the fat-tree levels above them.
 */
export type GpuTopology = {
  /**
   * Which model made the numbers.
   */
  fidelity?: Fidelity;
  /**
   * HBM capacity. [bytes]
   */
  hbm_capacity_bytes: number;
  /**
   * The bf16 peak. [FLOP/s]
   */
  peak_bf16_flops_per_s: number;
  /**
   * The cluster's AllGather bandwidth: its slowest level's (absent on one GPU). [bytes/s]
   */
  allgather_bytes_per_s?: number;
  /**
   * The level that sets it.
   */
  allgather_limited_by?: string;
  /**
   * One NVLink domain's egress. [bytes/s]
   */
  domain_egress_unidir_bytes_per_s: number;
  /**
   * NVLink domains.
   */
  domains: number;
  /**
   * GPUs. [GPUs]
   */
  gpus: number;
  /**
   * GPUs per NVLink domain. [GPUs per domain]
   */
  gpus_per_domain: number;
  /**
   * The fat-tree levels above the domain.
   */
  levels: {
    /**
     * The level's AllGather bandwidth, D W / (D - 1) (absent with one child). [bytes/s]
     */
    allgather_bytes_per_s?: number;
    /**
     * Egress of one child into the level. [bytes/s]
     */
    child_egress_unidir_bytes_per_s: number;
    /**
     * Children under one parent.
     */
    children_per_parent: number;
    /**
     * GPUs under one child. [GPUs per child]
     */
    gpus_per_child: number;
    /**
     * GPUs under one parent. [GPUs per parent]
     */
    gpus_per_parent: number;
    /**
     * The name.
     */
    name: string;
  }[];
  /**
   * One NVLink domain's bandwidth (scaling-book/gpus, networking).
   */
  scale_up_domain: {
    /**
     * One NVLink domain's egress: the smaller of the GPUs' and the switches'. [bytes/s]
     */
    aggregate_unidir_bytes_per_s: number;
    /**
     * One domain's bisection bandwidth, both directions (as the book counts it). [bytes/s]
     */
    bisection_bidir_bytes_per_s: number;
    /**
     * GPUs x per-GPU egress. [bytes/s]
     */
    gpu_egress_unidir_bytes_per_s: number;
    /**
     * What limits it.
     */
    limited_by?: string;
    /**
     * Switches x ports x link. [bytes/s]
     */
    switch_capacity_unidir_bytes_per_s?: number;
  };
};
/**
 * The result of a training_step query (docs/api.md).
 */
export type TrainingStepResult = {
  /**
   * The threshold with the smallest margin.
   */
  binding: string;
  /**
   * Calibrated: seconds on the slowest pipeline stage by kind of work, and each strategy's comms full and exposed.
   */
  breakdown?: {
    /**
     * Attention kernels on the slowest stage. [s]
     */
    attention_s: number;
    /**
     * The pipeline bubble. [s]
     */
    bubble_s: number;
    /**
     * Each strategy's comms.
     */
    comms: {
      /**
       * Context parallelism.
       */
      context: {
        /**
         * What it adds to the step. [s]
         */
        exposed_s: number;
        /**
         * Its whole time. [s]
         */
        full_s: number;
      };
      /**
       * Data parallelism.
       */
      data: {
        /**
         * What it adds to the step. [s]
         */
        exposed_s: number;
        /**
         * Its whole time. [s]
         */
        full_s: number;
      };
      /**
       * The DCN axis's comms.
       */
      dcn: {
        /**
         * What it adds to the step. [s]
         */
        exposed_s: number;
        /**
         * Its whole time. [s]
         */
        full_s: number;
      };
      /**
       * Expert parallelism.
       */
      expert: {
        /**
         * What it adds to the step. [s]
         */
        exposed_s: number;
        /**
         * Its whole time. [s]
         */
        full_s: number;
      };
      /**
       * FSDP.
       */
      fsdp: {
        /**
         * What it adds to the step. [s]
         */
        exposed_s: number;
        /**
         * Its whole time. [s]
         */
        full_s: number;
      };
      /**
       * Pipeline parallelism.
       */
      pipeline: {
        /**
         * What it adds to the step. [s]
         */
        exposed_s: number;
        /**
         * Its whole time. [s]
         */
        full_s: number;
      };
      /**
       * Tensor parallelism.
       */
      tensor: {
        /**
         * What it adds to the step. [s]
         */
        exposed_s: number;
        /**
         * Its whole time. [s]
         */
        full_s: number;
      };
    };
    /**
     * Elementwise kernels. [s]
     */
    elementwise_s: number;
    /**
     * The routed experts' grouped matmuls. [s]
     */
    expert_matmul_s: number;
    /**
     * Embedding, logits and loss. [s]
     */
    head_s: number;
    /**
     * Casts to and from the low-precision recipe. [s]
     */
    low_precision_cast_s: number;
    /**
     * Matmul kernels. [s]
     */
    matmul_s: number;
    /**
     * Per-op launch overhead. [s]
     */
    op_overhead_s: number;
    /**
     * The optimizer step. [s]
     */
    optimizer_s: number;
    /**
     * Recompute. [s]
     */
    recompute_s: number;
    /**
     * Fixed per-step time. [s]
     */
    step_overhead_s: number;
    /**
     * Memory live only during the step. [bytes]
     */
    transient_bytes: number;
  };
  /**
   * The calibration behind the numbers.
   */
  calibration?: CalibrationInfo;
  /**
   * The cost.
   */
  cost: {
    /**
     * Time to train on train_tokens. [s]
     */
    train_time_s: number;
    /**
     * Tokens to train on. [tokens]
     */
    train_tokens: number;
    /**
     * Cost to train on train_tokens. [USD]
     */
    train_usd: number;
    /**
     * Dollars per hour for the chips. [USD per hour]
     */
    usd_per_hour: number;
    /**
     * The book's fidelity: what its time to train leaves out.
     */
    note?: string;
  };
  /**
   * Each strategy's degree (1: unused) and the slices.
   */
  degrees: {
    /**
     * The data degree.
     */
    data: number;
    /**
     * The fsdp degree.
     */
    fsdp: number;
    /**
     * The tensor degree.
     */
    tensor: number;
    /**
     * The pipeline degree.
     */
    pipeline: number;
    /**
     * The expert degree.
     */
    expert: number;
    /**
     * The context degree.
     */
    context: number;
    /**
     * TPU slices over DCN. [slices]
     */
    slices: number;
    /**
     * Chips in the mesh. [chips]
     */
    chips: number;
  };
  /**
   * Each headline number with its formula, the values substituted and the book section.
   */
  explain?: {
    /**
     * Comms as the comms model combines them (max or sum; the calibrated step sums).
     */
    comms_total_s: {
      /**
       * The formula.
       */
      formula: string;
      /**
       * The book section.
       */
      section: string;
      /**
       * The formula with the values substituted.
       */
      values: string;
    };
    /**
     * Compute time.
     */
    compute_s: {
      /**
       * The formula.
       */
      formula: string;
      /**
       * The book section.
       */
      section: string;
      /**
       * The formula with the values substituted.
       */
      values: string;
    };
    /**
     * Memory per chip.
     */
    memory_bytes: {
      /**
       * The formula.
       */
      formula: string;
      /**
       * The book section.
       */
      section: string;
      /**
       * The formula with the values substituted.
       */
      values: string;
    };
    /**
     * Model FLOPs utilisation.
     */
    mfu_frac: {
      /**
       * The formula.
       */
      formula: string;
      /**
       * The book section.
       */
      section: string;
      /**
       * The formula with the values substituted.
       */
      values: string;
    };
    /**
     * One step.
     */
    step_s: {
      /**
       * The formula.
       */
      formula: string;
      /**
       * The book section.
       */
      section: string;
      /**
       * The formula with the values substituted.
       */
      values: string;
    };
    /**
     * Cost to train on train_tokens.
     */
    train_usd: {
      /**
       * The formula.
       */
      formula: string;
      /**
       * The book section.
       */
      section: string;
      /**
       * The formula with the values substituted.
       */
      values: string;
    };
  };
  /**
   * Which model made the numbers.
   */
  fidelity?: Fidelity;
  /**
   * Which FLOPs model_flops counts.
   */
  flop_account: 'full' | '6nd';
  /**
   * X_opt (scaling-book/training, mixed FSDP + TP).
   */
  fsdp_optimal_degree?: number;
  /**
   * FLOPs the hardware runs (with recompute). [FLOPs]
   */
  hardware_flops: number;
  /**
   * Hardware FLOPs utilisation. [fraction]
   */
  hfu_frac: number;
  /**
   * The book's numbers for the same plan.
   */
  ideal?: {
    /**
     * What binds.
     */
    bound: 'compute' | 'communication' | 'memory' | 'host_offload';
    /**
     * Comms as the comms model combines them (max or sum; the calibrated step sums). [s]
     */
    comms_total_s: number;
    /**
     * Compute time. [s]
     */
    compute_s: number;
    /**
     * Fits in HBM.
     */
    fits: boolean;
    /**
     * Whether the book's step is below the calibrated one.
     */
    lower_bound: boolean;
    /**
     * Model FLOPs utilisation. [fraction]
     */
    mfu_frac: number;
    /**
     * One step. [s]
     */
    step_s: number;
    /**
     * Tokens per second. [tokens/s]
     */
    tokens_per_s: number;
    /**
     * Memory per chip in all. [bytes]
     */
    total_bytes: number;
    /**
     * Time to train on train_tokens. [s]
     */
    train_time_s: number;
    /**
     * Cost to train on train_tokens. [USD]
     */
    train_usd: number;
    /**
     * Where the book's step is not a lower bound: the strategy whose collectives the book prices highest above the calibrated step.
     */
    above_estimate?: {
      /**
       * The strategy the book prices above the calibrated step.
       */
      part: string;
      /**
       * The book's time for that part. [s]
       */
      book_s: number;
      /**
       * The calibrated time for that part. [s]
       */
      calibrated_s: number;
      /**
       * In a sentence.
       */
      text: string;
    };
  };
  /**
   * Per strategy, its place on the mesh.
   */
  layout?: StrategyLayouts;
  /**
   * Layouts tried for the degrees given.
   */
  layouts_considered?: number;
  /**
   * Memory per chip.
   */
  memory: {
    /**
     * Saved activations per chip (the in-flight microbatches'). [bytes]
     */
    activations_bytes: number;
    /**
     * Context parallelism's K/V buffers per chip. [bytes]
     */
    context_buffers_bytes: number;
    /**
     * Fits in HBM.
     */
    fits: boolean;
    /**
     * Gradients per chip. [bytes]
     */
    grads_bytes: number;
    /**
     * HBM capacity. [bytes]
     */
    hbm_capacity_bytes: number;
    /**
     * What lives in host memory (offload). [bytes]
     */
    host_bytes?: number;
    /**
     * Microbatches whose activations are held.
     */
    in_flight_microbatches: number;
    /**
     * Master weights per chip. [bytes]
     */
    master_weights_bytes: number;
    /**
     * The fewest chips whose HBM holds the plan. [chips]
     */
    min_chips_for_memory: number;
    /**
     * Optimizer states per chip. [bytes]
     */
    optimizer_bytes: number;
    /**
     * Parameters per chip. [bytes]
     */
    params_bytes: number;
    /**
     * Bytes more than HBM holds. [bytes]
     */
    shortfall_bytes: number;
    /**
     * Weights, gradients and optimizer bytes per parameter. [bytes per param]
     */
    state_bytes_per_param: number;
    /**
     * Memory per chip in all. [bytes]
     */
    total_bytes: number;
    /**
     * Memory live only during the step. [bytes]
     */
    transient_bytes?: number;
  };
  /**
   * Model FLOPs utilisation. [fraction]
   */
  mfu_frac: number;
  /**
   * Tokens per microbatch. [tokens]
   */
  microbatch_tokens: number;
  /**
   * Microbatches per step.
   */
  microbatches?: number;
  /**
   * The model's FLOPs per step. [FLOPs]
   */
  model_flops: number;
  /**
   * How the MoE layers ran.
   */
  moe?: {
    /**
     * Each expert takes at most this many times its mean tokens (0: dropless).
     */
    capacity_factor: number;
    /**
     * How tokens reach their experts.
     */
    dispatcher: string;
    /**
     * The busiest expert rank's rows over the mean.
     */
    expert_load: number;
    /**
     * The folded expert group.
     */
    expert_parallel: number;
    /**
     * The experts' TP degree.
     */
    expert_tensor: number;
    /**
     * The busiest expert rank's tokens over the mean.
     */
    load_imbalance: number;
    /**
     * Dispatch and combine overlap another microbatch.
     */
    overlap: boolean;
    /**
     * Past the capacity: dropless, drop or pad.
     */
    token_policy: string;
  };
  /**
   * MTP modules trained.
   */
  mtp_layers?: number;
  /**
   * The chosen layout as sub-axes with their strides: pass it back to reproduce the step.
   */
  parallelism?: PlanParallelism;
  /**
   * The busiest stage's layers over the average.
   */
  pipeline_stage_imbalance?: number;
  /**
   * The busiest stage's layers by kind.
   */
  pipeline_stage_kinds?: {
    /**
     * MoE layers with full attention.
     */
    moe_full: number;
    /**
     * MoE layers with sliding-window attention.
     */
    moe_sliding?: number;
    /**
     * Dense MLP layers with linear attention (Gated DeltaNet).
     */
    dense_linear?: number;
    /**
     * MoE layers with linear attention (Gated DeltaNet).
     */
    moe_linear?: number;
  };
  /**
   * The busiest stage's layers.
   */
  pipeline_stage_layers?: number;
  /**
   * The target MFU. [fraction]
   */
  target_mfu_frac?: number;
  /**
   * The book's thresholds for this plan.
   */
  thresholds: Threshold[];
  /**
   * The step's time.
   */
  time: {
    /**
     * What sets the step.
     */
    bound: 'compute' | 'communication' | 'memory' | 'host_offload';
    /**
     * The pipeline bubble's share of the step. [fraction]
     */
    bubble_frac: number;
    /**
     * The pipeline bubble. [s]
     */
    bubble_s: number;
    /**
     * Each strategy's comms.
     */
    comms: {
      /**
       * Context parallelism's comms. [s]
       */
      context_s: number;
      /**
       * Data parallelism's comms. [s]
       */
      data_s: number;
      /**
       * DCN comms. [s]
       */
      dcn_s: number;
      /**
       * Expert parallelism's comms. [s]
       */
      expert_s: number;
      /**
       * FSDP's comms. [s]
       */
      fsdp_s: number;
      /**
       * Pipeline comms. [s]
       */
      pipeline_s: number;
      /**
       * TP comms. [s]
       */
      tensor_s: number;
    };
    /**
     * What comms add to the step beyond what they overlap. [s]
     */
    comms_exposed_s: number;
    /**
     * Every strategy's comms added up. [s]
     */
    comms_sum_s: number;
    /**
     * Comms as the comms model combines them (max or sum; the calibrated step sums). [s]
     */
    comms_total_s: number;
    /**
     * Compute time. [s]
     */
    compute_s: number;
    /**
     * The term that sets the step.
     */
    critical: string;
    /**
     * What HBM traffic adds beyond what it overlaps. [s]
     */
    hbm_exposed_s: number;
    /**
     * HBM traffic's whole time. [s]
     */
    hbm_total_s: number;
    /**
     * Perfect overlap: the max of the terms. [s]
     */
    lower_bound_s: number;
    /**
     * What host offload adds. [s]
     */
    offload_exposed_s?: number;
    /**
     * Host offload's whole time. [s]
     */
    offload_total_s?: number;
    /**
     * Launches and fixed per-step time. [s]
     */
    overhead_s: number;
    /**
     * One step. [s]
     */
    step_s: number;
    /**
     * No overlap: the sum of the terms. [s]
     */
    upper_bound_s: number;
  };
  /**
   * Tokens per chip. [tokens per chip]
   */
  tokens_per_chip: number;
  /**
   * Tokens per data shard. [tokens per data shard]
   */
  tokens_per_data_shard: number;
  /**
   * Tokens per second. [tokens/s]
   */
  tokens_per_s: number;
  /**
   * Tokens per second per chip. [tokens/s per chip]
   */
  tokens_per_s_per_chip: number;
  /**
   * The expected wall time with failures, checkpoints and restarts (train_tokens > 0; the book's fidelity only when goodput is given).
   */
  goodput?: GoodputResult;
  /**
   * The step's main ops on one chip for one microbatch (the matmuls and attention of each layer kind, merged by name, and the logits), at the chip's roofline.
   */
  main_ops: MainOp[];
  /**
   * With pipeline_timeline: the step's pipeline schedule played pass by pass (each schedule's published order), at the pass times its bubble was priced at. Communication between stages is not drawn, as the bubble's closed form leaves it out.
   */
  pipeline_timeline?: {
    /**
     * One microbatch's backward pass through a whole stage (input and weight gradients, recompute included). [s]
     */
    backward_s: number;
    /**
     * The played bubble over the span: what a drawing shows idle. [fraction]
     */
    bubble_frac?: number;
    /**
     * The span less one stage's passes: the played bubble. The book's split of a pass gives the step's closed form exactly; other splits can differ from it (zero bubble, DualPipe). [s]
     */
    bubble_s?: number;
    /**
     * Model chunks per stage: the interleaved schedule's, DualPipe's two (one each way), DualPipeV's two (the V), else 1.
     */
    chunks_per_stage: number;
    /**
     * One microbatch's forward pass through a whole stage. [s]
     */
    forward_s: number;
    /**
     * Whether the passes were laid out; not_laid_out says why not.
     */
    laid_out: boolean;
    /**
     * Microbatches per step.
     */
    microbatches: number;
    /**
     * Why the schedule was not laid out: one stage, an order the schedule's source does not define for this plan, or too many passes.
     */
    not_laid_out?: string;
    /**
     * Every pass, in the order laid out.
     */
    passes?: {
      /**
       * The model chunk on that stage (0 first): the interleaved schedule's chunk; DualPipe's 1 for the microbatches that enter at the last stage; DualPipeV's 1 on the way back up.
       */
      chunk: number;
      /**
       * When it ends, from the step's start. [s]
       */
      end_s: number;
      /**
       * The microbatch (0 first).
       */
      microbatch: number;
      /**
       * forward; backward (input and weight gradients together); or, split by zero-bubble schedules, input_grad and the deferred weight_grad.
       */
      pass: 'backward' | 'forward' | 'input_grad' | 'weight_grad';
      /**
       * The pipeline stage (0 first).
       */
      stage: number;
      /**
       * When it starts, from the step's start. [s]
       */
      start_s: number;
    }[];
    /**
     * The schedule played.
     */
    schedule: string;
    /**
     * From the first pass's start to the last one's end. [s]
     */
    span_s?: number;
    /**
     * Pipeline stages.
     */
    stages: number;
    /**
     * The bubble the step priced (time.bubble_s): the schedule's closed form. [s]
     */
    step_bubble_s: number;
    /**
     * The weight gradients' part of backward_s: what zero-bubble schedules defer. [s]
     */
    weight_grad_s: number;
  };
};
/**
 * The result of a transfer query (docs/api.md).
 */
export type TransferResult = {
  /**
   * The bandwidth term: bytes over the links. [s]
   */
  bandwidth_s: number;
  /**
   * Which model made the numbers.
   */
  fidelity?: Fidelity;
  /**
   * Hops the first byte crosses. [hops]
   */
  hops: number;
  /**
   * The latency term. [s]
   */
  latency_s: number;
  /**
   * The link's one-way bandwidth. [bytes/s]
   */
  link_unidir_bytes_per_s: number;
  /**
   * Links used at once. [ports]
   */
  ports: number;
  /**
   * Time. [s]
   */
  time_s: number;
};
/**
 * The result of a utilization query (docs/api.md).
 */
export type UtilizationResult = {
  /**
   * N: the active parameters counted. [params]
   */
  active_params: number;
  /**
   * FLOPs the chip-hours hold at peak. [FLOPs]
   */
  available_flops: number;
  /**
   * Which model made the numbers.
   */
  fidelity?: Fidelity;
  /**
   * Peak FLOP/s. [FLOP/s]
   */
  peak_flops_per_s: number;
  /**
   * 6 N tokens. [FLOPs]
   */
  used_flops: number;
  /**
   * 6 N tokens / (chip-hours 3600 C). [fraction]
   */
  utilization_frac: number;
};
/**
 * A literature prior for one parameter and chip kind.
 */
export type Prior = {
  /**
   * The prior's width in log space.
   */
  log_sigma: number;
  /**
   * Why this value.
   */
  note: string;
  /**
   * The source.
   */
  source: string;
  /**
   * The prior's value.
   */
  value: number;
};
/**
 * A source the priors cite.
 */
export type PriorSource = {
  /**
   * The citation.
   */
  cite: string;
  /**
   * The kind.
   */
  kind: string;
  /**
   * Where to read it.
   */
  url?: string;
};
/**
 * The transfer figure of one chip kind and task: each family's own median error when it is held out whole, and the median of those medians (runs in scope; excluded runs left out).
 */
export type TransferRow = {
  /**
   * The chip kind (all: both).
   */
  kind: 'all' | 'tpu' | 'gpu';
  /**
   * training or serving.
   */
  task: 'training' | 'serving';
  /**
   * Families with runs in scope. [families]
   */
  families: number;
  /**
   * Runs in scope, over every family.
   */
  runs: number;
  /**
   * The median over the families of each family's median absolute error: the gated transfer figure. [fraction]
   */
  median_of_family_medians_frac: number;
  /**
   * The family with the largest median error.
   */
  worst_family: string;
  /**
   * Its median absolute error. [fraction]
   */
  worst_family_median_frac: number;
  /**
   * The median absolute error over every run pooled. [fraction]
   */
  pooled_median_frac: number;
  /**
   * Runs predicted more than 2x off (error above 1 or below -0.5). [runs]
   */
  runs_off_by_2x: number;
};
/**
 * Memory per chip over the suite: runs that fit, and the error on measured peaks.
 */
export type MemorySummary = {
  /**
   * Runs with remat_auto that fit with the policy picked.
   */
  auto_fit: number;
  /**
   * Training runs with remat_auto.
   */
  auto_runs: number;
  /**
   * Error statistics over the measured peaks (runs and memory checks; optimistic: predicted below measured); null without any.
   */
  measured: ErrorStats | null;
  /**
   * Measured peaks predicted within 10%.
   */
  measured_within_10pct: number;
  /**
   * Training runs that state their plan in full and are predicted to fit.
   */
  stated_fit: number;
  /**
   * Training runs that state their plan in full (no remat_auto).
   */
  stated_runs: number;
  /**
   * Of those, runs predicted not to fit that name the setting the engine cannot express.
   */
  stated_unexpressed: number;
  /**
   * Training runs.
   */
  training_runs: number;
};
/**
 * A memory check predicted.
 */
export type MemoryCheckOutcome = {
  /**
   * The id.
   */
  id: string;
  /**
   * The chip kind.
   */
  kind: string;
  memory: RunMemory;
  /**
   * The calibration profile used.
   */
  profile: string;
  /**
   * Where the measurement comes from.
   */
  source: string;
};
/**
 * The result of a validation query (docs/api.md).
 */
export type ValidationResult = {
  /**
   * Each family held out whole in turn.
   */
  family_holdout?: {
    /**
     * dense or moe (all: every run).
     */
    architecture: string;
    /**
     * null when every run of the family is excluded.
     */
    book: ErrorStats | null;
    /**
     * null when every run of the family is excluded.
     */
    calibrated: ErrorStats | null;
    /**
     * The calibrated statistics over every run of the family, excluded ones too.
     */
    calibrated_with_excluded: ErrorStats;
    /**
     * Every fit converged.
     */
    converged: boolean;
    /**
     * The run's family.
     */
    family: string;
    /**
     * Runs.
     */
    runs: {
      /**
       * The book's error on the run. [fraction]
       */
      book_error_frac: number;
      /**
       * The calibrated model's error on the run. [fraction]
       */
      calibrated_error_frac: number;
      /**
       * The run is excluded from the statistics.
       */
      excluded: boolean;
      /**
       * The id.
       */
      id: string;
      /**
       * The kind.
       */
      kind: string;
    }[];
    /**
     * training or serving.
     */
    task: string;
  }[];
  /**
   * Which model made the numbers.
   */
  fidelity?: Fidelity;
  /**
   * The literature priors the refits are pulled towards.
   */
  priors?: {
    /**
     * Per parameter and chip kind: value, log_sigma, source, note.
     */
    parameters: {
      [k: string]: {
        /**
         * The TPU prior.
         */
        tpu?: Prior;
        /**
         * The GPU prior.
         */
        gpu?: Prior;
      };
    };
    /**
     * The format's version.
     */
    schema: string;
    /**
     * The sources by id.
     */
    sources: {
      [k: string]: PriorSource;
    };
  };
  /**
   * Runs.
   */
  runs: RunOutcome[];
  /**
   * Statistics per chip kind, task and split.
   */
  summary: SummaryRow[];
  /**
   * With family_holdout: per chip kind (all, tpu, gpu) and task, the transfer figure over the families held out whole.
   */
  transfer?: TransferRow[];
  /**
   * The memory checks, predicted.
   */
  memory_checks: MemoryCheckOutcome[];
  memory_summary: MemorySummary;
};
/**
 * A mesh the engine lays out (docs/api.md "A mesh the engine lays out"): plan_mesh's answer to these arguments, each strategy of the query on the axes it gives.
 */
export type MeshLayOut = {
  /**
   * plan_mesh's arguments (its kind may be left out): the degrees, and a chip count, slices or the DCN strategy as plan_mesh takes them.
   */
  lay_out: PlanMeshQuery;
};
