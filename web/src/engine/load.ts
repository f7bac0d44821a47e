// Loading the engine in a browser (the worker and the page's own instance use the same code): the Emscripten
// module from `base` (scalescope_engine.js, an ES module) and the wasm bytes fetched once, so an instance that has
// thrown can be replaced by a fresh one without a second download.
import type { CreateScalescope, EngineModule } from './types';

/** Makes engine instances: each call a fresh one from the same module and bytes. */
export type Instantiate = () => Promise<EngineModule>;

export async function engineFactory(base: string): Promise<Instantiate> {
  const jsUrl = new URL('scalescope_engine.js', base).href;
  const wasmUrl = new URL('scalescope_engine.wasm', base).href;
  const [mod, bytes] = await Promise.all([
    import(/* @vite-ignore */ jsUrl) as Promise<{ default: CreateScalescope }>,
    fetch(wasmUrl).then((r) => {
      if (!r.ok) throw new Error(`could not fetch the engine (${wasmUrl}: HTTP ${r.status})`);
      return r.arrayBuffer();
    }),
  ]);
  return () => mod.default({ wasmBinary: bytes });
}
