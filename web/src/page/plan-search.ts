// The plan search the reader asks for ("Find best plans"): the engine's plan_search for the state on screen, in
// chunks (state/search-driver.ts), so that after each chunk the progress bar and the best plans so far repaint; a
// Cancel, a restart when a control changes the search's question while it runs, and Apply.
import type { Evaluation, PlanSearchResult, SearchedPlanCore } from '../engine/types';
import { hardwarePreset, type State } from '../state/params';
import { applyPlan, type Applied } from '../state/plans';
import { meshFor, planSearchScenario } from '../state/scenario';
import { searchInChunks, type ChunkProgress, type EvaluateSearch } from '../state/search-driver';
import { encodeState } from '../state/url';
import { planRows, listedPlans, type SearchRun } from '../ui/plan-list';
import type { EngineSession } from './engine-session';
import type { Telemetry } from './telemetry';

export class PlanSearch {
  run: SearchRun | null = null;
  searching = false;
  /** Stops the running search (its chunks check it between engine calls). */
  private control: AbortController | null = null;

  constructor(
    private readonly session: EngineSession,
    private readonly telemetry: Telemetry,
    private readonly changed: () => void,
  ) {}

  /** Searches for `state`; a search already running is cancelled first. */
  start(state: State): void {
    const client = this.session.client;
    const sc = this.scenario(state);
    this.cancel();
    if (!client || !sc?.mesh) return;
    const key = JSON.stringify(sc);
    const gpu = hardwarePreset(String(state.values['hw'])).kind === 'gpu';
    const mesh = { shape: sc.mesh.shape, axis_names: sc.mesh.axis_names ?? [] };
    const control = new AbortController();
    this.control = control;
    this.searching = true;
    const base = { key, state, mesh, gpu };
    const nothingYet: SearchRun = {
      ...base,
      ev: null,
      engineMs: 0,
      rows: [],
      complete: false,
      chunks: 0,
      wallMs: 0,
      progressFrac: 0,
    };
    this.show(nothingYet);
    const t0 = performance.now();
    const fracs: number[] = [];
    const chunk = (p: ChunkProgress, complete: boolean): void => {
      const res = p.ev.ok ? p.ev.result : undefined;
      const run: SearchRun = {
        ...base,
        ev: p.ev,
        engineMs: p.engineMs,
        rows: res ? planRows(state, res, mesh) : [],
        complete,
        chunks: p.chunks,
        wallMs: performance.now() - t0,
        progressFrac: res?.progress_frac ?? 1,
      };
      fracs.push(run.progressFrac);
      const shown = listedPlans(run);
      this.telemetry.hooks.search = {
        engineMs: p.engineMs,
        wallMs: run.wallMs,
        chunks: p.chunks,
        complete,
        fracs: [...fracs],
        plans: res?.plans.length ?? 0,
        evaluated: res?.counts.evaluated ?? 0,
        listed: shown.length,
        paretoListed: shown.filter((c) => c.plan.pareto).length,
        query: encodeState(state),
      };
      this.show(run);
    };
    // Each chunk's answer (plans, front and cursor: ~90 kB of JSON) is left out of the cache: its cursor makes the
    // text unique, so it would only push the numbers' answers out.
    const evaluate: EvaluateSearch = (text) =>
      client.evaluate([text], 'search').then((b) => {
        this.session.cache.delete(text);
        return b ? { ev: b.results[0] as Evaluation<PlanSearchResult>, engineMs: b.engineMs } : null;
      });
    searchInChunks(sc, evaluate, { signal: control.signal, onChunk: (p) => chunk(p, false) }).then(
      (last) => {
        if (!last) return; // cancelled, or a newer search replaced this one
        this.finish();
        chunk(last, true);
      },
      (e: unknown) => {
        if (control.signal.aborted) return;
        this.finish();
        this.show({ ...nothingYet, error: e instanceof Error ? e.message : String(e) });
      },
    );
  }

  /** Stops the running search; the plans found so far stay, marked as partial. */
  cancel(): void {
    this.control?.abort();
    this.control = null;
    if (this.searching && this.run) this.run = { ...this.run, cancelled: true };
    this.searching = false;
    this.changed();
  }

  /** A control that changes the search's question while it runs cancels it and starts it again for the new one. */
  restartIfAsked(state: State): void {
    if (!this.searching || !this.run) return;
    const sc = this.scenario(state);
    if (!sc || JSON.stringify(sc) !== this.run.key) this.start(state);
  }

  /** The state whose controls reproduce a plan of this run (src/state/plans.ts). */
  applied(state: State, plan: SearchedPlanCore): Applied | null {
    return this.run ? applyPlan(state, plan, this.run.mesh) : null;
  }

  /** The search's question for a state: on its mesh (the engine's, asked at once; cached while the degrees stay). */
  private scenario(state: State): ReturnType<typeof planSearchScenario> {
    return planSearchScenario(state, meshFor(state, this.session.askNow));
  }

  private finish(): void {
    this.searching = false;
    this.control = null;
  }

  private show(run: SearchRun): void {
    this.run = run;
    this.changed();
  }
}
