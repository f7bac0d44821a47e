// The model rows (layers, D, F/D, heads, experts, the family's size) reach the engine as the model's overrides and
// its `resize`, and the engine alone re-shapes the model (docs/api.md "Re-shaping a model"; issue 39: the page kept
// the scaling rule, which the CLI and Python could not ask for).
import { beforeAll, describe, expect, it } from 'vitest';
import type { EngineModule, TransformerResult } from '../src/engine/types';
import { transformerScenario } from '../src/state/scenario';
import { stateWith } from './state';
import { askNowOf, loadEngine } from './engine';

let engine: EngineModule;
beforeAll(async () => {
  engine = await loadEngine();
});

function transformer(values: Record<string, unknown>): { sent: unknown; result: TransformerResult } {
  const scenario = transformerScenario(stateWith(values));
  const answer = askNowOf(engine)(scenario);
  expect(answer.ok, JSON.stringify(answer.diagnostics)).toBe(true);
  return { sent: scenario.model, result: answer.result as TransformerResult };
}

describe('the model rows', () => {
  it('unset, send the preset alone', () => {
    expect(transformer({ model: 'llama-3-70b' }).sent).toEqual({ preset: 'llama-3-70b' });
  });

  it('size sends params_factor, and the engine makes about that many parameters', () => {
    const base = transformer({ model: 'llama-3-70b' }).result;
    const twice = transformer({ model: 'llama-3-70b', size: 2 });
    expect(twice.sent).toEqual({ preset: 'llama-3-70b', overrides: { resize: { params_factor: 2 } } });
    expect(twice.result.params.total / base.params.total).toBeGreaterThan(1.8);
    expect(twice.result.params.total / base.params.total).toBeLessThan(2.2);
    expect(twice.result.model.heads / twice.result.model.kv_heads).toBe(8);
  });

  it('D and F/D go as the resize; the fields set outright as overrides', () => {
    const r = transformer({ model: 'mixtral-8x7b', d_model: 2048, ff_ratio: 3, experts: 16, heads: 16 });
    expect(r.sent).toEqual({
      preset: 'mixtral-8x7b',
      overrides: { experts: 16, heads: 16, resize: { d_model: 2048, ff_ratio: 3 } },
    });
    expect(r.result.model.d_ff).toBe(6144);
    expect(r.result.model.experts).toBe(16);
  });

  it('latent attention scales too (the page used to send NaN heads for DeepSeek-V3)', () => {
    const r = transformer({ model: 'deepseek-v3', size: 0.5 });
    expect(r.result.model.heads).toBeGreaterThan(64);
    expect(r.result.model.heads).toBeLessThan(128);
  });
});
