// <ss-facts>: the model's accounting and the chip's numbers from the engine (transformer and chip queries).
import { LitElement, html, nothing, type TemplateResult } from 'lit';
import { fmtBytes, fmtCount, fmtFlops, fmtFlopsPerS, fmtPercent, sig } from '../charts/format';
import { baseModel, weightsDtype } from '../state/scenario';
import { diagnosticsList } from './diagnostics';
import { isServing, type Results } from './results';
import type { ModelPreset, TransformerResult } from '../engine/types';

const ATTENTION_NAMES: Readonly<Record<string, string>> = {
  mha: 'multi-head',
  gqa: 'grouped-query',
  mqa: 'multi-query',
  mla: 'multi-head latent (MLA)',
};

/** "multi-head latent (MLA): 576 KV values per token per layer; …" or "grouped-query; 52 of 62 layers sliding (window 1024)". */
export function attentionWords(t: TransformerResult, m: ModelPreset): string {
  const a = t.attention;
  const parts = [
    `${ATTENTION_NAMES[a.kind] ?? a.kind}: ${fmtCount(a.kv_values_per_token_per_layer)} KV values per token per layer`,
  ];
  if (a.training_and_prefill && a.decode)
    parts.push(`${a.training_and_prefill} in training and prefill, ${a.decode} in decode`);
  const total = Object.values(t.layers).reduce((x, y) => x + y, 0);
  const count = (span: string): number =>
    Object.entries(t.layers).reduce((x, [k, v]) => x + (k.endsWith(`_${span}`) ? v : 0), 0);
  const sliding = count('sliding');
  const chunked = count('chunked');
  const linear = count('linear');
  if (sliding) parts.push(`${sliding} of ${total} layers sliding (window ${fmtCount(m.sliding_window)})`);
  if (chunked) parts.push(`${chunked} of ${total} layers chunked (${fmtCount(m.attention_chunk)} tokens)`);
  const recurrence = m.linear_attention?.kind === 'mamba2' ? 'Mamba-2' : 'Gated DeltaNet';
  if (linear) parts.push(`${linear} of ${total} layers linear (${recurrence}: a fixed state, no KV cache)`);
  const g = m.global_attention;
  if (g)
    parts.push(
      `the ${count('full')} global layers: ${fmtCount(g.kv_heads)} KV heads of ${fmtCount(g.head_dim)}${g.k_eq_v ? ', V = K' : ''}`,
    );
  if (m.sparse_attention)
    parts.push(
      `sparse: each query attends to the ${fmtCount(m.sparse_attention.index_topk)} keys its ${fmtCount(m.sparse_attention.index_heads)}-head fp8 indexer picks`,
    );
  return parts.join('; ');
}

/** "3 dense + 58 MoE + 1 MTP", "40 MoE + 8 without an MLP" for a model with layers of several MLP kinds or MTP; null for a uniform one. */
export function layerWords(t: TransformerResult, mtp: number): string | null {
  const count = (mlp: string): number =>
    Object.entries(t.layers).reduce((x, [k, v]) => x + (k.startsWith(`${mlp}_`) ? v : 0), 0);
  const dense = count('dense');
  const moe = count('moe');
  const none = count('none');
  if (!(dense && moe) && !mtp && !none) return null;
  return [
    dense ? `${dense} dense` : '',
    moe ? `${moe} MoE` : '',
    none ? `${none} without an MLP` : '',
    mtp ? `${mtp} MTP` : '',
  ]
    .filter(Boolean)
    .join(' + ');
}

/**
 * A mixture of experts' active parameters, both ways model cards count them: every parameter a token touches
 * (DeepSeek-V3's report: 37B) and those in its matmuls, without the embedding lookup and the norms (gpt-oss's
 * card: 5.13B).
 */
function activeWords(t: TransformerResult): TemplateResult {
  const inMatmuls = t.params.active_in_matmuls;
  return html` (<span title="every parameter a token touches, the embedding lookup included">${fmtCount(t.params.active)} active</span>, <span data-metric="params_active_in_matmuls" data-value=${String(inMatmuls)} title="without the embedding lookup and the norms">${fmtCount(inMatmuls)} in matmuls</span>)`;
}

/**
 * KV cache per token at this context: sliding-window and chunked layers keep only their window, so a model with
 * them holds less per token than its full-attention figure, and less the longer the context. Linear layers keep a
 * state of a fixed size instead, shown on its own: a hybrid's memory per sequence grows only with its
 * softmax-attention layers, so the batch that fits shrinks far more slowly with the context (the book's
 * memory-bound decode, scaling-book/inference, with a state in place of a cache).
 */
function kvPerToken(t: TransformerResult): TemplateResult {
  const state = t.recurrent_state_bytes_per_sequence ?? 0;
  const atContext = (t.kv_cache_bytes_per_sequence - state) / t.seq_len;
  const windowed = atContext < t.kv_cache_bytes_per_token * (1 - 1e-9);
  const kv = html`<div><dt>KV cache per token</dt><dd data-metric="kv_cache_bytes_per_token" data-value=${String(atContext)}>${fmtBytes(atContext)}${windowed ? html` <span class="muted">at ${fmtCount(t.seq_len)} tokens of context (${fmtBytes(t.kv_cache_bytes_per_token)} if every layer kept every token)</span>` : nothing}</dd></div>`;
  if (!state) return kv;
  return html`${kv}<div><dt>Recurrent state per sequence</dt><dd data-metric="recurrent_state_bytes_per_sequence" data-value=${String(state)}>${fmtBytes(state)} <span class="muted">the linear layers' state, whatever the context (${fmtBytes(t.kv_cache_bytes_per_sequence)} per sequence in all at ${fmtCount(t.seq_len)} tokens)</span></dd></div>`;
}

export class SsFacts extends LitElement {
  static override properties = { results: { attribute: false } };
  results!: Results;

  protected override createRenderRoot(): this {
    return this;
  }

  override render(): TemplateResult {
    const r = this.results;
    if (!r) return html``;
    const t = r.transformer?.ok ? r.transformer.result : undefined;
    const chip = r.chip?.ok ? r.chip.result : undefined;
    const base = baseModel(r.state);
    // The shape the engine computed with: the reader's rows and resize applied (the preset's before it answers).
    const m = t?.model ?? base;
    // Serving runs the forward pass on weights alone: no backward FLOPs, no optimizer states.
    const serving = isServing(r.state);
    const work = serving
      ? html`<div><dt>Forward FLOPs per token</dt><dd data-metric="forward_flops_per_token" data-value=${String(t ? t.forward_flops / t.tokens : '')}>${fmtFlops(t ? t.forward_flops / t.tokens : undefined)}</dd></div>`
      : html`<div><dt>Training FLOPs per token</dt><dd data-metric="training_flops_per_token" data-value=${String(t?.training_flops_per_token ?? '')}>${fmtFlops(t?.training_flops_per_token)} <span class="muted">(6N = ${fmtFlops(t?.six_n_flops_per_token)})</span></dd></div>`;
    const state = serving
      ? html`<div><dt>Weights (${weightsDtype(r.state)})</dt><dd data-metric="param_bytes">${fmtBytes(t?.param_bytes)}</dd></div>`
      : html`<div><dt>Weights + Adam</dt><dd data-metric="params_and_adam_bytes">${fmtBytes(t?.params_and_adam_bytes)}</dd></div>`;
    return html`
      <section class="panel facts" aria-labelledby="h-model">
        <h3 id="h-model">Model and chip</h3>
        ${r.transformer && !r.transformer.ok ? diagnosticsList(r.transformer.diagnostics, 'transformer') : nothing}
        <dl>
          <div><dt>Model</dt><dd>${base.name}</dd></div>
          <div><dt>Shape</dt><dd>L ${m.layers} · D ${m.d_model} · F ${m.d_ff} · N ${m.heads} · K ${m.kv_heads} · V ${fmtCount(m.vocab)}${m.experts ? ` · E ${m.experts}, k ${m.active_experts}` : ''}${base.expert_latent_dim ? ` at a ${base.expert_latent_dim}-wide latent` : ''}</dd></div>
          ${t ? html`<div><dt>Attention</dt><dd data-metric="attention">${attentionWords(t, base)}</dd></div>` : nothing}
          ${t && layerWords(t, base.mtp_layers ?? 0) ? html`<div><dt>Layers</dt><dd data-metric="layers">${layerWords(t, base.mtp_layers ?? 0)}</dd></div>` : nothing}
          <div><dt>Parameters</dt><dd data-metric="params_total" data-value=${String(t?.params?.total ?? '')}>${fmtCount(t?.params?.total)}${t && t.params.active !== t.params.total ? activeWords(t) : nothing}${t?.params.mtp ? html` <span class="muted">+ ${fmtCount(t.params.mtp)} MTP</span>` : nothing}</dd></div>
          ${work}
          <div><dt>Attention share of FLOPs</dt><dd>${fmtPercent(t?.attention_flops_fraction)}</dd></div>
          ${t ? kvPerToken(t) : nothing}
          ${state}
          <div><dt>Peak (bf16)</dt><dd data-metric="peak_bf16" data-value=${String(chip?.peak_flops_per_s?.bf16 ?? '')}>${fmtFlopsPerS(chip?.peak_flops_per_s?.bf16)}</dd></div>
          <div><dt>HBM</dt><dd>${fmtBytes(chip?.hbm_capacity_bytes)} at ${fmtBytes(chip?.hbm_bandwidth_bytes_per_s)}/s</dd></div>
          <div><dt>Critical intensity</dt><dd data-metric="critical_intensity" data-value=${String(chip?.hbm_critical_intensity_flops_per_byte?.bf16 ?? '')}>${sig(chip?.hbm_critical_intensity_flops_per_byte?.bf16 ?? NaN)} FLOPs/byte: a matmul needs a batch of about this many tokens per chip to be compute-bound</dd></div>
          ${chip?.ici_critical_intensity_flops_per_byte !== undefined ? html`<div><dt>ICI critical intensity</dt><dd>${sig(chip.ici_critical_intensity_flops_per_byte)} FLOPs/byte (DP/FSDP need about this many tokens per chip per ICI axis)</dd></div>` : nothing}
          ${chip?.scale_out_critical_intensity_flops_per_byte !== undefined ? html`<div><dt>Scale-out critical intensity</dt><dd>${sig(chip.scale_out_critical_intensity_flops_per_byte)} FLOPs/byte</dd></div>` : nothing}
        </dl>
      </section>`;
  }
}

customElements.define('ss-facts', SsFacts);
