// <ss-serving-results>: the batch's prefill and a decode step by resource, one request's time to first token, the
// replica's memory against its HBM, speculative decoding when it is on, and the replica under a benchmark's load
// when a concurrency is set (serving-load.ts), and the replica as a serving engine's launch command on request
// (launch-config.ts: its code and engine load on that click, not with the page). A pinned configuration is drawn as
// ghost bars. (The serving search, "fewest chips / cheapest deployment for this latency", is <ss-serving-search>.)
import { LitElement, html, nothing, type TemplateResult } from 'lit';
import type { ServingResult } from '../engine/types';
import { hardwarePreset, modelPreset } from '../state/params';
import { COLOURS, fmtBytes, fmtCount, fmtSeconds, sig } from '../charts/format';
import { bars, type BarRow } from '../charts/bars';
import { servingOf, type Results } from './results';
import { loadBlock } from './serving-load';
import { chipWord } from './words';

/** What sets a decode step, in words (the engine's `decode.critical`). */
const CRITICAL_WORDS: Readonly<Record<string, string>> = {
  flops: 'the FLOPs',
  param_load: 'loading the weights',
  kv_load: 'loading the KV caches',
  comms: 'communication',
};
/** What a bound is made of (the engine's `bound` sums the HBM terms; its `critical` is the largest single term). */
const BOUND_WORDS: Readonly<Record<string, { share: string; terms: readonly string[] }>> = {
  compute: { share: 'the FLOPs take the most time', terms: ['flops'] },
  memory: {
    share: 'HBM traffic, the weights and the KV caches together, takes the most time',
    terms: ['param_load', 'kv_load'],
  },
  communication: { share: 'communication takes the most time', terms: ['comms'] },
};

/** "memory-bound: HBM traffic … takes the most time; the largest single term is communication" (issue 41: the page
 * said "memory-bound: its largest term is communication"). */
function boundSentence(bound: string, critical: string): string {
  const b = BOUND_WORDS[bound];
  if (!b) return `its largest term is ${CRITICAL_WORDS[critical] ?? critical}`;
  return b.terms.includes(critical)
    ? b.share
    : `${b.share}; the largest single term is ${CRITICAL_WORDS[critical] ?? critical}`;
}

export class SsServingResults extends LitElement {
  static override properties = { results: { attribute: false }, launch: { state: true } };
  results!: Results;
  /** The launch config is open. */
  launch = false;

  protected override createRenderRoot(): this {
    return this;
  }

  private speculative(s: ServingResult): TemplateResult | typeof nothing {
    const sp = s.speculative;
    if (!sp) return nothing;
    const v = this.results.state.values;
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
        ${bars(
          [
            {
              label: 'Plain decoding',
              segments: [{ label: 'decode step per token', value: s.latency_per_token_s, colour: COLOURS.memory }],
            },
            {
              label: 'Speculative',
              segments: [{ label: 'speculative, per token', value: sp.latency_per_token_s, colour: COLOURS.compute }],
              emphasis: sp.speedup > 1,
            },
          ],
          [],
          fmtSeconds,
          'Latency per token with and without speculative decoding',
        )}
        <p class="muted small">${sp.formula}</p>
      </section>`;
  }

  override render(): TemplateResult {
    const s = this.results ? servingOf(this.results) : undefined;
    if (!s) return html``;
    const pin = this.results.pinned ? servingOf(this.results.pinned) : undefined;
    const p = s.prefill;
    const d = s.decode;
    const seg = (label: string, value: number | undefined, colour: string) => ({ label, value: value ?? 0, colour });
    const ghost = (v: number | undefined): { ghost?: number } => (v === undefined ? {} : { ghost: v });
    // One row per resource, as for training, then what each adds to the step: that row ends at the engine's time.
    type Step = ServingResult['decode'] | ServingResult['prefill'];
    const rowsOf = (
      x: Step,
      kv: number,
      kvExposed: number,
      pinned?: { compute: number; memory: number; comms: number; step: number },
    ): BarRow[] => [
      {
        label: 'Compute',
        segments: [seg('FLOPs', x.flops_s, COLOURS.compute)],
        emphasis: x.bound === 'compute',
        ...ghost(pinned?.compute),
      },
      {
        label: 'Memory (HBM)',
        segments: [seg('parameter load', x.param_load_s, COLOURS.memory), seg('KV cache load', kv, COLOURS.kv)],
        emphasis: x.bound === 'memory',
        ...ghost(pinned?.memory),
      },
      {
        label: 'Communication',
        segments: [seg('communication', x.comms_s, COLOURS.comms)],
        emphasis: x.bound === 'communication',
        ...ghost(pinned?.comms),
      },
      ...(x.overhead_s > 0
        ? [{ label: 'Overhead', segments: [seg('overhead (launches, per step)', x.overhead_s, COLOURS.other)] }]
        : []),
      {
        label: 'The step',
        note: 'what each adds; the rest overlaps',
        ...ghost(pinned?.step),
        segments: [
          seg('FLOPs', x.exposed.flops_s, COLOURS.compute),
          seg('parameter load', x.exposed.param_load_s, COLOURS.memory),
          seg('KV cache load', kvExposed, COLOURS.kv),
          seg('communication', x.exposed.comms_s, COLOURS.comms),
          seg('overhead (launches, per step)', x.exposed.overhead_s, COLOURS.other),
        ],
      },
    ];
    const prefillRows = rowsOf(
      p,
      0,
      0,
      pin && {
        compute: pin.prefill.flops_s,
        memory: pin.prefill.param_load_s,
        comms: pin.prefill.comms_s,
        step: pin.prefill.time_s,
      },
    );
    const decodeRows = rowsOf(
      d,
      d.kv_load_s,
      d.exposed.kv_load_s,
      pin && {
        compute: pin.decode.flops_s,
        memory: pin.decode.param_load_s + pin.decode.kv_load_s,
        comms: pin.decode.comms_s,
        step: pin.decode.step_s,
      },
    );
    const m = s.memory;
    const budgeted = m.budget_bytes < m.hbm_capacity_bytes; // the engine keeps some HBM back
    const kv = Math.max(0, m.total_bytes - m.param_bytes);
    const chips = this.results.mesh.ok ? this.results.mesh.plan.chips : undefined;
    const v = this.results.state.values;
    const prompts = `${fmtCount(p.sequences)} prompt${p.sequences === 1 ? '' : 's'} of ${fmtCount(Number(v['prompt']))} tokens`;
    return html`
      ${s.load ? loadBlock(s.load, chipWord(hardwarePreset(String(v['hw'])).kind), { prompt: Number(v['prompt']), generated: Number(v['gen']) }) : nothing}
      <section class="panel" aria-labelledby="h-time">
        <h3 id="h-time">Where the time goes</h3>
        <p class="bound">A <strong>decode step</strong> is <strong>${d.bound}-bound</strong>: ${boundSentence(d.bound, d.critical)}${d.mlp_bound === 'compute' && d.bound !== 'compute' ? ' (the MLPs alone would be compute-bound)' : ''}.
          Prefilling the batch’s ${prompts} together is <strong>${p.bound}-bound</strong>. One request’s <strong>time to first token</strong>, its prompt prefilled alone, is
          <strong data-metric="ttft_one_s" data-value=${String(s.time_to_first_token_s)}>${fmtSeconds(s.time_to_first_token_s)}</strong>.</p>
        <h4>Decode step</h4>
        ${bars(decodeRows, [{ value: d.step_s, label: `decode step ${fmtSeconds(d.step_s)}`, colour: COLOURS.highlight }], fmtSeconds, 'Decode step by resource')}
        <h4>Prefill</h4>
        ${bars(prefillRows, [{ value: p.time_s, label: `batch prefill ${fmtSeconds(p.time_s)}`, colour: COLOURS.highlight }], fmtSeconds, `Prefill of the whole batch (${prompts}) by resource`)}
        <p class="muted">At peak FLOP/s and HBM bandwidth (the book’s ideal), the MLPs turn compute-bound above a batch of ${fmtCount(s.compute_bound_batch)}${Number.isFinite(s.tensor_parallel_hbm_limit) ? `; tensor parallelism is HBM-limited above ${fmtCount(s.tensor_parallel_hbm_limit)} chips` : ''}${Number.isFinite(s.disaggregation?.prefill_servers_per_decode_server) ? `; ${fmtCount(s.disaggregation?.prefill_servers_per_decode_server)} prefill servers per decode server` : ''}.</p>
      </section>
      <section class="panel" aria-labelledby="h-mem">
        <h3 id="h-mem">Memory of the replica${chips ? ` (${chips} chips)` : ''}</h3>
        ${bars(
          [
            {
              label: 'Replica',
              segments: [seg('parameters', m.param_bytes, COLOURS.params), seg('KV cache', kv, COLOURS.kv)],
              note: m.fits ? `fits; at most ${fmtCount(m.max_batch)} sequences` : 'does not fit',
              ...ghost(pin?.memory.total_bytes),
            },
          ],
          // The engine's memory budget, where it keeps HBM back (activations, CUDA graphs): one label for both lines.
          [
            {
              value: m.hbm_capacity_bytes,
              label: `HBM ${fmtBytes(m.hbm_capacity_bytes)}${budgeted ? `; the engine’s budget ${fmtBytes(m.budget_bytes)}` : ''}`,
              colour: COLOURS.hbmLine,
            },
            ...(budgeted
              ? [
                  {
                    value: m.budget_bytes,
                    label: 'the engine’s memory budget',
                    colour: COLOURS.pinned,
                    unlabelled: true,
                  },
                ]
              : []),
          ],
          fmtBytes,
          'Memory of the serving replica against its HBM',
        )}
        ${chips ? html`<p class="muted">${fmtBytes(m.total_bytes / chips)} per chip; the weights alone need at least ${fmtCount(m.min_chips_for_params)} chips.</p>` : nothing}
      </section>
      ${this.speculative(s)}
      <section class="panel" aria-label="Launch config" data-launch-panel="replica">
        <div class="plan-actions"><button type="button" data-launch-replica aria-expanded=${this.launch ? 'true' : 'false'}
          @click=${() => void import('./launch-config').then(() => (this.launch = true))}>Launch config</button>
          <span class="muted small">this replica as a serving engine’s launch command, written by the engine</span></div>
        ${
          this.launch
            ? html`<ss-launch-config .source=${{ key: JSON.stringify(this.results.state), title: 'the replica on screen', state: this.results.state }}
          @ss-launch-close=${() => (this.launch = false)}></ss-launch-config>`
            : nothing
        }
      </section>`;
  }
}

customElements.define('ss-serving-results', SsServingResults);
