// The one parameter table (docs/design.md "Web rules"): every control, the URL codec (url.ts) and the scenario builder
// (scenario.ts) read it. A row: URL key, type, default, range, unit, the JSON path it fills in the scenario
// (docs/api.md), and how the control looks. `null` defaults mean "the preset's value" (model fields) or "the
// engine's default" (e.g. the KV context length); '' for a text row means "not set".
import presets, { features } from 'virtual:scalescope-presets';
import type { EngineFeatures, HardwarePreset, ModelPreset, Presets } from '../engine/types';
import { LAYOUT_RE } from './layout';

/** The `cal` value: the profile's id in URL-safe characters, `~`, and the fingerprint of the profile's text. */
export const PROFILE_REF_RE = /^[A-Za-z0-9._-]{1,48}~[0-9a-f]{8}$/;

export type Value = number | string | boolean | null;
export type ParamType = 'int' | 'float' | 'enum' | 'bool' | 'text';
export type Group = 'workload' | 'hardware' | 'model' | 'mesh' | 'training' | 'serving' | 'efficiency';

export interface Param {
  readonly key: string;
  readonly label: string;
  readonly type: ParamType;
  readonly default: Value;
  readonly min?: number;
  readonly max?: number;
  /** Slider scale: 'log2' moves in powers of two (the numeric input beside it takes any value in range). */
  readonly scale?: 'linear' | 'log2' | 'log10';
  readonly step?: number;
  readonly choices?: readonly string[];
  readonly unit: string;
  /** JSON pointer into the scenario this value fills (derived values say how). */
  readonly path: string;
  readonly group: Group;
  /** Shown (and sent) only in this mode. */
  readonly mode?: 'training' | 'serving';
  /** A row whose unset value is not a number (an MoE without a capacity is "dropless"): its field (or a select's first option) says this. */
  readonly unsetText?: string;
  /** Shown (and sent) only while another parameter has this value. */
  readonly showIf?: { readonly key: string; readonly value: Value };
  /** 'text' rows: the whole value must match this (URL text is checked before use). */
  readonly pattern?: RegExp;
  /** 'text' rows: values that match, for the tests and the help. */
  readonly examples?: readonly string[];
  /** 'text' rows: the longest value (default 200 characters). */
  readonly maxLength?: number;
  /** No control of its own (set by an action, e.g. applying a searched plan; shown in words). */
  readonly hidden?: boolean;
  /** Folded away under "more" in its group: the controls a reader uses most stay in view. */
  readonly advanced?: boolean;
  /** A parallelism degree: its slider stops only at degrees the model can split into (the engine's plan_mesh, state/plan-mesh.ts). */
  readonly degree?: 'data' | 'fsdp' | 'tensor' | 'pipeline' | 'expert' | 'context';
  readonly help: string;
}

export const PRESETS: Presets = presets;
/** What the engine build the site ships can do (read at build time by engine-plugin.ts), e.g. `query.fidelity`. */
export const FEATURES: EngineFeatures = features;
export const HARDWARE_IDS: readonly string[] = PRESETS.hardware.map((h) => h.id);
export const MODEL_IDS: readonly string[] = PRESETS.models.map((m) => m.id);
const DTYPES = ['bf16', 'fp8', 'int8', 'int4'] as const;
// gpt-oss publishes its experts in MXFP4: weights may be fp4 (stored and loaded; the matmuls run at the activations').
const WEIGHT_DTYPES = [...DTYPES, 'fp4'] as const;
/** The engine's names (web/test/params.test.ts holds them against its own list). */
const PIPELINE_SCHEDULES = ['gpipe', '1f1b', 'interleaved', 'zero_bubble', 'dualpipe', 'dualpipe_v'] as const;
/** The goodput block's checkpoint modes (docs/api.md, "Goodput"). */
const CHECKPOINT_MODES = ['blocking', 'async', 'in_memory'] as const;
/** The serving engines whose fitted runtime a benchmark's load can apply: the engine's own list (its presets), never the page's. */
const SERVING_BACKENDS: readonly string[] = (PRESETS.serving_backends ?? []).map((b) => b.id);
const MATMUL_PRECISIONS = ['bf16', 'fp8', 'fp8_blockwise', 'mxfp8', 'nvfp4', 'int8', 'fp4'] as const;
const DEFAULT_HW = HARDWARE_IDS.includes('tpu-v5p') ? 'tpu-v5p' : (HARDWARE_IDS[0] ?? 'tpu-v5p');
const DEFAULT_MODEL = MODEL_IDS.includes('llama-3-70b') ? 'llama-3-70b' : (MODEL_IDS[0] ?? 'llama-3-70b');
/** The longest pasted config.json a link carries (URL text, minified JSON). */
export const MAX_HF_CONFIG_CHARS = 2400;
/** A pasted config.json: a JSON object (the engine checks its keys), printable ASCII without spaces after minifying. */
const HF_CONFIG_RE = new RegExp(`^\\{[\\x20-\\x7e]{1,${MAX_HF_CONFIG_CHARS - 2}}\\}$`);
/** A pinned comparison: another state as a query string (url.ts), nested in one URL value. */
const PIN_RE = /^[a-z0-9_.=&%+*\-]{1,3000}$/i; // a query string: an applied layout splits an axis with *
const DEFAULT_DRAFT = MODEL_IDS.includes('llama-3-8b') ? 'llama-3-8b' : (MODEL_IDS[0] ?? 'llama-3-8b');

export const PARAMS: readonly Param[] = [
  {
    key: 'mode',
    label: 'Workload',
    type: 'enum',
    default: 'training',
    choices: ['training', 'serving'],
    unit: '',
    path: '/query/kind',
    group: 'workload',
    help: 'training_step or serving query',
  },
  {
    key: 'hw',
    label: 'Hardware',
    type: 'enum',
    default: DEFAULT_HW,
    choices: HARDWARE_IDS,
    unit: '',
    path: '/hardware/preset',
    group: 'hardware',
    help: 'chip or system preset; every field below can be overridden',
  },
  {
    key: 'model',
    label: 'Model',
    type: 'enum',
    default: DEFAULT_MODEL,
    choices: MODEL_IDS,
    unit: '',
    path: '/model/preset',
    group: 'model',
    help: 'model preset',
  },
  {
    key: 'hf',
    label: 'Hugging Face config.json',
    type: 'text',
    default: '',
    pattern: HF_CONFIG_RE,
    examples: [
      '{"model_type":"llama","hidden_size":4096,"intermediate_size":14336,"num_hidden_layers":32,"num_attention_heads":32,"num_key_value_heads":8,"vocab_size":128256}',
    ],
    unit: '',
    path: '/model/hf_config (the pasted file, minified; replaces the preset)',
    group: 'model',
    hidden: true,
    maxLength: MAX_HF_CONFIG_CHARS,
    help: 'a pasted config.json, read by the engine',
  },
  {
    key: 'size',
    label: 'Model size',
    type: 'float',
    default: 1,
    min: 0.01,
    max: 16,
    scale: 'log10',
    step: 0.01,
    unit: '×',
    path: '/model/overrides (layers, d_model, heads, d_ff scaled together)',
    group: 'model',
    advanced: true,
    help: 'scales the family: layers and width each by size^(1/3), so parameters scale about by size',
  },
  {
    key: 'layers',
    label: 'Layers',
    type: 'int',
    default: null,
    min: 1,
    max: 512,
    unit: '',
    path: '/model/overrides/layers',
    group: 'model',
    advanced: true,
    help: 'Transformer blocks',
  },
  {
    key: 'd_model',
    label: 'd_model',
    type: 'int',
    default: null,
    min: 64,
    max: 65536,
    step: 64,
    unit: '',
    path: '/model/overrides/d_model',
    group: 'model',
    advanced: true,
    help: 'residual width D',
  },
  {
    key: 'ff_ratio',
    label: 'd_ff ratio',
    type: 'float',
    default: null,
    min: 0.25,
    max: 16,
    step: 0.125,
    unit: '× d_model',
    path: '/model/overrides/d_ff (= ratio × d_model)',
    group: 'model',
    advanced: true,
    help: 'MLP width F as a multiple of D',
  },
  {
    key: 'heads',
    label: 'Heads',
    type: 'int',
    default: null,
    min: 1,
    max: 512,
    unit: '',
    path: '/model/overrides/heads',
    group: 'model',
    advanced: true,
    help: 'query heads N',
  },
  {
    key: 'kv_heads',
    label: 'KV heads',
    type: 'int',
    default: null,
    min: 1,
    max: 512,
    unit: '',
    path: '/model/overrides/kv_heads',
    group: 'model',
    advanced: true,
    help: 'key/value heads K (GQA when K < N)',
  },
  {
    key: 'vocab',
    label: 'Vocabulary',
    type: 'int',
    default: null,
    min: 256,
    max: 2097152,
    scale: 'log2',
    unit: 'tokens',
    path: '/model/overrides/vocab',
    group: 'model',
    advanced: true,
    help: 'vocabulary size V',
  },
  {
    key: 'experts',
    label: 'Experts',
    type: 'int',
    default: null,
    min: 0,
    max: 1024,
    unit: '',
    path: '/model/overrides/experts',
    group: 'model',
    advanced: true,
    help: 'routed experts E (0 = dense)',
  },
  {
    key: 'active',
    label: 'Active experts',
    type: 'int',
    default: null,
    min: 0,
    max: 64,
    unit: '',
    path: '/model/overrides/active_experts',
    group: 'model',
    advanced: true,
    help: 'experts per token k',
  },

  {
    key: 'chips',
    label: 'Chips',
    type: 'int',
    default: null,
    min: 1,
    max: 65536,
    scale: 'log2',
    unit: 'chips',
    path: '/mesh/shape (product of the degrees)',
    group: 'mesh',
    help: 'set: the chip count stays fixed and FSDP (or DP) takes what TP, PP, EP and CP leave; unset: the degrees set the count',
  },
  {
    key: 'dp',
    label: 'Data parallel (DP)',
    type: 'int',
    default: 1,
    min: 1,
    max: 8192,
    scale: 'log2',
    unit: 'chips',
    path: '/query/parallelism/data (mesh axes)',
    group: 'mesh',
    mode: 'training',
    degree: 'data',
    help: 'pure data parallelism, replicated weights (training: a serving replica is TP × EP chips, and the serving search sizes the replicas)',
  },
  {
    key: 'fsdp',
    label: 'FSDP',
    type: 'int',
    default: 256,
    min: 1,
    max: 8192,
    scale: 'log2',
    unit: 'chips',
    path: '/query/parallelism/fsdp (mesh axes)',
    group: 'mesh',
    mode: 'training',
    degree: 'fsdp',
    help: 'fully sharded data parallelism (ZeRO)',
  },
  {
    key: 'zero',
    label: 'ZeRO stage',
    type: 'int',
    default: 3,
    min: 1,
    max: 3,
    unit: '',
    path: '/query/parallelism/zero_stage',
    group: 'mesh',
    mode: 'training',
    advanced: true,
    help: '1: optimizer states, 2: + gradients, 3: + weights sharded',
  },
  {
    key: 'tp',
    label: 'Tensor parallel (TP)',
    type: 'int',
    default: 8,
    min: 1,
    max: 512,
    scale: 'log2',
    unit: 'chips',
    path: '/query/parallelism/tensor (mesh axes)',
    group: 'mesh',
    degree: 'tensor',
    help: 'Megatron tensor parallelism',
  },
  {
    key: 'sp',
    label: 'Sequence parallel',
    type: 'bool',
    default: true,
    unit: '',
    path: '/query/parallelism/sequence_parallel',
    group: 'mesh',
    mode: 'training',
    advanced: true,
    help: 'shard activations along the sequence between TP matmuls',
  },
  {
    key: 'pp',
    label: 'Pipeline (PP)',
    type: 'int',
    default: 1,
    min: 1,
    max: 256,
    scale: 'log2',
    unit: 'stages',
    path: '/query/parallelism/pipeline (mesh axes)',
    group: 'mesh',
    mode: 'training',
    degree: 'pipeline',
    help: 'pipeline stages',
  },
  {
    key: 'sched',
    label: 'Pipeline schedule',
    type: 'enum',
    default: '1f1b',
    choices: PIPELINE_SCHEDULES,
    unit: '',
    path: '/query/parallelism/pipeline_schedule',
    group: 'mesh',
    mode: 'training',
    advanced: true,
    help: 'how microbatches flow through the stages (zero_bubble splits the weight gradients off; dualpipe and dualpipe_v are DeepSeek’s bidirectional schedules)',
  },
  {
    key: 'vstages',
    label: 'Virtual stages',
    type: 'int',
    default: 1,
    min: 1,
    max: 16,
    unit: '',
    path: '/query/parallelism/virtual_stages',
    group: 'mesh',
    mode: 'training',
    advanced: true,
    help: 'interleaved schedule: model chunks per stage (dualpipe_v always runs two)',
  },
  {
    key: 'mb',
    label: 'Microbatches',
    type: 'int',
    default: 1,
    min: 1,
    max: 4096,
    scale: 'log2',
    unit: '',
    path: '/query/parallelism/microbatches',
    group: 'mesh',
    mode: 'training',
    advanced: true,
    help: 'microbatches per step (pipeline bubble, activation memory)',
  },
  {
    key: 'ep',
    label: 'Expert parallel (EP)',
    type: 'int',
    default: 1,
    min: 1,
    max: 1024,
    scale: 'log2',
    unit: 'chips',
    path: '/query/parallelism/expert (mesh axes)',
    group: 'mesh',
    degree: 'expert',
    advanced: true,
    help: 'experts sharded across chips (MoE)',
  },
  {
    key: 'etp',
    label: 'Experts’ TP',
    type: 'int',
    default: null,
    min: 1,
    max: 512,
    scale: 'log2',
    unit: 'chips',
    path: '/query/parallelism/expert_tensor',
    group: 'mesh',
    advanced: true,
    help: 'MoE: the TP degree inside the experts, dividing TP; the other TP ranks join the expert-parallel group (parallel folding). Unset: the TP degree',
  },
  {
    key: 'cp',
    label: 'Context parallel (CP)',
    type: 'int',
    default: 1,
    min: 1,
    max: 256,
    scale: 'log2',
    unit: 'chips',
    path: '/query/parallelism/context (mesh axes)',
    group: 'mesh',
    mode: 'training',
    degree: 'context',
    advanced: true,
    help: 'ring attention over the sequence',
  },
  {
    key: 'slices',
    label: 'Slices (DCN)',
    type: 'int',
    default: 1,
    min: 1,
    max: 256,
    scale: 'log2',
    unit: 'slices',
    path: '/mesh/slices',
    group: 'mesh',
    mode: 'training',
    advanced: true,
    help: 'TPU slices joined over the data-center network',
  },
  {
    key: 'dcn',
    label: 'DCN axis used for',
    type: 'enum',
    default: 'data',
    choices: ['data', 'fsdp'],
    unit: '',
    path: '/query/parallelism/{data|fsdp} (the DCN axis)',
    group: 'mesh',
    mode: 'training',
    advanced: true,
    help: 'which strategy spans the slices',
  },
  {
    key: 'layout',
    label: 'Mesh layout',
    type: 'text',
    default: '',
    pattern: LAYOUT_RE,
    examples: ['fsdp4.fsdp4.tensor4', 'fsdp16.fsdp16.fsdp4*tensor2', 'fsdp8.pipeline4.tensor2', 'data1'],
    unit: '',
    path: '/mesh/shape and /query/parallelism (axes in mesh order; an axis split between strategies lists its pieces outermost first, joined by *; each piece a strategy and a size)',
    group: 'mesh',
    mode: 'training',
    hidden: true,
    help: 'the exact mesh of an applied plan; moving a degree returns to the automatic layout',
  },

  {
    key: 'batch',
    label: 'Global batch',
    type: 'int',
    default: 4194304,
    min: 1024,
    max: 1073741824,
    scale: 'log2',
    unit: 'tokens',
    path: '/query/batch_tokens',
    group: 'training',
    mode: 'training',
    help: 'tokens per optimizer step',
  },
  {
    key: 'seq',
    label: 'Sequence length',
    type: 'int',
    default: 4096,
    min: 128,
    max: 1048576,
    scale: 'log2',
    unit: 'tokens',
    path: '/query/seq_len',
    group: 'training',
    mode: 'training',
    help: 'tokens per sequence',
  },
  {
    key: 'remat',
    label: 'Rematerialisation',
    type: 'enum',
    default: 'block',
    choices: ['none', 'block', 'big_matmuls', 'mlp_matmuls', 'checkpoints', 'selective'],
    unit: '',
    path: '/query/remat',
    group: 'training',
    mode: 'training',
    help: 'what the backward pass recomputes',
  },
  {
    key: 'ckpt',
    label: 'Checkpoints per layer',
    type: 'int',
    default: 4,
    min: 1,
    max: 64,
    unit: 'tensors of width D',
    path: '/query/checkpoints_per_layer',
    group: 'training',
    mode: 'training',
    showIf: { key: 'remat', value: 'checkpoints' },
    advanced: true,
    help: 'activations of width D saved per layer; the rest is recomputed (the book: 4 for LLaMA-3 70B)',
  },
  {
    key: 'mm',
    label: 'Matmul precision',
    type: 'enum',
    default: 'bf16',
    choices: MATMUL_PRECISIONS,
    unit: '',
    path: '/query/precision/matmul',
    group: 'training',
    mode: 'training',
    help: 'dtype of the matmuls, or a scaled low-precision recipe (fp8_blockwise: DeepSeek’s 128-wide blocks; mxfp8, nvfp4: Blackwell’s microscaled formats)',
  },
  {
    key: 'cap',
    label: 'Expert capacity',
    type: 'float',
    default: null,
    min: 0.25,
    max: 16,
    step: 0.05,
    unit: '× mean tokens',
    path: '/query/moe/capacity_factor (token_policy drop)',
    group: 'training',
    mode: 'training',
    advanced: true,
    unsetText: 'dropless',
    help: 'MoE: the tokens an expert takes at most, as a multiple of its mean; the rest are dropped. Unset: dropless',
  },
  {
    key: 'imb',
    label: 'Expert load imbalance',
    type: 'float',
    default: 1,
    min: 1,
    max: 8,
    step: 0.05,
    unit: '× mean',
    path: '/query/moe/load_imbalance',
    group: 'training',
    mode: 'training',
    advanced: true,
    help: 'MoE: the busiest expert rank’s tokens over the mean (1: balanced routing, as the benchmarks force)',
  },
  {
    key: 'disp',
    label: 'Token dispatcher',
    type: 'enum',
    default: 'all_to_all',
    choices: ['all_to_all', 'hierarchical'],
    unit: '',
    path: '/query/moe/dispatcher',
    group: 'training',
    mode: 'training',
    advanced: true,
    help: 'MoE: every copy of a token sent to its expert (all_to_all), or one copy per node over the scale-out network (hierarchical: DeepEP, HybridEP)',
  },
  {
    key: 'epov',
    label: 'Overlap expert dispatch',
    type: 'bool',
    default: false,
    unit: '',
    path: '/query/moe/overlap',
    group: 'training',
    mode: 'training',
    advanced: true,
    help: 'MoE: dispatch and combine run beside another microbatch’s compute (Megatron’s EP overlap; DualPipe always does)',
  },
  {
    key: 'master',
    label: 'Master weights',
    type: 'enum',
    default: 'none',
    choices: ['none', 'bf16', 'fp32'],
    unit: '',
    path: '/query/precision/master_weights',
    group: 'training',
    mode: 'training',
    advanced: true,
    help: 'extra copy of the weights kept by the optimizer',
  },
  {
    key: 'opt',
    label: 'Optimizer states',
    type: 'enum',
    default: 'fp32',
    choices: ['fp32', 'bf16'],
    unit: '',
    path: '/query/precision/optimizer_states',
    group: 'training',
    mode: 'training',
    advanced: true,
    help: 'Adam moments dtype',
  },
  {
    key: 'comms',
    label: 'Comms overlap model',
    type: 'enum',
    default: 'max',
    choices: ['max', 'sum'],
    unit: '',
    path: '/query/comms_model',
    group: 'training',
    mode: 'training',
    advanced: true,
    help: 'max: comms on different axes overlap (Aug 2025); sum: they add (Feb 2025)',
  },
  {
    key: 'train_tokens',
    label: 'Training tokens',
    type: 'float',
    default: 15e12,
    min: 1e6,
    max: 1e15,
    scale: 'log10',
    unit: 'tokens',
    path: '/query/train_tokens',
    group: 'training',
    mode: 'training',
    help: 'tokens of the whole run (time and cost to train)',
  },
  // Failures, checkpoints and restarts (issue 38): unset, the key is left out and the engine's cited default applies
  // (the control shows the value it used, goodput.settings).
  {
    key: 'fail',
    label: 'Failures per chip-hour',
    type: 'float',
    default: null,
    min: 1e-7,
    max: 1e-2,
    scale: 'log10',
    unit: '1/h',
    path: '/query/goodput/failures_per_chip_hour',
    group: 'training',
    mode: 'training',
    advanced: true,
    help: 'interruptions per chip-hour from every cause; one chip stops the whole job (unset: the chip family’s published rate)',
  },
  {
    key: 'ckpt_mode',
    label: 'Checkpoint saves',
    type: 'enum',
    default: null,
    choices: CHECKPOINT_MODES,
    unit: '',
    path: '/query/goodput/checkpoint',
    group: 'training',
    mode: 'training',
    advanced: true,
    help: 'blocking: the step waits for the write to storage; async: only for a copy to host memory; in_memory: a peer host also keeps the copy (unset: the engine’s default)',
  },
  {
    key: 'replace',
    label: 'Host replacement',
    type: 'float',
    default: null,
    min: 1,
    max: 86400,
    scale: 'log10',
    unit: 's',
    path: '/query/goodput/host_replace_s',
    group: 'training',
    mode: 'training',
    advanced: true,
    help: 'detecting a failure and swapping in a healthy host, per failure (unset: the engine’s cited default)',
  },

  {
    key: 'sbatch',
    label: 'Batch',
    type: 'int',
    default: 32,
    min: 1,
    max: 65536,
    scale: 'log2',
    unit: 'sequences',
    path: '/query/batch',
    group: 'serving',
    mode: 'serving',
    help: 'sequences decoded together',
  },
  {
    key: 'prompt',
    label: 'Prompt length',
    type: 'int',
    default: 8192,
    min: 1,
    max: 1048576,
    scale: 'log2',
    unit: 'tokens',
    path: '/query/prompt_len',
    group: 'serving',
    mode: 'serving',
    help: 'tokens prefilled per sequence',
  },
  {
    key: 'gen',
    label: 'Generated length',
    type: 'int',
    default: 512,
    min: 1,
    max: 1048576,
    scale: 'log2',
    unit: 'tokens',
    path: '/query/generated_len',
    group: 'serving',
    mode: 'serving',
    help: 'tokens decoded per sequence',
  },
  {
    key: 'wdt',
    label: 'Weights dtype',
    type: 'enum',
    default: null,
    choices: WEIGHT_DTYPES,
    unit: '',
    path: '/query/dtypes/weights',
    group: 'serving',
    mode: 'serving',
    help: 'dtype of the stored weights (unset: the dtype the model is published in)',
  },
  {
    key: 'adt',
    label: 'GEMM inputs dtype',
    type: 'enum',
    default: 'bf16',
    choices: ['bf16', 'fp8', 'fp4'],
    unit: '',
    path: '/query/dtypes/activations',
    group: 'serving',
    mode: 'serving',
    advanced: true,
    help: 'the GEMMs’ activations: bf16 beside narrower weights is weight-only; fp8 is W8A8, as FP8 serving engines run',
  },
  {
    key: 'kvdt',
    label: 'KV cache dtype',
    type: 'enum',
    default: 'bf16',
    choices: DTYPES,
    unit: '',
    path: '/query/dtypes/kv',
    group: 'serving',
    mode: 'serving',
    help: 'dtype of the KV cache',
  },
  {
    key: 'scomms',
    label: 'Include communication',
    type: 'bool',
    default: true,
    unit: '',
    path: '/query/include_comms',
    group: 'serving',
    mode: 'serving',
    advanced: true,
    help: 'the book’s serving figures leave communication out',
  },
  {
    key: 'sdeploy',
    label: 'Headline counts',
    type: 'enum',
    default: 'one_replica',
    choices: ['one_replica', 'colocated_prefill', 'disaggregated_prefill'],
    unit: '',
    path: '/query/deployment/prefill',
    group: 'serving',
    mode: 'serving',
    help: 'one replica: its decode step and its own chips; a deployment: the replicas the demand needs (and prefill servers), a colocated token waiting also for the prompts prefilled between steps, as the serving search counts its rows',
  },
  {
    key: 'kvctx',
    label: 'KV context per decode step',
    type: 'int',
    default: null,
    min: 1,
    max: 2097152,
    scale: 'log2',
    unit: 'tokens',
    path: '/query/kv_context_len',
    group: 'serving',
    mode: 'serving',
    advanced: true,
    help: 'tokens of KV cache a decode step reads (default: prompt + half the generated tokens)',
  },
  {
    key: 'sparams',
    label: 'Parameter count (override)',
    type: 'float',
    default: null,
    min: 1e6,
    max: 1e13,
    scale: 'log10',
    unit: 'parameters',
    path: '/query/params_override',
    group: 'serving',
    mode: 'serving',
    advanced: true,
    unsetText: 'the model’s own',
    help: 'the parameter count the serving math uses (the book’s figures round LLaMA-3 70B to 70e9); unset: the model’s own',
  },
  {
    key: 'spec',
    label: 'Speculative decoding',
    type: 'bool',
    default: false,
    unit: '',
    path: '/query/speculative',
    group: 'serving',
    mode: 'serving',
    advanced: true,
    help: 'a draft model proposes tokens that the model verifies in one step',
  },
  {
    key: 'draft',
    label: 'Draft model',
    type: 'enum',
    default: DEFAULT_DRAFT,
    choices: MODEL_IDS,
    unit: '',
    path: '/query/speculative/draft_model/preset',
    group: 'serving',
    mode: 'serving',
    showIf: { key: 'spec', value: true },
    advanced: true,
    help: 'the small model that drafts tokens on the same chips',
  },
  {
    key: 'lookahead',
    label: 'Lookahead',
    type: 'int',
    default: 4,
    min: 1,
    max: 64,
    unit: 'tokens',
    path: '/query/speculative/lookahead',
    group: 'serving',
    mode: 'serving',
    showIf: { key: 'spec', value: true },
    advanced: true,
    help: 'tokens drafted per step',
  },
  {
    key: 'accept',
    label: 'Acceptance rate',
    type: 'float',
    default: 0.8,
    min: 0.01,
    max: 0.99,
    step: 0.01,
    unit: '',
    path: '/query/speculative/acceptance_rate',
    group: 'serving',
    mode: 'serving',
    showIf: { key: 'spec', value: true },
    advanced: true,
    help: 'chance that the model accepts a drafted token',
  },
  // A benchmark's load (issue 35, docs/api.md "Under a benchmark's load"): unset, no load block is sent.
  {
    key: 'conc',
    label: 'Benchmark concurrency',
    type: 'int',
    default: null,
    min: 1,
    max: 4096,
    scale: 'log2',
    unit: 'requests',
    path: '/query/load/concurrency (and /query/load/concurrencies: powers of two up to max(512, 2 × it), at most 4,096, for the frontier)',
    group: 'serving',
    mode: 'serving',
    advanced: true,
    unsetText: 'no load',
    help: 'clients that each send their next request when the last one ends, as serving benchmarks run: adds TTFT, TPOT and throughput under that load, and the interactivity frontier (unset: none)',
  },
  {
    key: 'sbk',
    label: 'Serving engine (under load)',
    type: 'enum',
    default: null,
    choices: SERVING_BACKENDS,
    unit: '',
    path: '/query/load/backend',
    group: 'serving',
    mode: 'serving',
    advanced: true,
    unsetText: 'none: the kernels’ step',
    help: 'with a benchmark concurrency: that serving engine’s runtime, fitted on its measured deployments, prices the load (calibrated fidelity only; unset: the calibrated kernels’ step as it is)',
  },

  // The serving search's question (drawn in its panel, src/ui/serving-search.ts, not in the controls column).
  {
    key: 'slat',
    label: 'Latency per token at most',
    type: 'float',
    default: null,
    min: 1e-4,
    max: 10,
    scale: 'log10',
    unit: 's',
    path: '/query/targets/latency_per_token_s (serving_search)',
    group: 'serving',
    mode: 'serving',
    hidden: true,
    help: 'the search lists only deployments at most this slow per output token (colocated: the decode step plus the prompts prefilled between steps); unset: no target',
  },
  {
    key: 'sttft',
    label: 'Time to first token at most',
    type: 'float',
    default: null,
    min: 1e-3,
    max: 600,
    scale: 'log10',
    unit: 's',
    path: '/query/targets/time_to_first_token_s (serving_search)',
    group: 'serving',
    mode: 'serving',
    hidden: true,
    help: 'one request’s prompt prefilled alone; unset: no target',
  },
  {
    key: 'sobj',
    label: 'Best means',
    type: 'enum',
    default: 'usd_per_million_tokens',
    choices: ['usd_per_million_tokens', 'fewest_chips', 'tokens_per_s_per_chip'],
    unit: '',
    path: '/query/objective (serving_search)',
    group: 'serving',
    mode: 'serving',
    hidden: true,
    help: 'how the search ranks the deployments that meet the targets',
  },
  {
    key: 'sdemand',
    label: 'Demand',
    type: 'float',
    default: null,
    min: 1,
    max: 1e9,
    scale: 'log10',
    unit: 'tokens/s',
    path: '/query/demand_tokens_per_s (serving_search; deployment/demand_tokens_per_s, serving)',
    group: 'serving',
    mode: 'serving',
    hidden: true,
    help: 'output tokens per second to serve: sets how many replicas each deployment needs; unset: one replica',
  },
  {
    key: 'sprefill',
    label: 'Prefill',
    type: 'enum',
    default: 'both',
    choices: ['both', 'colocated', 'disaggregated'],
    unit: '',
    path: '/query/disaggregation (serving_search)',
    group: 'serving',
    mode: 'serving',
    hidden: true,
    help: 'colocated: prompts are prefilled on the decode chips between steps; disaggregated: on prefill servers of the same size',
  },
  {
    key: 'skeepb',
    label: 'Keep this batch',
    type: 'bool',
    default: false,
    unit: '',
    path: '/query/batches ([the batch], serving_search)',
    group: 'serving',
    mode: 'serving',
    hidden: true,
    help: 'search only the batch set here; off: powers of two up to the largest that fits',
  },
  {
    key: 'skeepdt',
    label: 'Keep these dtypes',
    type: 'bool',
    default: false,
    unit: '',
    path: '/query/dtypes (the weights and KV dtypes set here, serving_search)',
    group: 'serving',
    mode: 'serving',
    hidden: true,
    help: 'search only the weights and KV dtypes set here; off: bf16 and int8 (TPU) or fp8 (GPU)',
  },

  // The plan search's constraints and objective (drawn in its panel, src/ui/search-options.ts, under "advanced").
  {
    key: 'pobj',
    label: 'Best means',
    type: 'enum',
    default: 'step_time',
    choices: ['step_time', 'cost_to_train', 'tokens_per_usd'],
    unit: '',
    path: '/query/objective (plan_search)',
    group: 'training',
    mode: 'training',
    hidden: true,
    help: 'how the plan search ranks plans (on one mesh all three rank alike: cost is step time × chips × price)',
  },
  {
    key: 'pmaxtp',
    label: 'Tensor parallel at most',
    type: 'int',
    default: null,
    min: 1,
    max: 512,
    scale: 'log2',
    unit: 'chips',
    path: '/query/constraints/max_tensor (plan_search)',
    group: 'training',
    mode: 'training',
    hidden: true,
    help: 'the search keeps TP at or below this (e.g. within one NVLink domain or one torus axis); unset: any',
  },
  {
    key: 'pfit',
    label: 'Only plans that fit',
    type: 'bool',
    default: true,
    unit: '',
    path: '/query/constraints/must_fit (plan_search)',
    group: 'training',
    mode: 'training',
    hidden: true,
    help: 'on: plans out of HBM are not ranked; off: they are ranked after the fitting ones and listed, marked',
  },
  {
    key: 'phead',
    label: 'HBM headroom',
    type: 'float',
    default: 0,
    min: 0,
    max: 0.9,
    step: 0.01,
    unit: 'of HBM',
    path: '/query/constraints/memory_headroom_frac (plan_search)',
    group: 'training',
    mode: 'training',
    hidden: true,
    help: 'a plan fits only in (1 − headroom) of HBM: room for fragmentation and the framework',
  },
  {
    key: 'pwarn',
    label: 'Include plans with warnings',
    type: 'bool',
    default: false,
    unit: '',
    path: '/query/constraints/include_warnings (plan_search)',
    group: 'training',
    mode: 'training',
    hidden: true,
    help: 'plans the engine warns about (e.g. ZeRO-3 under PP) are left out unless this is on; listed, marked',
  },

  {
    key: 'fid',
    label: 'Charts show',
    type: 'enum',
    default: 'calibrated',
    choices: ['calibrated', 'book'],
    unit: '',
    path: '/query/fidelity (of the charts\u2019 scenarios)',
    group: 'efficiency',
    hidden: true,
    help: 'the calibrated estimate or the book\u2019s ideal model (an engine with both fidelities; the toggle sits by the headline)',
  },
  {
    key: 'cal',
    label: 'Calibration profile',
    type: 'text',
    default: '',
    pattern: PROFILE_REF_RE,
    examples: ['my-cluster~1a2b3c4d', 'h100-sxm~0badf00d'],
    unit: '',
    path: '/query/calibration (a profile loaded in this browser, by reference: its id and the fingerprint of its text, state/profile.ts; calibrated queries only)',
    group: 'efficiency',
    hidden: true,
    maxLength: 57,
    help: 'a calibration profile of your own in place of the shipped one; the link names it, this browser keeps its text',
  },
  {
    key: 'pin',
    label: 'Pinned comparison',
    type: 'text',
    default: '',
    pattern: PIN_RE,
    examples: ['v=1', 'v=1&tp=16&batch=2097152', 'v=1&mode=serving&hw=h100-sxm'],
    unit: '',
    path: '/ (not in the scenario: another state as a query string, drawn as ghost bars and compared)',
    group: 'workload',
    hidden: true,
    maxLength: 3000,
    help: 'the configuration pinned for comparison',
  },
  {
    key: 'eff_flops',
    label: 'FLOPs efficiency',
    type: 'float',
    default: 1,
    min: 0.05,
    max: 1,
    step: 0.01,
    unit: 'of peak',
    path: '/query/efficiency/flops_frac',
    group: 'efficiency',
    advanced: true,
    help: 'fraction of peak FLOP/s the matmuls reach (1: the book’s ideal roofline); in the calibrated estimate, a what-if factor on its fitted FLOP rates',
  },
  {
    key: 'eff_hbm',
    label: 'HBM efficiency',
    type: 'float',
    default: 1,
    min: 0.05,
    max: 1,
    step: 0.01,
    unit: 'of peak',
    path: '/query/efficiency/hbm_frac',
    group: 'efficiency',
    advanced: true,
    help: 'fraction of HBM bandwidth reached; in the calibrated estimate, a what-if factor on its fitted bandwidth',
  },
  {
    key: 'eff_net',
    label: 'Network efficiency',
    type: 'float',
    default: 1,
    min: 0.05,
    max: 1,
    step: 0.01,
    unit: 'of peak',
    path: '/query/efficiency/network_frac',
    group: 'efficiency',
    advanced: true,
    help: 'fraction of ICI, NVLink and DCN bandwidth the collectives reach; in the calibrated estimate, a what-if factor on its fitted link bandwidth',
  },
];

/** Hardware overrides live under one table row: URL keys `hw.<field path>` (e.g. hw.ici.link_unidir_bytes_per_s). */
export const HW_OVERRIDE_PREFIX = 'hw.';
export const HW_OVERRIDE_ROW = {
  key: 'hw.<field>',
  type: 'number | bool',
  default: 'the preset',
  range: '> 0',
  unit: 'SI, in the field name',
  path: '/hardware/overrides/<field>',
} as const;

export const PARAM_BY_KEY: ReadonlyMap<string, Param> = new Map(PARAMS.map((p) => [p.key, p]));
export const URL_VERSION = 1;

export interface State {
  values: Record<string, Value>;
  /** Hardware field overrides by dotted path; present = overridden. */
  hw: Record<string, number | boolean>;
}

/** A parameter table: the explorer's (PARAMS) or one extended with more rows (the widgets add theirs). */
export interface ParamTable {
  readonly params: readonly Param[];
  readonly byKey: ReadonlyMap<string, Param>;
}

export const BASE_TABLE: ParamTable = { params: PARAMS, byKey: PARAM_BY_KEY };

/** PARAMS followed by more rows (keys must be new). */
export function extendTable(rows: readonly Param[]): ParamTable {
  for (const r of rows) if (PARAM_BY_KEY.has(r.key)) throw new Error(`parameter '${r.key}' is already in the table`);
  const params = [...PARAMS, ...rows];
  return { params, byKey: new Map(params.map((p) => [p.key, p])) };
}

export function defaultState(table: ParamTable = BASE_TABLE): State {
  const values: Record<string, Value> = {};
  for (const p of table.params) values[p.key] = p.default;
  return { values, hw: {} };
}

export function cloneState(s: State): State {
  return { values: { ...s.values }, hw: { ...s.hw } };
}

export function param(key: string): Param {
  const p = PARAM_BY_KEY.get(key);
  if (!p) throw new Error(`no parameter '${key}'`);
  return p;
}

export function hardwarePreset(id: string): HardwarePreset {
  return PRESETS.hardware.find((h) => h.id === id) ?? PRESETS.hardware[0]!;
}

export function modelPreset(id: string): ModelPreset {
  return PRESETS.models.find((m) => m.id === id) ?? PRESETS.models[0]!;
}

const NOT_FIELDS = new Set([
  'id',
  'name',
  'vendor',
  'kind',
  'schema',
  'sources',
  'notes',
  'datasheet_differences',
  'price_date',
  'not_modelled',
]);

export interface HardwareField {
  path: string;
  value: number | boolean;
  source?: string;
}

/** Every editable field of a hardware preset (numbers and switches; lists and rules are not editable here), with
 * its source where the chip's sources (virtual:scalescope-chip-sources, loaded after first paint) are given. */
export function hardwareFields(hw: HardwarePreset, sources?: Readonly<Record<string, string>>): HardwareField[] {
  const out: HardwareField[] = [];
  const walk = (obj: Record<string, unknown>, prefix: string): void => {
    for (const [k, v] of Object.entries(obj)) {
      if (!prefix && NOT_FIELDS.has(k)) continue;
      const path = prefix ? `${prefix}.${k}` : k;
      if (typeof v === 'number' || typeof v === 'boolean') {
        const source = sources?.['/' + path.replaceAll('.', '/')];
        out.push(source === undefined ? { path, value: v } : { path, value: v, source });
      } else if (v && typeof v === 'object' && !Array.isArray(v)) walk(v as Record<string, unknown>, path);
    }
  };
  walk(hw, '');
  return out;
}

/** Visible in the given mode? */
export function inMode(p: Param, mode: string): boolean {
  return p.mode === undefined || p.mode === mode;
}
