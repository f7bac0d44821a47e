// Loads the built wasm engine in Node the way docs/toolchain.md quirk 3 says: hand it the bytes.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { CreateScalescope, EngineModule, Evaluation, Mesh, Scenario } from '../src/engine/types';
import type { State } from '../src/state/params';
import { meshFor, planSearchScenario } from '../src/state/scenario';
import { ENGINE_DIR } from '../engine-plugin';

export const REPO = path.resolve(__dirname, '../..');

/** The explorer's first-load module, or another build of the same bindings (scalescope_launch). */
export async function loadEngine(name = 'scalescope_engine'): Promise<EngineModule> {
  const mod = (await import(pathToFileURL(path.join(ENGINE_DIR, `${name}.js`)).href)) as {
    default: CreateScalescope;
  };
  return mod.default({ wasmBinary: fs.readFileSync(path.join(ENGINE_DIR, `${name}.wasm`)) });
}

/** The engine asked at once, as the page's own instance answers (state/plan-mesh.ts AskNow). */
export function askNowOf(engine: EngineModule): (scenario: unknown) => Evaluation<unknown> {
  return (scenario) => JSON.parse(engine.evaluate(JSON.stringify(scenario))) as Evaluation<unknown>;
}

/** The engine asked in a batch, as a widget asks its worker. */
export function askManyOf(engine: EngineModule): (scenarios: unknown[]) => Promise<Evaluation<unknown>[]> {
  return (scenarios) =>
    Promise.resolve(scenarios.map((s) => JSON.parse(engine.evaluate(JSON.stringify(s))) as Evaluation<unknown>));
}

/** A state's plan search on the mesh the engine gives it (what the page's search asks). */
export function searchScenarioOf(engine: EngineModule, s: State): (Scenario & { mesh: Mesh }) | null {
  return planSearchScenario(s, meshFor(s, askNowOf(engine)));
}

/** The launch configs' engine (scalescope_launch: the same bindings with the frameworks), as its worker loads it. */
export async function loadLaunchEngine(): Promise<EngineModule> {
  const mod = (await import(pathToFileURL(path.join(ENGINE_DIR, 'scalescope_launch.js')).href)) as {
    default: CreateScalescope;
  };
  return mod.default({ wasmBinary: fs.readFileSync(path.join(ENGINE_DIR, 'scalescope_launch.wasm')) });
}
