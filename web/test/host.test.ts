// The engine worker's logic (src/engine/host.ts) answers every failure with an error and replaces an instance that
// has thrown (issue 12): after a trap, a wasm instance can fail valid scenarios too.
import { describe, expect, it } from 'vitest';
import { EngineHost } from '../src/engine/host';
import type { EngineModule } from '../src/engine/types';

/** Fake instances: number n answers "ok n", or throws on texts containing "boom" and stays broken afterwards. */
function factory(opts: { failLoad?: boolean } = {}) {
  let made = 0;
  const instantiate = async (): Promise<EngineModule> => {
    const n = ++made;
    let poisoned = false;
    const answer = (s: string): string => {
      if (poisoned || s.includes('boom')) {
        poisoned = true;
        throw new Error('RuntimeError: memory access out of bounds');
      }
      return JSON.stringify({ ok: true, diagnostics: [], engine_version: 'x', result: `${n}:${s}` });
    };
    return {
      evaluate: answer,
      evaluate_many: (arr: string) =>
        `[${(JSON.parse(arr) as unknown[]).map((x) => answer(JSON.stringify(x))).join(',')}]`,
      presets: () => '{}',
      validate: () => '{}',
      version: () => '0.1.0',
      model_json: () => '{}',
    };
  };
  return {
    prepare: async () => {
      if (opts.failLoad) throw new Error('HTTP 404');
      return instantiate;
    },
    made: () => made,
  };
}

describe('EngineHost', () => {
  it('loads, answers, and after a throw answers the next batch with a fresh instance', async () => {
    const f = factory();
    const h = new EngineHost(f.prepare, () => 0);
    expect(await h.handle({ type: 'init', engineBase: 'x' })).toEqual({ type: 'ready', version: '0.1.0', loadMs: 0 });
    const ok = await h.handle({ type: 'evaluate', id: 1, scenarios: ['"a"'] });
    expect(ok).toMatchObject({ type: 'result', id: 1 });
    const bad = await h.handle({ type: 'evaluate', id: 2, scenarios: ['"a"', '"boom"'] });
    // The trap is answered in place, as a diagnostic, and the poisoned instance is replaced.
    expect(bad.type).toBe('result');
    const answers = JSON.parse((bad as { json: string }).json) as { diagnostics: { code: string }[] }[];
    expect(answers.map((a) => a.diagnostics[0]?.code)).toEqual(['engine_error', 'engine_error']);
    expect(h.renewals).toBe(1);
    const after = await h.handle({ type: 'evaluate', id: 3, scenarios: ['"b"'] });
    expect(JSON.parse((after as { json: string }).json)[0].result).toBe('2:"b"');
    expect(f.made()).toBe(2);
  });

  it('answers a load failure and an early request with errors, never silence', async () => {
    const h = new EngineHost(factory({ failLoad: true }).prepare);
    expect(await h.handle({ type: 'evaluate', id: 1, scenarios: [] })).toEqual({
      type: 'error',
      id: 1,
      message: 'the engine was asked to evaluate before it was loaded',
    });
    const init = await h.handle({ type: 'init', engineBase: 'x' });
    expect(init).toMatchObject({ type: 'error' });
    expect((init as { message: string }).message).toContain('HTTP 404');
  });

  it('a batch that throws outside the engine calls is an error answer with its id', async () => {
    const h = new EngineHost(
      async () => async () =>
        ({
          evaluate: () => {
            throw new Error('x');
          },
          evaluate_many: () => {
            throw new Error('y');
          },
          version: () => '1',
        }) as unknown as EngineModule,
    );
    await h.handle({ type: 'init', engineBase: 'x' });
    const out = await h.handle({ type: 'evaluate', id: 7, scenarios: ['{}'] });
    expect(out).toMatchObject({ type: 'result', id: 7 });
    expect(h.renewals).toBe(1);
  });
});
