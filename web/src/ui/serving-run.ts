// A serving search the page ran (page/serving-search.ts): for which scenario (its text) and what came back. Shared
// by the panel that lists it (serving-search.ts) and its downloads (search-export.ts).
import type { Evaluation, ServingSearchResult } from '../engine/types';
import type { State } from '../state/params';

export interface ServingSearchRun {
  key: string;
  /** The state the search was asked for (its downloads list its inputs). */
  state: State;
  ev: Evaluation<ServingSearchResult> | null;
  /** Time in the engine (0 when the page's cache answered). */
  engineMs: number;
  error?: string;
}
