// Messages between the page and the engine worker (worker.ts).

export interface InitMessage {
  type: 'init';
  /** Absolute URL of the folder holding scalescope_engine.{js,wasm}. */
  engineBase: string;
}

export interface EvaluateMessage {
  type: 'evaluate';
  id: number;
  /** Scenario JSON texts, evaluated in order with one evaluate_many call (batch.ts). */
  scenarios: string[];
}

export type ToWorker = InitMessage | EvaluateMessage;

export interface ReadyMessage {
  type: 'ready';
  version: string;
  loadMs: number;
}

export interface ResultMessage {
  type: 'result';
  id: number;
  /** JSON text of the array of evaluations, one per scenario sent, in order (the page parses it once). */
  json: string;
  /** Time inside the engine, ms. */
  engineMs: number;
  /** wasm calls the worker made for this batch (1: one evaluate_many). */
  calls: number;
}

export interface ErrorMessage {
  type: 'error';
  id?: number;
  message: string;
}

export type FromWorker = ReadyMessage | ResultMessage | ErrorMessage;
