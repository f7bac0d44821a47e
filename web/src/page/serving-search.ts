// The serving search for the state on screen (the engine's serving_search), in the worker, once the controls rest:
// one search takes a few milliseconds (measured by the browser test), so it needs no button; a search already
// answered is not sent again.
import type { Evaluation, ServingSearchResult } from '../engine/types';
import type { State } from '../state/params';
import { servingSearchScenario } from '../state/scenario';
import { encodeState } from '../state/url';
import type { ServingSearchRun } from '../ui/serving-run';
import type { EngineSession } from './engine-session';
import type { Telemetry } from './telemetry';

export class ServingSearch {
  run: ServingSearchRun | null = null;

  constructor(
    private readonly session: EngineSession,
    private readonly telemetry: Telemetry,
    private readonly changed: () => void,
  ) {}

  request(state: State): void {
    const client = this.session.client;
    const sc = servingSearchScenario(state);
    if (!client || !sc) return;
    const key = JSON.stringify(sc);
    if (this.run?.key === key && !this.run.error) return;
    client.evaluate([key], 'serving-search').then(
      (batch) => {
        if (!batch) return; // a newer search replaced this one
        const ev = batch.results[0] as Evaluation<ServingSearchResult>;
        const res = ev.ok ? ev.result : undefined;
        this.telemetry.hooks.servingSearch = {
          engineMs: batch.engineMs,
          cached: batch.cached > 0,
          deployments: res?.deployments.length ?? 0,
          evaluated: res?.evaluated ?? 0,
          meeting: res?.meeting_targets ?? 0,
          query: encodeState(state),
        };
        this.show({ key, state, ev, engineMs: batch.engineMs });
      },
      (e: unknown) =>
        this.show({ key, state, ev: null, engineMs: 0, error: e instanceof Error ? e.message : String(e) }),
    );
  }

  private show(run: ServingSearchRun): void {
    this.run = run;
    this.changed();
  }
}
