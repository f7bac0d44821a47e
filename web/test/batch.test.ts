// The worker's batch evaluation: one evaluate_many call per batch on the real engine, the same answers as one
// evaluate per scenario, and a fallback that gives each scenario its own diagnostics.
import { beforeAll, describe, expect, it } from 'vitest';
import { evaluateBatch } from '../src/engine/batch';
import type { EngineModule } from '../src/engine/types';
import { cloneState, defaultState } from '../src/state/params';
import { chipScenario, mainScenario, meshFor, transformerScenario } from '../src/state/scenario';
import { loadEngine, askNowOf } from './engine';

let engine: EngineModule;
beforeAll(async () => {
  engine = await loadEngine();
});

function counting(m: EngineModule): { m: EngineModule; calls: { evaluate: number; many: number } } {
  const calls = { evaluate: 0, many: 0 };
  return {
    calls,
    m: {
      ...m,
      evaluate: (s: string) => (calls.evaluate++, m.evaluate(s)),
      evaluate_many: (s: string) => (calls.many++, m.evaluate_many(s)),
      presets: () => m.presets(),
      validate: (s: string) => m.validate(s),
      version: () => m.version(),
    },
  };
}

/** The page's primary batch for a state: planner (with its main ops), model and chip. */
function pageBatch(mode: 'training' | 'serving'): string[] {
  const s = cloneState(defaultState());
  s.values['mode'] = mode;
  const mesh = meshFor(s, askNowOf(engine));
  if (!mesh.ok) throw new Error(mesh.problem);
  return [mainScenario(s, mesh.plan), transformerScenario(s), chipScenario(s)].map((x) => JSON.stringify(x));
}

describe('evaluateBatch', () => {
  it('answers the page batch with one wasm call, equal to evaluate one by one', () => {
    for (const mode of ['training', 'serving'] as const) {
      const texts = pageBatch(mode);
      const { m, calls } = counting(engine);
      const out = evaluateBatch(m, texts);
      expect(out.calls).toBe(1);
      expect(calls).toEqual({ evaluate: 0, many: 1 });
      expect(JSON.parse(out.json)).toEqual(texts.map((t) => JSON.parse(engine.evaluate(t))));
    }
  });

  it('falls back to one call per scenario when the array is rejected, each with its own diagnostics', () => {
    const texts = [JSON.stringify({ hardware: { preset: 'tpu-v5e' }, query: { kind: 'chip' } }), '{not json'];
    const { m, calls } = counting(engine);
    const out = evaluateBatch(m, texts);
    expect(out.calls).toBe(3);
    expect(calls).toEqual({ evaluate: 2, many: 1 });
    const r = JSON.parse(out.json) as { ok: boolean; diagnostics: { code: string }[] }[];
    expect(r.map((x) => x.ok)).toEqual([true, false]);
    expect(r[1]!.diagnostics[0]!.code).toBe('malformed_json');
  });

  it('reports a trap in place and works without evaluate_many', () => {
    const m = {
      ...engine,
      evaluate: (s: string) =>
        s.includes('boom')
          ? (() => {
              throw new Error('RuntimeError: unreachable');
            })()
          : engine.evaluate(s),
    } as unknown as EngineModule;
    delete (m as Partial<EngineModule>).evaluate_many;
    const out = evaluateBatch(m, [
      '{"boom": 1}',
      JSON.stringify({ hardware: { preset: 'tpu-v5e' }, query: { kind: 'chip' } }),
    ]);
    const r = JSON.parse(out.json) as { ok: boolean; diagnostics: { code: string; message: string }[] }[];
    expect(r[0]!.diagnostics[0]).toMatchObject({ code: 'engine_error' });
    expect(r[0]!.diagnostics[0]!.message).toContain('unreachable');
    expect(r[1]!.ok).toBe(true);
    expect(evaluateBatch(engine, [])).toEqual({ json: '[]', calls: 0, trapped: false });
    expect(out.trapped).toBe(true);
  });
});
