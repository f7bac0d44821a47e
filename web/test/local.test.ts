// The page's own engine instance answers the numbers on screen synchronously, through the worker client's cache,
// with exactly the worker's answers; an instance that throws steps aside (null: the worker answers) and is replaced.
import { beforeAll, describe, expect, it } from 'vitest';
import { ResultCache } from '../src/engine/client';
import { LocalEngine } from '../src/engine/local';
import type { EngineModule } from '../src/engine/types';
import { defaultState } from '../src/state/params';
import { chipScenario, mainScenario, meshFor } from '../src/state/scenario';
import { loadEngine, askNowOf } from './engine';

let engine: EngineModule;
beforeAll(async () => {
  engine = await loadEngine();
});

describe('LocalEngine', () => {
  it('evaluates at once, through the cache, equal to the engine one by one', async () => {
    const local = await LocalEngine.start('unused', async () => engine);
    const s = defaultState();
    const m = meshFor(s, askNowOf(engine));
    if (!m.ok) throw new Error(m.problem);
    const texts = [mainScenario(s, m.plan), chipScenario(s)].map((x) => JSON.stringify(x));
    const cache = new ResultCache();
    const a = local.evaluate(texts, cache)!;
    expect(a).toMatchObject({ trips: 0, calls: 1, cached: 0 });
    expect(a.results).toEqual(texts.map((t) => JSON.parse(engine.evaluate(t))));
    const b = local.evaluate(texts, cache)!;
    expect(b).toMatchObject({ trips: 0, calls: 0, cached: 2 });
    expect(b.results[0]).toBe(a.results[0]);
  });

  it('steps aside after a throw and comes back with a fresh instance', async () => {
    let made = 0;
    const broken = {
      ...engine,
      evaluate_many: () => {
        throw new Error('RuntimeError: unreachable');
      },
      evaluate: () => {
        throw new Error('RuntimeError: unreachable');
      },
    } as EngineModule;
    const local = await LocalEngine.start('unused', async () => (++made === 1 ? broken : engine));
    const cache = new ResultCache();
    const text = JSON.stringify(chipScenario(defaultState()));
    const trapped = local.evaluate([text], cache)!;
    expect(trapped.results[0]!.diagnostics[0]!.code).toBe('engine_error');
    expect(cache.get(text)).toBeUndefined(); // a trap is not cached
    expect(local.ready).toBe(false);
    expect(local.evaluate([text], cache)).toBeNull(); // until the fresh instance is there: ask the worker
    await new Promise((r) => setTimeout(r, 0));
    expect(local.ready).toBe(true);
    expect(local.evaluate([text], cache)!.results[0]!.ok).toBe(true);
    expect(local.renewals).toBe(1);
  });
});
