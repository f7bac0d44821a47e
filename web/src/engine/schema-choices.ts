// Generated from schema/ by web/scripts/schema-generate.mjs: do not edit (edit the schema, then run it).
// Each page query's enums and machine-readable defaults, by the pointer under `query` they apply at.

/** What training_step and plan_search share (their TrainingInput). */
const TRAINING_CHOICES = {
  '/attention_kernel': ["flash","materialized"],
  '/comms_model': ["max","sum"],
  '/fidelity': ["book","calibrated"],
  '/flop_account': ["full","6nd"],
  '/goodput/checkpoint': ["blocking","async","in_memory"],
  '/moe/dispatcher': ["all_to_all","hierarchical"],
  '/moe/token_policy': ["dropless","drop","pad"],
  '/precision/gradients': ["params","fp32","fused"],
  '/precision/master_weights': ["none","bf16","fp32"],
  '/precision/matmul': ["bf16","fp8","fp8_blockwise","mxfp8","nvfp4","int8","fp4"],
  '/precision/optimizer_states': ["fp32","bf16"],
  '/precision/params': ["bf16","fp32"],
  '/remat': ["none","block","big_matmuls","mlp_matmuls","checkpoints","selective"],
} as const;
const TRAINING_DEFAULTS = {
  '/attention_kernel': "flash",
  '/causal': true,
  '/comms_model': "max",
  '/dropout': false,
  '/efficiency/flops_frac': 1,
  '/efficiency/hbm_frac': 1,
  '/efficiency/network_frac': 1,
  '/fidelity': "calibrated",
  '/flop_account': "full",
  '/goodput/checkpoint': "async",
  '/goodput/failures_per_host_hour': 0,
  '/goodput/host_replace_s': 300,
  '/goodput/job_startup_s': 30,
  '/goodput/spare_chips': 0,
  '/moe/dispatcher': "all_to_all",
  '/moe/load_imbalance': 1,
  '/moe/overlap': false,
  '/precision/gradients': "params",
  '/precision/master_weights': "none",
  '/precision/matmul': "bf16",
  '/precision/optimizer_states': "fp32",
  '/precision/params': "bf16",
  '/train_tokens': 0,
} as const;

/** The shared enums (common.schema.json's $defs), by name. */
export const SCHEMA_ENUMS = {
  Dtype: ["fp32","bf16","fp8","int8","int4","fp4"],
  Fidelity: ["book","calibrated"],
  Framework: ["megatron","megatron-bridge","maxtext","deepspeed","vllm","sglang","trtllm"],
  Remat: ["none","block","big_matmuls","mlp_matmuls","checkpoints","selective"],
  PipelineSchedule: ["gpipe","1f1b","interleaved","zero_bubble","dualpipe","dualpipe_v"],
  MatmulPrecision: ["bf16","fp8","fp8_blockwise","mxfp8","nvfp4","int8","fp4"],
  Strategy: ["data","fsdp","tensor","pipeline","expert","context"],
  ContextVariant: ["ring","all_gather"],
  CommsModel: ["max","sum"],
} as const;

export const QUERY_CHOICES = {
  training_step: {
    ...TRAINING_CHOICES,
    '/parallelism/context_variant': ["ring","all_gather"],
    '/parallelism/pipeline_schedule': ["gpipe","1f1b","interleaved","zero_bubble","dualpipe","dualpipe_v"],
  },
  serving: {
    '/deployment/prefill': ["colocated","disaggregated"],
    '/dtypes/activations': ["fp32","bf16","fp8","int8","int4","fp4"],
    '/dtypes/kv': ["fp32","bf16","fp8","int8","int4","fp4"],
    '/dtypes/weights': ["fp32","bf16","fp8","int8","int4","fp4"],
    '/fidelity': ["book","calibrated"],
    '/load/backend': ["sglang","trtllm","vllm"],
    '/load/prefill_pool/parallelism/layout': ["1d","2d"],
    '/parallelism/layout': ["1d","2d"],
  },
  plan_search: {
    ...TRAINING_CHOICES,
    '/objective': ["step_time","cost_to_train","tokens_per_usd","wall_time"],
  },
  serving_search: {
    '/backend': ["sglang","trtllm","vllm"],
    '/disaggregation': ["both","colocated","disaggregated"],
    '/dtypes/activations': ["fp32","bf16","fp8","int8","int4","fp4"],
    '/fidelity': ["book","calibrated"],
    '/objective': ["fewest_chips","usd_per_million_tokens","tokens_per_s_per_chip"],
  },
  plan_mesh: {
    '/dcn_strategy': ["data","fsdp"],
    '/mode': ["training","serving"],
    '/parallelism/pipeline_schedule': ["gpipe","1f1b","interleaved","zero_bubble","dualpipe","dualpipe_v"],
  },
  collective: {
    '/op': ["all_gather","reduce_scatter","all_reduce","all_to_all"],
    '/ragged/model': ["approx","exact"],
  },
} as const;

export const QUERY_DEFAULTS = {
  training_step: {
    ...TRAINING_DEFAULTS,
    '/explain': false,
    '/offload/activations': false,
    '/offload/optimizer': false,
    '/parallelism/context_variant': "ring",
    '/parallelism/pipeline_schedule': "1f1b",
    '/parallelism/sequence_parallel': true,
    '/parallelism/virtual_stages': 1,
    '/parallelism/zero_stage': 3,
    '/pipeline_timeline': false,
  },
  serving: {
    '/dtypes/activations': "bf16",
    '/dtypes/kv': "bf16",
    '/efficiency/flops_frac': 1,
    '/efficiency/hbm_frac': 1,
    '/efficiency/network_frac': 1,
    '/fidelity': "calibrated",
    '/include_comms': true,
    '/load/prefill_pool/parallelism/layout': "1d",
    '/parallelism/layout': "1d",
  },
  plan_search: {
    ...TRAINING_DEFAULTS,
    '/constraints/include_warnings': false,
    '/constraints/memory_headroom_frac': 0,
    '/constraints/must_fit': true,
    '/count_only': false,
    '/keep': 10,
    '/limit': 20000000,
    '/objective': "step_time",
    '/space/max_strategies_per_torus_axis': 2,
    '/space/min_context_chunk_tokens': 4096,
  },
  serving_search: {
    '/disaggregation': "both",
    '/dtypes/activations': "bf16",
    '/efficiency/flops_frac': 1,
    '/efficiency/hbm_frac': 1,
    '/efficiency/network_frac': 1,
    '/fidelity': "calibrated",
    '/include_comms': true,
    '/keep': 10,
    '/objective': "usd_per_million_tokens",
  },
  plan_mesh: {
  },
  collective: {
  },
} as const;

export type PageQueryKind = keyof typeof QUERY_CHOICES;
