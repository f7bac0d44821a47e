// The engine's Web Worker: a thin shell around EngineHost (host.ts), which loads the wasm module once, answers each
// batch of scenarios with one evaluate_many call, answers every failure with an error and replaces an instance that
// has thrown. It never computes anything itself: the page's EngineClient caches results and sends at most one batch
// at a time, so stale requests never queue here.
/// <reference lib="webworker" />
import type { ToWorker } from './protocol';
import { EngineHost } from './host';
import { engineFactory } from './load';

declare const self: DedicatedWorkerGlobalScope;

const host = new EngineHost(engineFactory);

self.onmessage = (ev: MessageEvent<ToWorker>) => {
  void host.handle(ev.data).then((answer) => self.postMessage(answer));
};
