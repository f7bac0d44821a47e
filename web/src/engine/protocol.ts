// Messages between the page and the engine worker (worker.ts). Results travel parsed (structured clone).
import type { Evaluation } from './types';

export interface InitMessage {
  type: 'init';
  /** Absolute URL of the folder holding scalescope_engine.{js,wasm}. */
  engineBase: string;
}

export interface EvaluateMessage {
  type: 'evaluate';
  id: number;
  /** Scenario JSON texts, evaluated in order. */
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
  results: Evaluation<unknown>[];
  engineMs: number;
}

export interface ErrorMessage {
  type: 'error';
  id?: number;
  message: string;
}

export type FromWorker = ReadyMessage | ResultMessage | ErrorMessage;
