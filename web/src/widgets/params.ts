// The widgets' parameter table: the explorer's rows (src/state/params.ts) plus a few rows only widgets use. A
// widget's `state` attribute, its "open in explorer" link and its embed code all go through the explorer's URL codec
// (src/state/url.ts) with this table; the explorer link (explorer-link.ts) maps a view's own keys onto the explorer's.
import { extendTable, type Param, type State } from '../state/params';
import { decodeState, encodeState, type Decoded } from '../state/url';
import { QUERY_CHOICES } from '../engine/schema-choices';

export const COLLECTIVE_OPS = QUERY_CHOICES.collective['/op'];

/**
 * Sharded-matmul patterns from the book (scaling-book/sharding), by id; the engine does the rest (docs/api.md
 * `sharded_matmul`).
 */
export const MATMUL_PATTERNS: Readonly<Record<string, { expression: string; label: string }>> = {
  local: {
    expression: 'In[B_X, D] * W[D, F_Y] -> Out[B_X, F_Y]',
    label: 'In[B_X, D] · W[D, F_Y]: no contraction sharded (case 1)',
  },
  gather: {
    expression: 'In[B, D_X] * W[D, F] -> Out[B, F]',
    label: 'In[B, D_X] · W[D, F]: one input sharded on D (case 2)',
  },
  allreduce: {
    expression: 'In[B, D_X] * W[D_X, F] -> Out[B, F]',
    label: 'In[B, D_X] · W[D_X, F] → Out[B, F]: both on D, AllReduce (case 3)',
  },
  reducescatter: {
    expression: 'In[B, D_X] * W[D_X, F] -> Out[B, F_X]',
    label: 'In[B, D_X] · W[D_X, F] → Out[B, F_X]: ReduceScatter (case 3)',
  },
  free: { expression: 'In[B_X, D] * W[D, F_X]', label: 'In[B_X, D] · W[D, F_X]: same axis on both free dims (case 4)' },
  fsdp_tp: {
    expression: 'In[B_X, D_Y] * W[D_Y, F] -> Out[B_X, F]',
    label: 'In[B_X, D_Y] · W[D_Y, F]: batch on X, contraction on Y',
  },
  fsdp_weights: {
    expression: 'In[B_X, D] * W[D_X, F_Y] -> Out[B_X, F_Y]',
    label: 'In[B_X, D] · W[D_X, F_Y]: FSDP weights gathered (X), TP on F (Y)',
  },
  collective_matmul: {
    expression: 'In[B_X, D_Y] * W[D, F_Y] -> Out[B_X, F_Y]',
    label: 'In[B_X, D_Y] · W[D, F_Y]: gather In over Y, or overlap it (collective matmul, the book’s chapter 10)',
  },
  down_proj: {
    expression: 'In[B_X, F_Y] * W[F_Y, D] -> Out[B_X, D_Y]',
    label: 'T[B_X, F_Y] · W_out[F_Y, D] → Out[B_X, D_Y]: ReduceScatter over Y',
  },
};

export const WIDGET_ROWS: readonly Param[] = [
  {
    key: 'ai',
    label: 'Arithmetic intensity',
    type: 'float',
    default: 100,
    min: 0.01,
    max: 100000,
    scale: 'log10',
    unit: 'FLOPs/byte',
    path: '/query/flops (= intensity × /query/bytes)',
    group: 'workload',
    help: 'FLOPs per byte moved: the x-axis of the roofline',
  },
  {
    key: 'op',
    label: 'Collective',
    type: 'enum',
    default: 'all_gather',
    choices: COLLECTIVE_OPS,
    unit: '',
    path: '/query/op',
    group: 'mesh',
    help: 'which collective to time',
  },
  {
    key: 'cbytes',
    label: 'Array size V',
    type: 'float',
    default: 1073741824,
    min: 1024,
    max: 1099511627776,
    scale: 'log2',
    unit: 'bytes',
    path: '/query/bytes',
    group: 'mesh',
    help: 'bytes of the whole array one group gathers or reduces (the book’s sharding chapter)',
  },
  {
    key: 'sharp',
    label: 'In-network reduction (SHARP)',
    type: 'bool',
    default: false,
    unit: '',
    path: '/query/in_network_reduction',
    group: 'mesh',
    help: 'NVLink/InfiniBand switches reduce in flight (GPU)',
  },
  {
    key: 'gpus',
    label: 'GPUs in the cluster',
    type: 'int',
    default: 4096,
    min: 8,
    max: 65536,
    scale: 'log2',
    unit: 'GPUs',
    path: '/query/gpus',
    group: 'hardware',
    help: 'cluster size: the fat-tree levels it needs come from the engine',
  },
  {
    key: 'sx',
    label: 'Slice X',
    type: 'int',
    default: 4,
    min: 1,
    max: 32,
    unit: 'chips',
    path: '/mesh/shape/0',
    group: 'mesh',
    help: 'chips along the first torus axis',
  },
  {
    key: 'sy',
    label: 'Slice Y',
    type: 'int',
    default: 4,
    min: 1,
    max: 32,
    unit: 'chips',
    path: '/mesh/shape/1',
    group: 'mesh',
    help: 'chips along the second torus axis',
  },
  {
    key: 'sz',
    label: 'Slice Z',
    type: 'int',
    default: 4,
    min: 1,
    max: 32,
    unit: 'chips',
    path: '/mesh/shape/2',
    group: 'mesh',
    help: 'chips along the third torus axis (3D tori only)',
  },
  {
    key: 'mm_pattern',
    label: 'Sharding',
    type: 'enum',
    default: 'allreduce',
    choices: Object.keys(MATMUL_PATTERNS),
    unit: '',
    path: '/query/expression',
    group: 'mesh',
    help: 'how the two inputs are sharded over mesh axes X and Y',
  },
  {
    key: 'mm_b',
    label: 'B (batch)',
    type: 'int',
    default: 1024,
    min: 1,
    max: 16777216,
    scale: 'log2',
    unit: 'tokens',
    path: '/query/dims/B',
    group: 'workload',
    help: 'rows of the activations',
  },
  {
    key: 'mm_d',
    label: 'D (model width)',
    type: 'int',
    default: 8192,
    min: 64,
    max: 262144,
    scale: 'log2',
    unit: '',
    path: '/query/dims/D',
    group: 'workload',
    help: 'the contracting dimension',
  },
  {
    key: 'mm_f',
    label: 'F (MLP width)',
    type: 'int',
    default: 32768,
    min: 64,
    max: 1048576,
    scale: 'log2',
    unit: '',
    path: '/query/dims/F',
    group: 'workload',
    help: 'columns of the weights',
  },
  {
    key: 'cube',
    label: 'Chips (FSDP × TP)',
    type: 'int',
    default: 4096,
    min: 16,
    max: 16384,
    scale: 'log2',
    unit: 'chips',
    path: '/mesh/shape (a cube-like slice) and /query/fsdp = chips / tp',
    group: 'mesh',
    help: 'all chips of the figure’s slice; FSDP takes what TP leaves',
  },
];

export const WIDGET_TABLE = extendTable(WIDGET_ROWS);

export function decodeWidgetState(text: string): Decoded {
  return decodeState(text, WIDGET_TABLE);
}

/** The full widget state (explorer keys and widget keys) as a query string, for the `state` attribute. */
export function encodeWidgetState(s: State): string {
  return encodeState(s, WIDGET_TABLE);
}
