// The engine's Web Worker: loads the wasm module once, then evaluates batches of scenarios. It never computes
// anything itself. The page's EngineClient sends at most one batch at a time, so stale requests never queue here.
/// <reference lib="webworker" />
import type { CreateScalescope, EngineModule, Evaluation } from './types';
import type { FromWorker, ToWorker } from './protocol';

declare const self: DedicatedWorkerGlobalScope;

let engine: Promise<EngineModule> | null = null;

// Results by scenario text (the engine is a pure function): moving a slider back and forth, or the chip and model
// queries that do not change while the batch moves, cost nothing the second time. Least recently used out first.
const CACHE_SIZE = 2000;
const cache = new Map<string, Evaluation<unknown>>();

function cached(m: EngineModule, text: string): Evaluation<unknown> {
  const hit = cache.get(text);
  if (hit) {
    cache.delete(text);
    cache.set(text, hit);
    return hit;
  }
  const ev = evaluateOne(m, text);
  cache.set(text, ev);
  if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value as string);
  return ev;
}

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

function evaluateOne(m: EngineModule, text: string): Evaluation<unknown> {
  try {
    return JSON.parse(m.evaluate(text)) as Evaluation<unknown>;
  } catch (e) {
    // The engine never throws by contract; a trap here is a bug worth showing in place, not a dead page.
    return { ok: false, diagnostics: [{ path: '', code: 'engine_error', message: String(e) }], engine_version: '' };
  }
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
  const results = msg.scenarios.map((s) => cached(m, s));
  post({ type: 'result', id: msg.id, results, engineMs: performance.now() - t0 });
};
