// Loading the engine in a browser (the worker and the page's own instance use the same code): the Emscripten
// module from `base` (scalescope_engine.js, an ES module; or another build of the same bindings, such as the launch
// configs' scalescope_launch) and the wasm bytes fetched once, so an instance that has thrown can be replaced by a
// fresh one without a second download.
import type { CreateScalescope, EngineModule } from './types';

/** Makes engine instances: each call a fresh one from the same module and bytes. */
export type Instantiate = () => Promise<EngineModule>;

export async function engineFactory(base: string, name = 'scalescope_engine'): Promise<Instantiate> {
  const jsUrl = new URL(`${name}.js`, base).href;
  const wasmUrl = new URL(`${name}.wasm`, base).href;
  const [mod, bytes] = await Promise.all([
    import(/* @vite-ignore */ jsUrl) as Promise<{ default: CreateScalescope }>,
    fetch(wasmUrl).then((r) => {
      if (!r.ok) throw new Error(`could not fetch the engine (${wasmUrl}: HTTP ${r.status})`);
      return r.arrayBuffer();
    }),
  ]);
  return () => mod.default({ wasmBinary: bytes });
}
