// <scalescope-explorer>: the one-page explorer's layout. Its jobs sit beside it in src/page/: the state and its URL
// (store.ts), the engines (engine-session.ts: the numbers on screen are answered synchronously on the page's own
// wasm instance, so they paint in the slider's own frame; charts and searches go to the worker), what each state
// asks of them (results-requests.ts), the two searches, and the measurements (telemetry.ts). The panels are
// components with one job each, in light DOM under this shadow root so they share its styles. All numbers come
// from the engine.
import { LitElement, html, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { pinText } from '../state/pin';
import { isProfileDiagnostic } from '../state/profile';
import { planSearchScenario } from '../state/scenario';
import { applyDeployment } from '../state/serving-search';
import type { Applied } from '../state/apply';
import { EngineSession } from './engine-session';
import { PlanSearch } from './plan-search';
import { ResultsRequests } from './results-requests';
import { ServingSearch } from './serving-search';
import { StateStore } from './store';
import { Telemetry } from './telemetry';
import { styles } from '../ui/styles';
import { engineDefaults, fidelityOf, metricsOf, planStatus, type Results } from '../ui/results';
import { resultsPanels } from '../ui/results-panels';
import { TableHints } from '../ui/table-hints';
import type { SetEvent } from '../ui/controls';
import type { PlotsModule } from '../ui/charts';
import '../ui/controls';
import '../ui/headline';
import '../ui/training-results';
import '../ui/serving-results';
import '../ui/compare'; // a pinned link shows its comparison with the first numbers

export type { ScalescopeHooks } from './telemetry';

export class ScalescopeExplorer extends LitElement {
  static override styles = styles;
  static override properties = { results: { state: true }, copied: { state: true }, plots: { state: true } };

  results: Results | null = null;
  copied = '';
  plots: PlotsModule | null = null;

  private readonly telemetry = new Telemetry();
  private readonly session = new EngineSession(this.telemetry, () => this.requestUpdate());
  private readonly store = new StateStore(
    { stateChanged: (input) => this.stateChanged(input), messagesChanged: () => this.requestUpdate() },
    this.session.askNow,
  );
  private readonly requests = new ResultsRequests(
    this.session,
    this.telemetry,
    () => this.store.state,
    () => (this.results = this.requests.results),
    (state) => this.servingSearch.request(state),
  );
  private readonly plans = new PlanSearch(this.session, this.telemetry, () => this.requestUpdate());
  private readonly servingSearch = new ServingSearch(this.session, this.telemetry, () => this.requestUpdate());
  private readonly tableHints = new TableHints(() => this.renderRoot);

  override connectedCallback(): void {
    super.connectedCallback();
    this.store.load(window.location.search);
    this.telemetry.hooks.stateQuery = this.store.query;
    window.addEventListener('popstate', this.onPopState);
    window.addEventListener('pagehide', this.store.flushUrl);
    this.session.start(
      () => {
        // The link is put under the engine's rules once it can answer: the state on screen then runs.
        this.store.applyLinkRules();
        this.telemetry.hooks.stateQuery = this.store.query;
        if (this.store.notices.length) this.store.writeUrl();
        this.requests.request();
        void this.updateComplete.then(() => {
          this.telemetry.hooks.interactiveMs = performance.now();
          this.loadAfterFirstLook();
        });
      },
      () => {
        this.requests.workerReady();
        this.session.warmUp(
          this.requests.results ? planSearchScenario(this.requests.results.state, this.requests.results.mesh) : null,
        );
      },
    );
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    window.removeEventListener('popstate', this.onPopState);
    window.removeEventListener('pagehide', this.store.flushUrl);
  }

  /**
   * Plot (half of the page's script, gzipped) loads once the numbers are on screen, so that it does not compete
   * with the engine and the first render for the network and the main thread; the charts appear once it is there.
   * So do the charts' element and the panels a reader turns to after a first look (the model's facts, the searches,
   * the downloads, the profile loader): their elements upgrade in place when their code arrives (Lit keeps the
   * properties set before).
   */
  private loadAfterFirstLook(): void {
    void import('../charts/plots').then(
      (m) => (this.plots = m),
      (e: unknown) => this.telemetry.error('charts did not load', e),
    );
    const panels = [
      import('../ui/charts'),
      import('../ui/facts'),
      import('../ui/plans'),
      import('../ui/serving-search'),
      import('../ui/export'),
      import('../ui/profile-loader'),
    ];
    void Promise.all(panels).catch((e: unknown) => this.telemetry.error('a panel did not load', e));
  }

  private onPopState = (): void => {
    this.store.load(window.location.search);
    this.stateChanged(null);
  };

  private onSet = (e: SetEvent): void => {
    const d = e.detail;
    if (d.hfText !== undefined) this.store.setHf(d.hfText, d.values ?? {}, d.ev);
    else if (d.hwField) this.store.setHardwareField(d.hwField.path, d.hwField.value, d.ev);
    else if (d.fit) this.store.fitNearest(d.ev);
    else if (d.values) this.store.setValues(d.values, d.ev);
  };

  private stateChanged(input: { ev?: Event } | null): void {
    if (input) this.telemetry.markInput(input.ev);
    this.telemetry.hooks.stateQuery = this.store.query;
    this.plans.restartIfAsked(this.store.state);
    this.requests.request();
    this.requestUpdate();
  }

  private async copyLink(): Promise<void> {
    this.store.writeUrl();
    try {
      await navigator.clipboard.writeText(window.location.href);
      this.copied = 'Link copied.';
    } catch {
      this.copied = 'Copy the address bar: it always holds this page’s link.';
    }
    setTimeout(() => (this.copied = ''), 2500);
  }

  private pin(): void {
    if (this.results) this.store.setValues({ pin: pinText(this.results.state) });
  }

  private unpin(): void {
    this.store.setValues({ pin: '' });
    // The Unpin button goes away: keep the keyboard where it was, on the pin button.
    void this.updateComplete.then(() => this.renderRoot.querySelector<HTMLButtonElement>('#pin')?.focus());
  }

  /** The notice goes away with its button: the keyboard moves on to the results. */
  private dismissNotices(): void {
    this.store.say([]);
    void this.updateComplete.then(() => this.focusResults());
  }

  /** Moves the keyboard to the results (the page's skip link). */
  focusResults(): void {
    this.renderRoot.querySelector<HTMLElement>('#results')?.focus();
  }

  protected override update(changed: PropertyValues<this>): void {
    this.telemetry.timeUpdate(() => super.update(changed));
  }

  protected override updated(changed: PropertyValues<this>): void {
    this.tableHints.schedule();
    this.telemetry.hooks.restarts = this.session.restarts;
    if (!changed.has('results') || !this.results) return;
    const current = this.results.state === this.store.state && this.results.stage === 'primary';
    this.telemetry.rendered(this.results, current);
    this.setAttribute('data-renders', String(this.telemetry.hooks.renders));
  }

  private renderResults(): TemplateResult {
    const r = this.results;
    if (this.session.status === 'error') {
      return html`<div class="error" role="alert"><strong>The engine could not start.</strong> ${this.session.error}</div>`;
    }
    if (!r)
      return html`<div class="loading" role="status" aria-live="polite"><span class="spinner" aria-hidden="true"></span> Loading the engine…</div>`;
    const apply = (a: Applied | null): void => (a ? this.store.apply(a) : undefined);
    return resultsPanels(
      {
        results: r,
        state: this.store.state,
        search: this.plans.run,
        searching: this.plans.searching,
        servingSearch: this.servingSearch.run,
        plots: this.plots,
        ready: this.session.status === 'ready',
        fitNotes: this.store.fitNotes,
      },
      {
        search: () => this.plans.start(this.store.state),
        cancelSearch: () => this.plans.cancel(),
        applyPlan: (plan) => apply(this.plans.applied(this.store.state, plan)), // a plan keeps the chip count, so a fixed count stays fixed
        applyDeployment: (d) => apply(applyDeployment(this.store.state, d)),
        chartsDrawn: (s) => this.telemetry.chartsDrawn(s),
      },
    );
  }

  override render(): TemplateResult {
    const engine = this.session.status;
    const status = engine === 'ready' ? 'Engine ready' : engine === 'error' ? 'Engine failed' : 'Loading engine…';
    const { state, notices } = this.store;
    const r = this.results;
    const pinned = Boolean(state.values['pin']);
    return html`
      <header>
        <h1>Scalescope <span class="sub">How to Scale Your Model, live</span></h1>
        <div class="actions">
          <span class="status ${engine}" role="status" aria-live="polite" data-engine=${engine}>${status}</span>
          <button type="button" @click=${() => this.copyLink()} id="copy-link">Copy link</button>
          <button type="button" @click=${() => this.pin()} id="pin" aria-disabled=${r ? 'false' : 'true'}>${pinned ? 'Re-pin' : 'Pin for compare'}</button>
          ${pinned ? html`<button type="button" @click=${() => this.unpin()} id="unpin">Unpin</button>` : nothing}
          <button type="button" @click=${() => this.store.reset()} id="reset">Reset</button>
          <span class="copied" role="status" aria-live="polite">${this.copied}</span>
        </div>
      </header>
      ${
        notices.length
          ? html`<div class="notice" role="alert" data-notice>
            <strong>Some of this link could not be used.</strong>
            <ul>${notices.map((n) => html`<li>${n}</li>`)}</ul>
            <button type="button" @click=${() => this.dismissNotices()}>Dismiss</button>
          </div>`
          : nothing
      }
      ${r ? html`<ss-headline class="phone-strip" compact .results=${r} .status=${planStatus(r)} .metrics=${metricsOf(r, r.chip?.ok ? r.chip.result : undefined)}></ss-headline>` : nothing}
      <main @ss-set=${this.onSet}>
        <div class="controls-col">
          <ss-controls .state=${state} .degreeProblem=${this.store.degreeProblem} .hfProblem=${this.store.hfProblem} .calibration=${r ? fidelityOf(r).calibration : undefined}
            .calibrationDiagnostics=${r?.main?.diagnostics.filter(isProfileDiagnostic) ?? []} .fieldDiagnostics=${r?.main?.diagnostics ?? []}
            .planMesh=${r?.state === state ? r.planMesh : undefined} .mesh=${r?.state === state ? r.mesh : undefined}
            .engineDefaults=${r && r.state.values['mode'] === state.values['mode'] ? engineDefaults(r) : {}} .ask=${this.session.askNow}></ss-controls>
        </div>
        <div class="results" id="results" tabindex="-1" aria-label="Results">${this.renderResults()}</div>
      </main>`;
  }
}

customElements.define('scalescope-explorer', ScalescopeExplorer);
