// What the page asks the engine for each state: first the state's mesh and its sliders' stops (plan_mesh, answered
// from the cache while the degrees stay), then what the numbers and bars need (planner, whose main_ops the roofline
// draws, model, chip and the pinned plan), on the page's instance, painted at once ("latest only"); then the scaling
// points and (once per chip) the roofline curve, for the charts, in the worker: one charts' batch at a time, the next
// for the latest state, so that while a slider moves the charts follow a batch behind the numbers without queueing up
// (issue 20: charts at most 50 ms behind). The serving search waits until the controls rest.
import type { ChipResult, Evaluation, ServingResult, TransformerResult } from '../engine/types';
import { FEATURES, type State } from '../state/params';
import { withConfigDiagnostics } from '../state/hf';
import { pinnedOf } from '../state/pin';
import { planMeshResult, type MeshOutcome } from '../state/plan-mesh';
import {
  atBookFidelity,
  chipScenario,
  laidOutScenario,
  mainScenario,
  meshOf,
  planMeshScenario,
  rooflineCurveOf,
  rooflineCurveScenarios,
  scalingDegrees,
  scalingScenarios,
  transformerScenario,
  type RooflineCurve,
} from '../state/scenario';
import { isServing, type ChartsAnswer, type Planned, type Results } from '../ui/results';
import type { ScalingPoint } from '../state/scenario';
import type { EngineSession } from './engine-session';
import type { Telemetry } from './telemetry';

/** A chip's curve before it is in (one batch, once per chip and precision). */
const NO_CURVE: RooflineCurve = { points: [], ridge: undefined };

export class ResultsRequests {
  results: Results | null = null;
  private curveCache = new Map<string, RooflineCurve>();
  private restTimer: ReturnType<typeof setTimeout> | null = null;
  /** The charts' batch in flight, and the state whose charts are wanted next. */
  private chartsBusy = false;
  private chartsNext: State | null = null;
  private charts: ChartsAnswer | null = null;

  /**
   * `changed`: new results to show; `rested`: the controls have rested on `state` (the charts' batch goes then, and
   * the page may start other slow requests, e.g. the serving search).
   */
  constructor(
    private readonly session: EngineSession,
    private readonly telemetry: Telemetry,
    private readonly current: () => State,
    private readonly changed: () => void,
    private readonly rested: (state: State) => void,
  ) {}

  request(): void {
    if (this.session.status !== 'ready') return;
    const state = this.current();
    const pinned = pinnedOf(state)?.state ?? null;
    // A pasted config.json is read first (by the launch module); the request runs again once it is.
    const again = (): void => this.request();
    const read = this.session.hfRead(state, again);
    if (!(pinned ? this.session.hfRead(pinned, again) : true) || !read) return;
    // One call: the mesh question (the sliders' stops and a fixed count's balancing degree; from the cache while the
    // degrees stay) and the numbers, on the mesh the engine lays the same degrees out on (laidOutScenario).
    const texts: string[] = [];
    const push = (x: unknown): number => texts.push(JSON.stringify(x)) - 1;
    const iMesh = push(planMeshScenario(state, undefined, { chips: true, stops: true }));
    const iMain = push(laidOutScenario(state));
    const iTransformer = push(transformerScenario(state));
    const iChip = push(chipScenario(state));
    const iPinMesh = pinned ? push(planMeshScenario(pinned)) : -1;
    const iPin = pinned ? push(laidOutScenario(pinned)) : -1;
    const iPinChip = pinned ? push(chipScenario(pinned)) : -1;
    this.session.answer(
      texts,
      'main',
      (batch) => {
        if (!batch || this.current() !== state) return; // a newer request replaced this one
        this.telemetry.received({ trips: batch.trips, calls: batch.calls, cached: batch.cached, local: batch.local });
        const pinnedAt = (i: number): boolean => i === iPinMesh || i === iPin || i === iPinChip;
        const r = batch.results.map((a, i) => withConfigDiagnostics(a, pinnedAt(i) ? pinned : state));
        const curveKey = JSON.stringify(rooflineCurveScenarios(state)[0]);
        const at = <T>(i: number): Evaluation<T> | null => (i >= 0 ? (r[i] as Evaluation<T>) : null);
        const mesh = meshOf(state, r[iMesh]);
        const pinMesh = pinned ? meshOf(pinned, r[iPinMesh]) : null;
        // Where the degrees lay out on no mesh, the controls say why (the mesh's problem), not the step.
        this.show({
          state,
          mesh,
          planMesh: planMeshResult(r[iMesh]!),
          main: mesh.ok ? at<Planned>(iMain) : null,
          transformer: at<TransformerResult>(iTransformer),
          chip: at<ChipResult>(iChip),
          pinned:
            pinned && pinMesh
              ? {
                  state: pinned,
                  mesh: pinMesh,
                  main: pinMesh.ok ? at<Planned>(iPin) : null,
                  chip: at<ChipResult>(iPinChip),
                }
              : null,
          curve: this.curveCache.get(curveKey) ?? NO_CURVE,
          charts: this.charts,
          engineMs: batch.engineMs,
          scenarios: texts.length,
          cached: batch.cached,
          stage: 'primary',
        });
        this.askCharts(state);
        // What waits until the controls rest (150 ms without a change): the serving search.
        if (this.restTimer) clearTimeout(this.restTimer);
        this.restTimer = setTimeout(() => {
          this.restTimer = null;
          if (this.current() === state) this.rested(state);
        }, 150);
      },
      (e: unknown) => this.session.fail(e),
    );
  }

  /** The worker is up: the charts asked for before it was can go. */
  workerReady(): void {
    const next = this.chartsNext;
    if (next && next === this.current()) this.askCharts(next);
  }

  private show(r: Results): void {
    this.results = r;
    this.changed();
  }

  /** The charts' scenarios at the fidelity the toggle chooses (an engine without fidelities has one: the book's). */
  private chartScenario<T extends { query: object }>(sc: T, state: State): T {
    return FEATURES.fidelity && state.values['fid'] === 'book' ? atBookFidelity(sc) : sc;
  }

  /** The charts of `state`, now if no charts' batch is in flight, else once it is back (the latest state then). */
  private askCharts(state: State): void {
    // The worker starts after the page's first numbers: until it is there, the charts wait for it (workerReady).
    if (this.chartsBusy || !this.session.client) {
      this.chartsNext = state;
      return;
    }
    this.chartsBusy = true;
    this.chartsNext = null;
    const done = (): void => {
      this.chartsBusy = false;
      const next = this.chartsNext;
      if (next && next === this.current()) this.askCharts(next);
    };
    this.requestSecondary(state, done);
  }

  /** The charts' batch: the scaling variants' meshes first (the page's instance), then their numbers (the worker). */
  private requestSecondary(state: State, done: () => void): void {
    const variants = scalingDegrees(state);
    this.session.answer(
      variants.map(({ deg }) => JSON.stringify(planMeshScenario(state, deg))),
      'charts',
      (answers) => {
        if (!answers) return done();
        const meshes = variants.map(({ deg }, i) => meshOf(state, answers.results[i], deg));
        this.requestCharts(
          state,
          scalingScenarios(state, variants, meshes),
          meshes[variants.findIndex((v) => v.factor === 1)],
          done,
        );
      },
      (e: unknown) => {
        this.telemetry.error('charts', e);
        done();
      },
    );
  }

  private requestCharts(state: State, points: ScalingPoint[], mesh: MeshOutcome | undefined, done: () => void): void {
    const client = this.session.client;
    if (!client) return done();
    const curveKey = JSON.stringify(rooflineCurveScenarios(state)[0]);
    const texts: string[] = [];
    const scaling = points.map((point) => ({
      point,
      i: texts.push(JSON.stringify(this.chartScenario(point.scenario, state))) - 1,
    }));
    // The frontier is the main replica's sweep: at the book's fidelity it needs that replica at it (issue 22: the
    // toggle moved the scaling chart alone).
    const iBook =
      FEATURES.fidelity && isServing(state) && state.values['fid'] === 'book' && mesh?.ok
        ? texts.push(JSON.stringify(this.chartScenario(mainScenario(state, mesh.plan, { load: false }), state))) - 1
        : -1;
    const needCurve = !this.curveCache.has(curveKey);
    const curveStart = texts.length;
    if (needCurve) for (const c of rooflineCurveScenarios(state)) texts.push(JSON.stringify(c));
    client.evaluate(texts, 'charts').then(
      (batch) => {
        done();
        const shown = this.results;
        if (!batch || !shown) return;
        const r = batch.results;
        if (needCurve) this.curveCache.set(curveKey, rooflineCurveOf(r.slice(curveStart)));
        this.charts = {
          state,
          scaling: scaling.map(({ point, i }) => ({ point, ev: r[i] as Evaluation<Planned> })),
          bookServing: iBook >= 0 && r[iBook]?.ok ? (r[iBook]!.result as ServingResult) : undefined,
        };
        // The charts may be a batch behind the numbers: the numbers shown stay those of the state on screen.
        const sameChip = JSON.stringify(rooflineCurveScenarios(shown.state)[0]) === curveKey;
        this.show({
          ...shown,
          charts: this.charts,
          curve: sameChip ? (this.curveCache.get(curveKey) ?? NO_CURVE) : shown.curve,
          engineMs: shown.engineMs + batch.engineMs,
          scenarios: shown.scenarios + texts.length,
          cached: shown.cached + batch.cached,
          stage: 'secondary',
        });
      },
      (e: unknown) => {
        done();
        this.telemetry.error('charts', e);
      },
    );
  }
}
