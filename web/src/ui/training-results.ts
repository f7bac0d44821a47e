// <ss-training-results>: where a training step goes (compute, HBM, communication by strategy), memory per chip
// against HBM, and the book's thresholds in words. A pinned configuration is drawn as ghost bars behind the live ones.
import { LitElement, html, nothing, type TemplateResult } from 'lit';
import type { TrainingStepResult } from '../engine/types';
import { COLOURS, COMMS_COLOURS, fmtBytes, fmtCount, fmtSeconds, sig } from '../charts/format';
import { bars, type BarRow, type Marker } from '../charts/bars';
import { trainingOf, type Results } from './results';
import { COMMS_LABELS, thresholdTitle, trainingBoundWords } from './words';

const sumOf = (c: Record<string, number> | undefined): number =>
  Object.values(c ?? {}).reduce((a, v) => a + (v > 0 ? v : 0), 0);

export class SsTrainingResults extends LitElement {
  static override properties = { results: { attribute: false } };
  results!: Results;

  protected override createRenderRoot(): this {
    return this;
  }

  private thresholds(t: TrainingStepResult): TemplateResult | typeof nothing {
    const list = Array.isArray(t.thresholds) ? t.thresholds : [];
    if (!list.length) return nothing;
    return html`<section class="panel" aria-labelledby="h-thr">
      <h3 id="h-thr">Thresholds</h3>
      <ul class="thresholds">
        ${list.map(
          (x) => html`<li class=${x.ok ? 'ok' : 'bad'} data-threshold=${x.name}>
          <span class="mark" aria-hidden="true">${x.ok ? '✓' : '✗'}</span>
          <strong>${thresholdTitle(x.name)}</strong>${x.name === t.binding ? html` <span class="badge" data-least-room title="the threshold with the least room">${x.ok ? 'least room' : 'binding'}</span>` : nothing}:
          ${x.ok ? 'met' : 'not met'} — needs ${x.kind === 'at_most' ? 'at most' : 'at least'} ${fmtCount(x.required)}, has ${fmtCount(x.actual)}${Number.isFinite(x.margin) ? ` (${sig(x.margin)}× room)` : ''}.
          <span class="muted">${x.reason.replace(/^(ok|not ok|violated|fails?):\s*/i, '')}</span></li>`,
        )}
      </ul>
    </section>`;
  }

  /** Stages that do not divide the layers (the engine says so only then): the busiest one sets the pace. */
  private stages(t: TrainingStepResult): TemplateResult | typeof nothing {
    const busiest = t.pipeline_stage_layers;
    const imbalance = t.pipeline_stage_imbalance;
    if (busiest === undefined || imbalance === undefined) return nothing;
    const layers = this.results.transformer?.result?.model.layers ?? NaN;
    const stages = t.degrees.pipeline;
    return html`<p class="muted" data-stage-imbalance=${String(imbalance)}>
      Uneven pipeline stages: ${stages} stages do not divide the ${layers} layers, so the busiest stage holds ${busiest}
      (${sig(imbalance)}× the average ${sig(layers / stages)}). It sets the pace: the compute here and the memory per chip below are its, and the other stages wait for it.</p>`;
  }

  override render(): TemplateResult {
    const t = this.results ? trainingOf(this.results) : undefined;
    if (!t) return html``;
    const pin = this.results.pinned ? trainingOf(this.results.pinned) : undefined;
    const time = t.time;
    const commsSegs = (Object.entries(time.comms) as [string, number][])
      .filter(([, v]) => typeof v === 'number' && v > 0)
      .map(([k, v], i) => ({
        label: `${COMMS_LABELS[k] ?? k.replace(/_s$/, '').toUpperCase()} comms`,
        value: v,
        colour: COMMS_COLOURS[i % COMMS_COLOURS.length]!,
      }));
    const combined =
      Math.abs(time.comms_sum_s - time.comms_total_s) > 1e-12 * Math.max(1, time.comms_sum_s)
        ? `the axes overlap: they count as ${fmtSeconds(time.comms_total_s)}; `
        : '';
    const hidden = (total: number, exposed: number): string =>
      `${fmtSeconds(exposed)} exposed, ${fmtSeconds(Math.max(0, total - exposed))} overlapped`;
    const bound = time.bound;
    const boundWords = trainingBoundWords(time);
    const ghost = (v: number | undefined): { ghost?: number } => (v === undefined ? {} : { ghost: v });
    const offload = time.offload_total_s ?? 0;
    // Each resource's whole time, then the critical path: what each one adds to the step. The last row ends at the step.
    const rows: BarRow[] = [
      {
        label: 'Compute',
        segments: [
          { label: 'compute', value: time.compute_s, colour: COLOURS.compute },
          { label: 'pipeline bubble', value: time.bubble_s, colour: COLOURS.bubble },
        ],
        emphasis: bound === 'compute',
        ...ghost(pin && pin.time.compute_s + pin.time.bubble_s),
      },
      {
        label: 'Memory (HBM)',
        segments: [{ label: 'HBM traffic', value: time.hbm_total_s, colour: COLOURS.memory }],
        emphasis: bound === 'memory',
        note: hidden(time.hbm_total_s, time.hbm_exposed_s),
        ...ghost(pin?.time.hbm_total_s),
      },
      {
        label: 'Communication',
        segments: commsSegs,
        emphasis: bound === 'communication',
        note: combined + hidden(time.comms_total_s, time.comms_exposed_s),
        ...ghost(pin && sumOf(pin.time.comms)),
      },
      ...(offload > 0
        ? [
            {
              label: 'Host offload',
              segments: [{ label: 'host offload', value: offload, colour: COLOURS.kv }],
              emphasis: bound === 'host_offload',
              note: hidden(offload, time.offload_exposed_s ?? 0),
            },
          ]
        : []),
      ...(time.overhead_s > 0
        ? [
            {
              label: 'Overhead',
              segments: [{ label: 'overhead (launches, per step)', value: time.overhead_s, colour: COLOURS.other }],
            },
          ]
        : []),
      {
        label: 'The step',
        note: 'what each adds; the rest overlaps',
        ...ghost(pin?.time.step_s),
        segments: [
          { label: 'compute', value: time.compute_s, colour: COLOURS.compute },
          { label: 'pipeline bubble', value: time.bubble_s, colour: COLOURS.bubble },
          { label: 'HBM traffic', value: time.hbm_exposed_s, colour: COLOURS.memory },
          { label: 'exposed comms', value: time.comms_exposed_s, colour: COLOURS.comms4 },
          { label: 'host offload', value: time.offload_exposed_s ?? 0, colour: COLOURS.kv },
          { label: 'overhead (launches, per step)', value: time.overhead_s, colour: COLOURS.other },
        ],
      },
    ];
    const markers: Marker[] = [
      { value: time.step_s, label: `step ${fmtSeconds(time.step_s)}`, colour: COLOURS.highlight },
    ];
    const m = t.memory;
    const memRows: BarRow[] = [
      {
        label: 'Per chip',
        segments: [
          { label: 'parameters', value: m.params_bytes, colour: COLOURS.params },
          { label: 'master weights', value: m.master_weights_bytes, colour: COLOURS.master },
          { label: 'gradients', value: m.grads_bytes, colour: COLOURS.grads },
          { label: 'optimizer states', value: m.optimizer_bytes, colour: COLOURS.optimizer },
          { label: 'activations', value: m.activations_bytes, colour: COLOURS.activations },
          { label: 'context buffers', value: m.context_buffers_bytes, colour: COLOURS.other },
          { label: 'transient during the step', value: m.transient_bytes ?? 0, colour: COLOURS.bubble },
        ],
        note: m.fits ? 'fits' : `does not fit: ${fmtBytes(m.shortfall_bytes)} short`,
        ...ghost(pin?.memory.total_bytes),
      },
    ];
    return html`
      <section class="panel" aria-labelledby="h-time">
        <h3 id="h-time">Where the step goes</h3>
        <p class="bound" data-bound=${bound}>
          <strong>${boundWords.bound}</strong>: <span data-bound-words>${boundWords.why}</span> Critical path: <strong>${time.critical}</strong>.
          Perfect overlap gives ${fmtSeconds(time.lower_bound_s)} (the book’s estimate); no overlap ${fmtSeconds(time.upper_bound_s)};
          communication ${fmtSeconds(time.comms_total_s)}, of which ${fmtSeconds(time.comms_exposed_s)} is exposed.
        </p>
        ${this.stages(t)}
        ${bars(rows, markers, fmtSeconds, 'Time per step by component')}
      </section>
      <section class="panel" aria-labelledby="h-mem">
        <h3 id="h-mem">Memory per chip</h3>
        ${bars(memRows, [{ value: m.hbm_capacity_bytes, label: `HBM ${fmtBytes(m.hbm_capacity_bytes)}`, colour: COLOURS.hbmLine }], fmtBytes, 'Memory per chip against HBM capacity')}
        ${m.in_flight_microbatches > 1 ? html`<p class="muted">${m.in_flight_microbatches} microbatches in flight.</p>` : nothing}
      </section>
      ${this.thresholds(t)}`;
  }
}

customElements.define('ss-training-results', SsTrainingResults);
