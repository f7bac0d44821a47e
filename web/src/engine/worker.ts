// The engine's Web Worker: loads the wasm module once, then answers each batch of scenarios with one evaluate_many
// call (batch.ts). It never computes anything itself and keeps no state but the module: the page's EngineClient
// caches results and sends at most one batch at a time, so stale requests never queue here.
/// <reference lib="webworker" />
import type { CreateScalescope, EngineModule } from './types';
import type { FromWorker, ToWorker } from './protocol';
import { evaluateBatch } from './batch';

declare const self: DedicatedWorkerGlobalScope;

let engine: Promise<EngineModule> | null = null;

function post(msg: FromWorker): void {
  self.postMessage(msg);
}

async function load(base: string): Promise<EngineModule> {
  const jsUrl = new URL('scalescope_engine.js', base).href;
  const wasmUrl = new URL('scalescope_engine.wasm', base).href;
  const [mod, bytes] = await Promise.all([
    import(/* @vite-ignore */ jsUrl) as Promise<{ default: CreateScalescope }>,
    fetch(wasmUrl).then((r) => {
      if (!r.ok) throw new Error(`could not fetch the engine (${wasmUrl}: HTTP ${r.status})`);
      return r.arrayBuffer();
    }),
  ]);
  return mod.default({ wasmBinary: bytes });
}

self.onmessage = async (ev: MessageEvent<ToWorker>) => {
  const msg = ev.data;
  if (msg.type === 'init') {
    const t0 = performance.now();
    engine = load(msg.engineBase);
    try {
      const m = await engine;
      post({ type: 'ready', version: m.version(), loadMs: performance.now() - t0 });
    } catch (e) {
      post({ type: 'error', message: `the engine did not load: ${e instanceof Error ? e.message : String(e)}` });
    }
    return;
  }
  if (!engine) {
    post({ type: 'error', id: msg.id, message: 'the engine was asked to evaluate before it was loaded' });
    return;
  }
  let m: EngineModule;
  try {
    m = await engine;
  } catch {
    return; // already reported by init
  }
  const t0 = performance.now();
  const { json, calls } = evaluateBatch(m, msg.scenarios);
  post({ type: 'result', id: msg.id, json, engineMs: performance.now() - t0, calls });
};
