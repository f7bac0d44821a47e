// The parameter table is consistent: keys unique and URL-safe, defaults inside ranges and choices, every path a
// JSON pointer, and the default state builds a scenario the engine's contract names.
import { describe, expect, it } from 'vitest';
import { HARDWARE_IDS, MODEL_IDS, PARAMS, PRESETS, defaultState, hardwareFields } from '../src/state/params';
import { mainScenario, meshFor } from '../src/state/scenario';

describe('parameter table', () => {
  it('has unique, URL-safe keys that do not clash with the version or hardware override keys', () => {
    const keys = PARAMS.map((p) => p.key);
    expect(new Set(keys).size).toBe(keys.length);
    for (const k of keys) {
      expect(k).toMatch(/^[a-z][a-z0-9_]*$/);
      expect(k).not.toBe('v');
    }
  });

  it('has defaults inside their ranges and choices', () => {
    for (const p of PARAMS) {
      if (p.type === 'enum') {
        expect(p.choices?.length, p.key).toBeGreaterThan(0);
        expect(p.choices, p.key).toContain(p.default);
      } else if (p.type === 'bool') expect(typeof p.default, p.key).toBe('boolean');
      else {
        expect(p.min, p.key).toBeTypeOf('number');
        expect(p.max, p.key).toBeGreaterThan(p.min!);
        if (p.default !== null) {
          expect(p.default, p.key).toBeGreaterThanOrEqual(p.min!);
          expect(p.default, p.key).toBeLessThanOrEqual(p.max!);
          if (p.type === 'int') expect(Number.isInteger(p.default), p.key).toBe(true);
        }
        if (p.scale === 'log2' || p.scale === 'log10') expect(p.min, p.key).toBeGreaterThan(0);
      }
      expect(p.path.startsWith('/'), p.key).toBe(true);
      expect(p.label.length, p.key).toBeGreaterThan(0);
      expect(p.help.length, p.key).toBeGreaterThan(0);
    }
  });

  it('lists the engine presets as hardware and model choices', () => {
    expect(HARDWARE_IDS).toEqual(PRESETS.hardware.map((h) => h.id));
    expect(MODEL_IDS).toEqual(PRESETS.models.map((m) => m.id));
    expect(HARDWARE_IDS).toContain('tpu-v5p');
    expect(MODEL_IDS).toContain('llama-3-70b');
  });

  it('exposes every numeric field of every hardware preset for override', () => {
    for (const h of PRESETS.hardware) {
      const paths = hardwareFields(h).map((f) => f.path);
      expect(paths).toContain('hbm_bandwidth_bytes_per_s');
      expect(paths).toContain('price_usd_per_chip_hour');
      expect(paths.some((p) => p.startsWith('peak_flops_per_s.'))).toBe(true);
      expect(paths.some((p) => p === 'id' || p === 'sources' || p.startsWith('sources.'))).toBe(false);
    }
  });

  it('fills the scenario at the paths the table names', () => {
    const s = defaultState();
    const m = meshFor(s);
    expect(m.ok).toBe(true);
    if (!m.ok) return;
    const sc = mainScenario(s, m.plan) as unknown as Record<string, unknown>;
    const at = (path: string): unknown => path.split('/').slice(1).reduce<unknown>((o, k) => (o as Record<string, unknown> | undefined)?.[k], sc);
    for (const key of ['hw', 'model', 'batch', 'seq', 'remat', 'mm', 'master', 'opt', 'comms', 'train_tokens', 'zero', 'sp']) {
      const p = PARAMS.find((x) => x.key === key)!;
      expect(at(p.path), key).toEqual(p.default);
    }
    expect(at('/query/kind')).toBe('training_step');
  });
});
