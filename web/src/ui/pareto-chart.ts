// <ss-pareto>: the search's Pareto front as a small chart (charts/pareto.ts) under the plan list, redrawn after each
// chunk. Picking a point applies its plan exactly as the list's Apply does (the same 'ss-apply' event).
import { LitElement, html, type TemplateResult } from 'lit';
import type { SearchedPlanCore } from '../engine/types';
import { chartRoot, placeChart } from '../charts/plot-css';
import { planSettings } from './plan-words';
import type { PlanRow, SearchRun } from './plan-list';

type PlotsModule = typeof import('../charts/plots');
type ParetoDatum = import('../charts/pareto').ParetoDatum;

export class SsPareto extends LitElement {
  static override properties = {
    run: { attribute: false },
    listed: { attribute: false },
    hbmBytes: { attribute: false },
    headroomFrac: { attribute: false },
    plots: { state: true },
  };

  run: SearchRun | null = null;
  /** The plans the list shows, best first: ringed and numbered on the chart. */
  listed: readonly PlanRow[] = [];
  hbmBytes = 0;
  headroomFrac = 0;
  plots: PlotsModule | null = null;

  protected override createRenderRoot(): this {
    return this;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    if (!this.plots) void import('../charts/plots').then((m) => (this.plots = m));
  }

  private pick(plan: SearchedPlanCore): void {
    this.dispatchEvent(new CustomEvent('ss-apply', { detail: plan, bubbles: true }));
  }

  protected override updated(): void {
    const host = this.querySelector<HTMLElement>('[data-pareto-chart]');
    const res = this.run?.ev?.ok ? this.run.ev.result : undefined;
    const root = chartRoot(this);
    if (!host || !root || !this.plots || !res || !this.run) return;
    const mesh = this.run.mesh;
    const rankOf = new Map(this.listed.map((c, i) => [c.plan.index, i + 1]));
    const onFront = new Set(res.pareto.map((p) => p.index));
    const datum = (plan: SearchedPlanCore): ParetoDatum => {
      const s = planSettings(plan, mesh);
      return {
        plan,
        listed: rankOf.get(plan.index),
        front: onFront.has(plan.index),
        label: [s['degrees'], s['zero'], s['remat']].filter(Boolean).join(' · '),
      };
    };
    // The listed plans off the front are drawn too, so every ringed number of the list is on the chart.
    const data = [
      ...res.pareto.map(datum),
      ...this.listed.filter((c) => !onFront.has(c.plan.index)).map((c) => datum(c.plan)),
    ];
    const width = Math.max(280, Math.min(760, host.clientWidth || 600));
    const chart = this.plots.paretoChart(data, {
      hbmBytes: this.hbmBytes,
      fitLimitBytes: this.hbmBytes * (1 - this.headroomFrac),
      width,
      onPick: (d) => this.pick(d.plan),
    });
    host.replaceChildren(placeChart(chart, root));
  }

  override render(): TemplateResult {
    const res = this.run?.ev?.ok ? this.run.ev.result : undefined;
    const n = res?.pareto.length ?? 0;
    return html`<h4 id="h-pareto">Pareto front: step time against memory per chip</h4>
      <p class="muted">${n ? html`${n} plans that no other beats in both step time and memory${res && res.pareto_size > n ? ` (${res.pareto_size} on the front; the fastest ${n} drawn)` : ''}` : 'No plan is on the front (it holds only plans that fit), so the chart draws the plans listed'};
        ringed: the plans listed above. The cost to train is step time × chips × price, so it falls with the step. Pick a point to apply its plan.</p>
      <div class="chart pareto-figure" data-pareto-chart></div>`;
  }
}

customElements.define('ss-pareto', SsPareto);
