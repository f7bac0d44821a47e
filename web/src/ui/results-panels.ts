// The explorer's results column for one answer: the headline, the problems, the training or serving panels, the
// comparison with a pinned plan, the plan or serving search, the charts, the model facts and the downloads. Layout
// only: every number comes from the engine, and every action goes back to the page as a callback.
import { html, nothing, type TemplateResult } from 'lit';
import type { SearchedPlanCore, ServingDeployment } from '../engine/types';
import { PRESETS, type State } from '../state/params';
import { mainScenario } from '../state/scenario';
import { sig } from '../charts/format';
import { diagnosticsList } from './diagnostics';
import { isServing, metricsOf, planStatus, type Results } from './results';
import type { SearchRun } from './plan-list';
import type { ServingSearchRun } from './serving-run';
import type { PlotsModule } from './charts';

export interface PanelsInput {
  results: Results;
  /** The state on screen (it may be ahead of the results while a move is answered). */
  state: State;
  search: SearchRun | null;
  searching: boolean;
  servingSearch: ServingSearchRun | null;
  plots: PlotsModule | null;
  ready: boolean;
  /** What the last "nearest plan that fits" moved, in words. */
  fitNotes: string[];
}

export interface PanelsActions {
  search: () => void;
  cancelSearch: () => void;
  applyPlan: (plan: SearchedPlanCore) => void;
  applyDeployment: (d: ServingDeployment) => void;
  chartsDrawn: (s: State) => void;
}

export function resultsPanels(p: PanelsInput, on: PanelsActions): TemplateResult {
  const r = p.results;
  const serving = isServing(r.state);
  const status = planStatus(r);
  const metrics = metricsOf(r, r.chip?.ok ? r.chip.result : undefined);
  const pin = r.pinned;
  const answer = r.main;
  return html`
    <ss-headline .results=${r} .status=${status} .metrics=${metrics} .fitNotes=${p.fitNotes}></ss-headline>
    ${!r.mesh.ok ? html`<div class="diagnostics" role="status" data-diagnostics="mesh"><ul><li class="err"><span class="sev">Problem</span> Mesh: ${r.mesh.problem}</li></ul></div>` : nothing}
    ${answer ? diagnosticsList(answer.diagnostics, serving ? 'serving' : 'training_step') : nothing}
    ${serving ? html`<ss-serving-results .results=${r}></ss-serving-results>` : html`<ss-training-results .results=${r}></ss-training-results>`}
    ${pin ? html`<ss-compare .pinnedState=${pin.state} .pinnedMesh=${pin.mesh} .metrics=${metrics} .pinnedMetrics=${metricsOf(pin, pin.chip?.ok ? pin.chip.result : undefined)} .status=${status} .pinnedStatus=${planStatus(pin)}></ss-compare>` : nothing}
    ${
      serving
        ? html`<ss-serving-search .results=${r} .state=${p.state} .run=${p.servingSearch}
      @ss-apply-deployment=${(e: CustomEvent<ServingDeployment>) => on.applyDeployment(e.detail)}></ss-serving-search>`
        : html`<ss-plans .results=${r} .state=${p.state} .run=${p.search} .searching=${p.searching} .ready=${p.ready}
      @ss-search=${on.search} @ss-cancel-search=${on.cancelSearch} @ss-apply=${(e: CustomEvent<SearchedPlanCore>) => on.applyPlan(e.detail)}></ss-plans>`
    }
    <ss-charts .results=${r} .plots=${p.plots} .live=${p.state} .onDrawn=${on.chartsDrawn}></ss-charts>
    <ss-facts .results=${r}></ss-facts>
    ${r.mesh.ok && answer ? html`<ss-export .state=${r.state} .scenario=${mainScenario(r.state, r.mesh.plan)} .answer=${answer}></ss-export>` : nothing}
    <p class="muted small">Engine ${PRESETS.engine_version} · last evaluation ${sig(r.engineMs)} ms in the engine for ${r.scenarios} scenarios (${r.cached} answered from the page’s cache).</p>`;
}
