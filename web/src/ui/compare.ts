// <ss-compare>: the pinned configuration against the one on screen, metric by metric. A plan that does not fit or
// cannot run is marked in its column, and its changes are shown as not comparable, never as a green "better".
import { LitElement, html, nothing, type TemplateResult } from 'lit';
import { fmtDelta } from '../charts/format';
import { hardwarePreset, modelPreset, type State } from '../state/params';
import { describePlan } from './mesh-words';
import { hfAnswer } from '../state/hf';
import type { MeshOutcome } from '../state/plan-mesh';
import { valid, type Metric, type PlanStatus } from './results';

/** "LLaMA-3 70B on 2048 × TPU v5p (16×16×8 · FSDP on X,Y · TP on Z), training" */
export function summaryOf(state: State, mesh: MeshOutcome): string {
  const hw = hardwarePreset(String(state.values['hw']));
  const model = state.values['hf']
    ? (hfAnswer(state)?.model?.name ?? 'pasted config.json')
    : modelPreset(String(state.values['model'])).name;
  return `${model} on ${mesh.ok ? mesh.plan.chips : '?'} × ${hw.name} (${mesh.ok ? describePlan(mesh.plan) : 'no mesh'}), ${state.values['mode']}`;
}

export class SsCompare extends LitElement {
  static override properties = {
    pinnedState: { attribute: false },
    pinnedMesh: { attribute: false },
    metrics: { attribute: false },
    pinnedMetrics: { attribute: false },
    status: { attribute: false },
    pinnedStatus: { attribute: false },
  };

  pinnedState: State | null = null;
  pinnedMesh: MeshOutcome = { ok: false, problem: '' };
  metrics: Metric[] = [];
  pinnedMetrics: Metric[] = [];
  status!: PlanStatus;
  pinnedStatus!: PlanStatus;

  protected override createRenderRoot(): this {
    return this;
  }

  private mark(st: PlanStatus): TemplateResult | typeof nothing {
    if (valid(st)) return nothing;
    return html` <span class="fit ${st.kind}" data-compare-mark>${st.kind === 'no-fit' ? 'does not fit' : 'cannot run'}</span>`;
  }

  override render(): TemplateResult {
    if (!this.pinnedState) return html``;
    const comparable = valid(this.status) && valid(this.pinnedStatus);
    return html`<section class="panel" aria-labelledby="h-cmp" data-compare>
      <h3 id="h-cmp">Compare with the pinned configuration</h3>
      <p class="muted">Pinned: ${summaryOf(this.pinnedState, this.pinnedMesh)}. It is drawn as dashed ghost bars behind the live ones, and kept in the link.</p>
      ${comparable ? nothing : html`<p class="notice-inline" data-not-comparable>${!valid(this.pinnedStatus) ? `The pinned plan ${this.pinnedStatus.kind === 'no-fit' ? 'does not fit' : 'cannot run'}` : `The plan on screen ${this.status.kind === 'no-fit' ? 'does not fit' : 'cannot run'}`}: the changes are not a comparison of two plans that run.</p>`}
      <div class="table-wrap" data-scroll-hint><table class="compare">
        <thead><tr><th scope="col">Metric</th><th scope="col">Pinned${this.mark(this.pinnedStatus)}</th><th scope="col">Now${this.mark(this.status)}</th><th scope="col">Change</th></tr></thead>
        <tbody>
          ${this.metrics.map((m) => {
            const p = this.pinnedMetrics.find((x) => x.id === m.id);
            const delta = fmtDelta(m.value, p?.value);
            const better =
              comparable &&
              m.higherBetter !== null &&
              m.value !== undefined &&
              p?.value !== undefined &&
              m.value !== p.value
                ? m.value > p.value === m.higherBetter
                : null;
            return html`<tr><th scope="row">${m.label}</th><td>${p?.text ?? '—'}</td><td>${m.text}</td>
              <td class=${comparable ? (better === null ? '' : better ? 'better' : 'worse') : 'invalid'} data-delta=${m.id}>${comparable ? delta : delta ? `${delta} (not comparable)` : ''}</td></tr>`;
          })}
        </tbody>
      </table></div>
    </section>`;
  }
}

customElements.define('ss-compare', SsCompare);
