// Views for sharded matmuls (scaling-book/sharding, scaling-book/profiling, scaling-book/jax-stuff) and the
// Transformer's accounting (scaling-book/transformers).
import { html, type TemplateResult } from 'lit';
import type { CollectiveStep as Step, ShardedMatmulResult, TransformerResult } from '../../engine/types';
import { COLOURS, fmtBytes, fmtCount, fmtFlops, fmtPercent, fmtSeconds } from '../../charts/format';
import { bars } from '../../charts/bars';
import { MODEL_IDS, type State } from '../../state/params';
import { transformerScenario } from '../../state/scenario';
import { MATMUL_PATTERNS } from '../params';

const PATTERN_LABELS = Object.fromEntries(Object.entries(MATMUL_PATTERNS).map(([k, v]) => [k, v.label]));
import { card, need, warningBox, warnings, type View } from '../view';
import { hardwareOfState, opName } from './basics';

const num = (s: State, k: string): number => Number(s.values[k]);
const str = (s: State, k: string): string => String(s.values[k]);

// ------------------------------------------------------------------------------------------------ sharded matmul

interface MatmulData {
  r: ShardedMatmulResult;
  expression: string;
  warnings: string[];
}

const PLAN_NAMES: Record<string, string> = {
  local: 'multiply locally',
  gather_then_multiply: 'gather, then multiply',
  multiply_then_reduce: 'multiply, then reduce',
  gather_A: 'gather A first',
  gather_B: 'gather B first',
  reshard_batch_A: 'reshard A to B’s batch split',
  reshard_batch_B: 'reshard B to A’s batch split',
  gather_batch: 'gather the batch dimension',
  gather_output: 'multiply, then gather the output',
};
const planName = (n: string): string => PLAN_NAMES[n] ?? n.replace(/_/g, ' ');

function stepText(st: Step): TemplateResult {
  return html`${opName(st.op)} of ${st.array} over ${st.axes.join(', ')}: <code>${st.before}</code> → <code>${st.after}</code>, ${fmtBytes(st.bytes)}, ${fmtSeconds(st.time_s)} (${st.regime})`;
}

export const shardedMatmul: View<MatmulData> = {
  title: 'A sharded matmul',
  modelFree: true,
  blurb:
    'One matmul on a mesh of X × Y chips: which collectives it needs for the chosen sharding, what they cost next to the math, and the cheapest order (the book’s chapter 3). The mesh axes X and Y take the FSDP and TP degrees.',
  controls: () => [
    { key: 'hw' },
    { key: 'mm_pattern', optionLabels: PATTERN_LABELS },
    { key: 'fsdp', label: 'Mesh axis X', max: 256 },
    { key: 'tp', label: 'Mesh axis Y', max: 256 },
    { key: 'mm_b' },
    { key: 'mm_d' },
    { key: 'mm_f' },
  ],
  async compute(s, ask) {
    const pattern = MATMUL_PATTERNS[str(s, 'mm_pattern')] ?? MATMUL_PATTERNS['allreduce']!;
    const scenario = {
      version: 1,
      hardware: hardwareOfState(s),
      mesh: { shape: [num(s, 'fsdp'), num(s, 'tp')], axis_names: ['X', 'Y'] },
      query: {
        kind: 'sharded_matmul',
        expression: pattern.expression,
        dims: { B: num(s, 'mm_b'), D: num(s, 'mm_d'), F: num(s, 'mm_f') },
      },
    };
    const r = await ask([scenario]);
    if (!r) return null;
    return {
      r: need<ShardedMatmulResult>(r[0], 'sharded matmul'),
      expression: pattern.expression,
      warnings: warnings(r[0]),
    };
  },
  render(_s, d) {
    const best = d.r.best;
    const rows = d.r.plans.map((p, i) => ({
      label: planName(p.name),
      emphasis: i === 0,
      note: `${p.bound}-bound`,
      segments: [
        { label: 'compute', value: p.compute_s, colour: COLOURS.compute },
        { label: 'communication', value: p.comms_s, colour: COLOURS.comms },
      ],
    }));
    return html`
      ${warningBox(d.warnings)}
      <p class="note"><code>${d.expression}</code> — ${d.r.description}.</p>
      <div class="cards">
        ${card('best_lower', 'Cheapest plan, at least', best.lower_bound_s, fmtSeconds(best.lower_bound_s))}
        ${card('compute', 'Math per chip', best.compute_s, fmtSeconds(best.compute_s))}
        ${card('comms', 'Communication', best.comms_s, fmtSeconds(best.comms_s))}
        ${card('bound', 'Bound by', undefined, best.bound, false, true)}
        ${card('flops', 'FLOPs per chip', best.flops_per_device, fmtFlops(best.flops_per_device))}
      </div>
      ${bars(rows, [], (v) => fmtSeconds(v), 'Compute and communication time of each plan (stacked: no overlap; the estimate is the larger of the two)')}
      <ol class="note">${d.r.plans.map((p) => html`<li><b>${planName(p.name)}</b>: local <code>${p.local_matmul}</code>, output <code>${p.output}</code>${p.steps.length ? html`<ul>${p.steps.map((st) => html`<li>${stepText(st)}</li>`)}</ul>` : ' — no communication.'}</li>`)}</ol>`;
  },
};

// ----------------------------------------------------------------------------- transformer (scaling-book/transformers)

interface TransformerData {
  t: TransformerResult;
  name: string;
}

/** "from 16,384 tokens of context", or never where sliding or chunked windows cap attention below it. */
const crossover = (seqLen: number | undefined): string =>
  seqLen === undefined
    ? 'at no context (its windows cap attention below them)'
    : `from ${fmtCount(seqLen)} tokens of context`;

export const transformer: View<TransformerData> = {
  title: 'Transformer accounting',
  blurb:
    'Parameters, FLOPs per token, KV cache and activation memory of a model (the book’s chapter 4), counted exactly by the engine (attention FLOPs and untied embeddings included).',
  controls: () => [
    { key: 'model', choices: MODEL_IDS },
    { key: 'seq', max: 131072 },
    { key: 'remat', label: 'Rematerialisation (activations)' },
  ],
  async compute(s, ask) {
    const r = await ask([transformerScenario(s)]);
    if (!r) return null;
    return { t: need<TransformerResult>(r[0], 'transformer'), name: str(s, 'model') };
  },
  render(s, d) {
    const t = d.t;
    const p = t.params;
    const parts = [
      { label: 'MLP', value: p.mlp, colour: COLOURS.compute },
      { label: 'attention', value: p.attention, colour: COLOURS.comms },
      { label: 'embeddings', value: p.embeddings, colour: COLOURS.memory },
      { label: 'router', value: p.router, colour: COLOURS.params },
      { label: 'norms', value: p.norms, colour: COLOURS.other },
    ];
    const remat = (['none', 'mlp_matmuls', 'big_matmuls', 'block'] as const).map((k) => ({
      label: k.replace('_', ' '),
      emphasis: k === str(s, 'remat'),
      segments: [
        { label: 'activations per sequence', value: t.remat_policies[k].activation_bytes, colour: COLOURS.activations },
      ],
    }));
    return html`
      <div class="cards">
        ${card('params', 'Parameters', p.total, fmtCount(p.total))}
        ${p.active !== p.total ? card('active', 'Active per token', p.active, `${fmtCount(p.active)} (${fmtCount(p.active_in_matmuls)} in matmuls)`) : ''}
        ${card('six_n', '6N FLOPs per token', t.six_n_flops_per_token, fmtFlops(t.six_n_flops_per_token))}
        ${card('train_flops_token', 'Training FLOPs per token', t.training_flops_per_token, fmtFlops(t.training_flops_per_token))}
        ${card('attention_frac', 'Attention share of FLOPs', t.attention_flops_fraction, fmtPercent(t.attention_flops_fraction))}
        ${card('kv_token', 'KV cache per token', t.kv_cache_bytes_per_token, fmtBytes(t.kv_cache_bytes_per_token))}
        ${card('kv_seq', 'KV cache per sequence', t.kv_cache_bytes_per_sequence, fmtBytes(t.kv_cache_bytes_per_sequence))}
        ${card('adam', 'Params + Adam (10 B/param)', t.params_and_adam_bytes, fmtBytes(t.params_and_adam_bytes))}
      </div>
      ${bars([{ label: 'parameters', segments: parts }], [], (v) => fmtCount(v), 'Parameters by component')}
      ${bars(remat, [], (v) => fmtBytes(v), `Activation memory per ${fmtCount(t.seq_len)}-token sequence, by what the backward pass keeps`)}
      <p class="note">Attention costs as much as the QKVO projections ${crossover(t.attention_equals_qkvo_seq_len)}, and as much as all matmuls ${crossover(t.attention_equals_matmuls_seq_len)}.</p>`;
  },
};
