// The launch configs' Web Worker: the engine worker's host (host.ts) over scalescope_launch, the engine build with
// the framework launch configs (core/frameworks/, docs/api.md "Framework launch configs"), which the explorer's
// first-load module leaves out. Started by launch-client.ts the first time a reader asks for a launch config.
/// <reference lib="webworker" />
import type { ToWorker } from './protocol';
import { EngineHost } from './host';
import { engineFactory } from './load';

declare const self: DedicatedWorkerGlobalScope;

const host = new EngineHost((base) => engineFactory(base, 'scalescope_launch'));

self.onmessage = (ev: MessageEvent<ToWorker>) => {
  void host.handle(ev.data).then((answer) => self.postMessage(answer));
};
