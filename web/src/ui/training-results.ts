// <ss-training-results>: where a training step goes (compute, HBM, communication by strategy), memory per chip
// against HBM, and the book's thresholds in words. A pinned configuration is drawn as ghost bars behind the live ones.
import { LitElement, html, nothing, type TemplateResult } from 'lit';
import type { TrainingStepResult } from '../engine/types';
import { COLOURS, COMMS_COLOURS, fmtBytes, fmtCount, fmtSeconds, sig } from '../charts/format';
import { bars, type BarRow, type Marker } from '../charts/bars';
import { baseModel, effectiveModel } from '../state/scenario';
import { trainingOf, type Results } from './results';
import { COMMS_LABELS, thresholdTitle } from './words';

const sumOf = (c: Record<string, number> | undefined): number => Object.values(c ?? {}).reduce((a, v) => a + (v > 0 ? v : 0), 0);

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
        ${list.map((x) => html`<li class=${x.ok ? 'ok' : 'bad'} data-threshold=${x.name}>
          <span class="mark" aria-hidden="true">${x.ok ? '✓' : '✗'}</span>
          <strong>${thresholdTitle(x.name)}</strong>${x.name === t.binding ? html` <span class="badge" data-least-room title="the threshold with the least room">${x.ok ? 'least room' : 'binding'}</span>` : nothing}:
          ${x.ok ? 'met' : 'not met'} — needs ${x.kind === 'at_most' ? 'at most' : 'at least'} ${fmtCount(x.required)}, has ${fmtCount(x.actual)}${Number.isFinite(x.margin) ? ` (${sig(x.margin)}× room)` : ''}.
          <span class="muted">${x.reason.replace(/^(ok|not ok|violated|fails?):\s*/i, '')}</span></li>`)}
      </ul>
    </section>`;
  }

  /** Stages that do not divide the layers (the engine says so only then): the busiest one sets the pace. */
  private stages(t: TrainingStepResult): TemplateResult | typeof nothing {
    const busiest = t.pipeline_stage_layers;
    const imbalance = t.pipeline_stage_imbalance;
    if (busiest === undefined || imbalance === undefined) return nothing;
    const layers = effectiveModel(baseModel(this.results.state), this.results.state).layers;
    const stages = t.degrees.pipeline;
    return html`<p class="muted" data-stage-imbalance=${String(imbalance)}>
      Uneven pipeline stages: ${stages} stages do not divide the ${layers} layers, so the busiest stage holds ${busiest}
      (${sig(imbalance)}× the average ${sig(layers / stages)}). It sets the pace: the compute here and the memory per chip below are its, and the other stages wait for it.</p>`;
  }

  override render(): TemplateResult {
    const t = this.results ? trainingOf(this.results) : undefined;
    if (!t) return html``;
    const pin = this.results.pinned ? trainingOf(this.results.pinned) : undefined;
    const commsSegs = (Object.entries(t.time.comms) as [string, number][])
      .filter(([, v]) => typeof v === 'number' && v > 0)
      .map(([k, v], i) => ({ label: `${COMMS_LABELS[k] ?? k.replace(/_s$/, '').toUpperCase()} comms`, value: v, colour: COMMS_COLOURS[i % COMMS_COLOURS.length]! }));
    const commsSum = commsSegs.reduce((a, x) => a + x.value, 0);
    const commsNote = Math.abs(commsSum - t.time.comms_s) > 1e-12 * Math.max(1, commsSum) ? `axes overlap: counts as ${fmtSeconds(t.time.comms_s)}` : undefined;
    const bound = t.time.bound;
    const ghost = (v: number | undefined): { ghost?: number } => (v === undefined ? {} : { ghost: v });
    const rows: BarRow[] = [
      { label: 'Compute', segments: [{ label: 'compute', value: t.time.compute_s, colour: COLOURS.compute }, { label: 'pipeline bubble', value: t.time.bubble_s, colour: COLOURS.bubble }], emphasis: bound === 'compute', ...ghost(pin && pin.time.compute_s + pin.time.bubble_s) },
      { label: 'Memory (HBM)', segments: [{ label: 'HBM traffic', value: t.time.hbm_s, colour: COLOURS.memory }], emphasis: bound === 'memory', ...ghost(pin?.time.hbm_s) },
      { label: 'Communication', segments: commsSegs, emphasis: bound === 'communication', ...(commsNote ? { note: commsNote } : {}), ...ghost(pin && sumOf(pin.time.comms)) },
    ];
    const markers: Marker[] = [{ value: t.time.step_s, label: `step ${fmtSeconds(t.time.step_s)}`, colour: COLOURS.highlight }];
    const m = t.memory;
    const memRows: BarRow[] = [{
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
    }];
    return html`
      <section class="panel" aria-labelledby="h-time">
        <h3 id="h-time">Where the step goes</h3>
        <p class="bound" data-bound=${bound}>
          <strong>${bound[0]!.toUpperCase()}${bound.slice(1)}-bound</strong>; critical path: <strong>${t.time.critical}</strong>.
          Perfect overlap gives ${fmtSeconds(t.time.lower_bound_s)} (the book’s estimate); no overlap ${fmtSeconds(t.time.upper_bound_s)};
          exposed communication ${fmtSeconds(t.time.exposed_comms_s)}.
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
