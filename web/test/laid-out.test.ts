// One wasm call a move (issue 39): the page asks for the numbers on the mesh the engine lays the degrees out on
// (`mesh.lay_out`, docs/api.md "A mesh the engine lays out") in the same call as the mesh question. The answer is
// the one the two calls gave: plan_mesh's mesh, then the step on it.
import { beforeAll, describe, expect, it } from 'vitest';
import type { EngineModule, Evaluation } from '../src/engine/types';
import { laidOutScenario, mainScenario, meshOf, planMeshScenario } from '../src/state/scenario';
import { stateWith } from './state';
import { askNowOf, loadEngine } from './engine';

let engine: EngineModule;
beforeAll(async () => {
  engine = await loadEngine();
});

const STATES: [string, Record<string, unknown>][] = [
  ['v5p FSDP x TP', { fsdp: 16, tp: 4 }],
  ['v5p, a fixed chip count balanced by FSDP', { fsdp: 1, tp: 8, chips: 128 }],
  ['two v5p slices, FSDP over DCN', { fsdp: 16, tp: 4, slices: 2, dcn: 'fsdp' }],
  ['H100 with pipelining', { hw: 'h100-sxm', fsdp: 8, tp: 8, pp: 4, sched: 'interleaved', vstages: 2, mb: 8 }],
  ['Mixtral with experts', { hw: 'h100-sxm', model: 'mixtral-8x7b', fsdp: 8, ep: 8 }],
  ['serving on H100', { mode: 'serving', hw: 'h100-sxm', tp: 8 }],
  ['serving DeepSeek-V3 with experts', { mode: 'serving', hw: 'b200', model: 'deepseek-v3', tp: 1, ep: 16 }],
];

describe('a step on the mesh the engine lays out', () => {
  it.each(STATES)('%s: the numbers of plan_mesh then the step', (_name, values) => {
    const s = stateWith(values);
    const ask = askNowOf(engine);
    const mesh = meshOf(s, ask(planMeshScenario(s, undefined, { chips: true }))); // as the page asked it
    expect(mesh.ok).toBe(true);
    if (!mesh.ok) return;
    const twoCalls = ask(mainScenario(s, mesh.plan)) as Evaluation<Record<string, unknown>>;
    const oneCall = ask(laidOutScenario(s)) as Evaluation<Record<string, unknown>>;
    expect(oneCall.diagnostics).toEqual(twoCalls.diagnostics);
    for (const key of ['time', 'memory', 'degrees', 'cost'])
      expect(oneCall.result?.[key], key).toEqual(twoCalls.result?.[key]);
  });

  it('says why where the degrees lay out on no mesh, under mesh.lay_out', () => {
    const answer = askNowOf(engine)(laidOutScenario(stateWith({ fsdp: 16, tp: 3 })))!;
    expect(answer.ok).toBe(false);
    expect(answer.diagnostics.map((d) => d.path)).toContain('/query/parallelism/tensor');
    const nonsense = { ...laidOutScenario(stateWith({})), mesh: { lay_out: { parallelism: { tensor: 'four' } } } };
    const bad = askNowOf(engine)(nonsense)!;
    expect(bad.ok).toBe(false);
    expect(bad.diagnostics[0]!.path).toBe('/mesh/lay_out/parallelism/tensor');
  });
});
