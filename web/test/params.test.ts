// The parameter table is consistent: keys unique and URL-safe, defaults inside ranges and choices, every path a
// JSON pointer, and the default state builds a scenario the engine's contract names.
import { beforeAll, describe, expect, it } from 'vitest';
import type { EngineModule, Evaluation, RooflineResult, ServingResult, TrainingStepResult } from '../src/engine/types';
import { encodeState, decodeState } from '../src/state/url';
import { engineDefaults, type Planned } from '../src/ui/results';
import { HARDWARE_IDS, MODEL_IDS, PARAMS, PRESETS, defaultState, hardwareFields } from '../src/state/params';
import { cloneState } from '../src/state/params';
import {
  atBookFidelity,
  frontierConcurrencies,
  mainScenario,
  meshFor,
  rooflineCurveOf,
  rooflineCurveScenarios,
  scalingDegrees,
  scalingScenarios,
  transformerScenario,
} from '../src/state/scenario';
import { askNowOf, loadEngine, searchScenarioOf } from './engine';

let engine: EngineModule;
beforeAll(async () => {
  engine = await loadEngine();
});

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
        // null: the model's own (the weights' dtype: the one it is published in).
        if (p.default !== null) expect(p.choices, p.key).toContain(p.default);
      } else if (p.type === 'bool') expect(typeof p.default, p.key).toBe('boolean');
      else if (p.type === 'text') {
        expect(p.pattern, p.key).toBeInstanceOf(RegExp);
        expect(p.default, p.key).toBe(''); // '' = not set
        expect(p.examples?.length, p.key).toBeGreaterThan(0);
        for (const x of p.examples ?? []) expect(p.pattern!.test(x), `${p.key} ${x}`).toBe(true);
      } else {
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
      if (p.showIf) {
        const on = PARAMS.find((x) => x.key === p.showIf!.key);
        expect(on, `${p.key} showIf`).toBeDefined();
        expect(on!.group, `${p.key} showIf: a condition in the same group re-renders with it`).toBe(p.group);
      }
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
    const m = meshFor(s, askNowOf(engine));
    expect(m.ok).toBe(true);
    if (!m.ok) return;
    const sc = mainScenario(s, m.plan) as unknown as Record<string, unknown>;
    const at = (path: string): unknown =>
      path
        .split('/')
        .slice(1)
        .reduce<unknown>((o, k) => (o as Record<string, unknown> | undefined)?.[k], sc);
    for (const key of [
      'hw',
      'model',
      'batch',
      'seq',
      'remat',
      'mm',
      'master',
      'opt',
      'comms',
      'train_tokens',
      'zero',
      'sp',
    ]) {
      const p = PARAMS.find((x) => x.key === key)!;
      expect(at(p.path), key).toEqual(p.default);
    }
    expect(at('/query/kind')).toBe('training_step');
  });
});

describe('parameter table: the rows added for serving, remat and efficiency', () => {
  const at = (sc: unknown, path: string): unknown =>
    path
      .split('/')
      .slice(1)
      .reduce<unknown>((o, k) => (o as Record<string, unknown> | undefined)?.[k], sc);
  const build = (s: ReturnType<typeof defaultState>) => {
    const m = meshFor(s, askNowOf(engine));
    if (!m.ok) throw new Error(m.problem);
    return mainScenario(s, m.plan);
  };

  it('leaves the engine defaults out of the scenario', () => {
    const t = build(defaultState()) as unknown as Record<string, Record<string, unknown>>;
    expect(t['query']!['efficiency']).toBeUndefined();
    expect(t['query']!['checkpoints_per_layer']).toBeUndefined();
    const sv = cloneState(defaultState());
    sv.values['mode'] = 'serving';
    const q = (build(sv) as unknown as Record<string, Record<string, unknown>>)['query']!;
    expect(q['kv_context_len']).toBeUndefined();
    expect(q['speculative']).toBeUndefined();
  });

  it('fills serving kv_context_len, speculative decoding and efficiency at their paths', () => {
    const s = cloneState(defaultState());
    s.values['mode'] = 'serving';
    s.values['kvctx'] = 16384;
    s.values['spec'] = true;
    s.values['lookahead'] = 6;
    s.values['accept'] = 0.7;
    s.values['eff_flops'] = 0.6;
    s.values['eff_net'] = 0.5;
    const sc = build(s);
    for (const key of ['kvctx', 'lookahead', 'accept', 'eff_flops', 'eff_net', 'draft']) {
      const p = PARAMS.find((x) => x.key === key)!;
      expect(at(sc, p.path), key).toEqual(s.values[key]);
    }
    expect(at(sc, '/query/efficiency/hbm_frac')).toBeUndefined();
  });

  it('sends checkpoints_per_layer with the checkpoints remat (training step, model accounting and plan search)', () => {
    const s = cloneState(defaultState());
    s.values['remat'] = 'checkpoints';
    s.values['ckpt'] = 3;
    s.values['eff_hbm'] = 0.8;
    const sc = build(s);
    expect(at(sc, '/query/remat')).toBe('checkpoints');
    expect(at(sc, PARAMS.find((x) => x.key === 'ckpt')!.path)).toBe(3);
    expect(at(sc, '/query/efficiency/hbm_frac')).toBe(0.8);
    expect(at(transformerScenario(s), '/query/checkpoints_per_layer')).toBe(3);
    const search = searchScenarioOf(engine, s)!;
    expect(at(search, '/query/kind')).toBe('plan_search');
    expect(at(search, '/query/remat')).toBeUndefined(); // the search varies remat itself
    expect(at(search, '/query/efficiency/hbm_frac')).toBe(0.8);
  });
});

describe('parameter table: choices are the engine’s', () => {
  it('offers exactly the pipeline schedules and matmul precisions training_step takes (its unknown_choice lists them)', () => {
    const sc = {
      hardware: { preset: 'h100-sxm' },
      model: { preset: 'llama-3-8b' },
      mesh: { shape: [8] },
      query: {
        kind: 'training_step',
        batch_tokens: 65536,
        seq_len: 4096,
        parallelism: { data: 8, pipeline_schedule: '?' },
        precision: { matmul: '?' },
      },
    };
    const ev = JSON.parse(engine.evaluate(JSON.stringify(sc))) as {
      diagnostics: { path: string; code: string; message: string }[];
    };
    const valid = (path: string): string[] => {
      const d = ev.diagnostics.find((x) => x.path === path && x.code === 'unknown_choice');
      expect(d, path).toBeDefined();
      return d!.message.replace(/^.*valid: /, '').split(', ');
    };
    expect(PARAMS.find((p) => p.key === 'sched')!.choices).toEqual(valid('/query/parallelism/pipeline_schedule'));
    expect(PARAMS.find((p) => p.key === 'mm')!.choices).toEqual(valid('/query/precision/matmul'));
  });

  it('every matmul precision draws its roofline at the dtype the engine runs it in (fp8_blockwise: fp8, nvfp4: fp4)', () => {
    const s = cloneState(defaultState());
    s.values['hw'] = 'b200';
    const dtypeOf = (mm: string) => {
      s.values['mm'] = mm;
      const curve = rooflineCurveScenarios(s).map(askNowOf(engine));
      expect(curve.every((a) => a.ok)).toBe(true);
      expect(rooflineCurveOf(curve).points.length).toBe(curve.length);
      return (curve[0]!.result as RooflineResult).dtype;
    };
    for (const mm of PARAMS.find((p) => p.key === 'mm')!.choices!) expect(dtypeOf(mm)).toBeDefined();
    expect(dtypeOf('fp8_blockwise')).toBe('fp8');
    expect(dtypeOf('mxfp8')).toBe('fp8');
    expect(dtypeOf('nvfp4')).toBe('fp4');
  });

  it('sends the MoE settings and the experts’ TP only when set, at their docs/api.md paths', () => {
    const s = cloneState(defaultState());
    Object.assign(s.values, { hw: 'h100-sxm', model: 'qwen3-30b-a3b', fsdp: 8, tp: 2, ep: 4 });
    const query = (st: typeof s): Record<string, Record<string, unknown>> => {
      const m = meshFor(st, askNowOf(engine));
      if (!m.ok) throw new Error(m.problem);
      return mainScenario(st, m.plan).query as unknown as Record<string, Record<string, unknown>>;
    };
    expect(query(s)['moe']).toBeUndefined();
    expect(query(s)['parallelism']!['expert_tensor']).toBeUndefined();
    Object.assign(s.values, { etp: 1, cap: 1.25, imb: 1.3, disp: 'hierarchical', epov: true });
    const q = query(s);
    expect(q['moe']).toEqual({ capacity_factor: 1.25, load_imbalance: 1.3, dispatcher: 'hierarchical', overlap: true });
    expect(q['parallelism']!['expert_tensor']).toBe(1);
    expect((searchScenarioOf(engine, s)!.query as unknown as Record<string, unknown>)['moe']).toEqual(q['moe']);
  });
});

describe('parameter table: the goodput settings (issue 38)', () => {
  const GOODPUT_KEYS = ['fail', 'ckpt_mode', 'replace'];
  const at = (sc: unknown, path: string): unknown =>
    path
      .split('/')
      .slice(1)
      .reduce<unknown>((o, k) => (o as Record<string, unknown> | undefined)?.[k], sc);
  const scenarioOf = (s: ReturnType<typeof defaultState>) => {
    const m = meshFor(s, askNowOf(engine));
    if (!m.ok) throw new Error(m.problem);
    return mainScenario(s, m.plan);
  };
  const query = (s: ReturnType<typeof defaultState>): Record<string, unknown> =>
    scenarioOf(s).query as unknown as Record<string, unknown>;

  it('defaults to unset: the scenario has no goodput and the link carries no key, so the engine’s cited defaults apply', () => {
    for (const k of GOODPUT_KEYS) expect(PARAMS.find((p) => p.key === k)!.default, k).toBeNull();
    expect(query(defaultState())['goodput']).toBeUndefined();
    const q = encodeState(defaultState());
    for (const k of GOODPUT_KEYS) expect(new URLSearchParams(q).has(k), k).toBe(false);
  });

  it('fills query.goodput at the table’s paths, round-trips through the URL and reaches the engine', () => {
    const s = cloneState(defaultState());
    Object.assign(s.values, { fail: 1e-4, ckpt_mode: 'blocking', replace: 600 });
    const sc = { query: query(s) };
    for (const k of GOODPUT_KEYS) expect(at(sc, PARAMS.find((p) => p.key === k)!.path), k).toEqual(s.values[k]);
    expect(sc.query['goodput']).toEqual({ failures_per_chip_hour: 1e-4, checkpoint: 'blocking', host_replace_s: 600 });
    const link = encodeState(s);
    for (const k of ['fail=0.0001', 'ckpt_mode=blocking', 'replace=600']) expect(link).toContain(k);
    expect(decodeState('?' + link).state).toEqual(s);
    const g = (askNowOf(engine)(scenarioOf(s)) as Evaluation<TrainingStepResult>).result!.goodput!;
    expect([g.settings.failures_per_chip_hour, g.checkpoint.mode, g.restart.replace_s]).toEqual([
      1e-4,
      'blocking',
      600,
    ]);
    expect((searchScenarioOf(engine, s)!.query as unknown as Record<string, unknown>)['goodput']).toEqual(
      sc.query['goodput'],
    ); // the plan search reads them too
  });

  it('sends them only in training mode', () => {
    const s = cloneState(defaultState());
    Object.assign(s.values, { mode: 'serving', fail: 1e-4, ckpt_mode: 'blocking', replace: 600 });
    expect(query(s)['goodput']).toBeUndefined();
  });

  it('shows the engine’s values for the unset rows (engineDefaults)', () => {
    const s = defaultState();
    const main = askNowOf(engine)(scenarioOf(s)) as Evaluation<Planned>;
    const g = (main.result as TrainingStepResult).goodput!;
    expect(engineDefaults({ state: s, mesh: meshFor(s, askNowOf(engine)), main })).toEqual({
      fail: g.settings.failures_per_chip_hour,
      ckpt_mode: g.checkpoint.mode,
      replace: g.restart.replace_s,
    });
    expect(engineDefaults(undefined)).toEqual({});
  });
});

describe('parameter table: a benchmark’s load (issue 35)', () => {
  type S = ReturnType<typeof defaultState>;
  const serving = (values: Record<string, unknown> = {}): S => {
    const s = cloneState(defaultState());
    Object.assign(s.values, { mode: 'serving', hw: 'h200', model: 'llama-3-70b', ...values });
    return s;
  };
  const scenarioOf = (s: S) => {
    const m = meshFor(s, askNowOf(engine));
    if (!m.ok) throw new Error(m.problem);
    return mainScenario(s, m.plan);
  };
  const query = (s: S): Record<string, unknown> => scenarioOf(s).query as unknown as Record<string, unknown>;
  const row = (k: string) => PARAMS.find((p) => p.key === k)!;

  it('offers as serving engines exactly the engine’s presets’ serving_backends, none by default', () => {
    expect(row('sbk').choices).toEqual(PRESETS.serving_backends.map((b) => b.id));
    expect(row('sbk').choices).toContain('trtllm');
    for (const k of ['conc', 'sbk'])
      expect([row(k).default, row(k).group, row(k).mode, row(k).advanced], k).toEqual([
        null,
        'serving',
        'serving',
        true,
      ]);
    expect([row('conc').type, row('conc').min, row('conc').max]).toEqual(['int', 1, 4096]);
  });

  it('unset: no load block in the query, no key in the link', () => {
    expect(query(serving())['load']).toBeUndefined();
    expect(query(serving({ sbk: 'trtllm' }))['load']).toBeUndefined(); // a serving engine alone prices no load
    const link = encodeState(serving());
    for (const k of ['conc', 'sbk']) expect(new URLSearchParams(link).has(k), k).toBe(false);
  });

  it('the frontier’s concurrencies: powers of two from 1 to max(512, 2 × the concurrency), at most 4,096', () => {
    const pow2 = (top: number): number[] => Array.from({ length: Math.log2(top) + 1 }, (_, i) => 2 ** i);
    expect(frontierConcurrencies(1)).toEqual(pow2(512));
    expect(frontierConcurrencies(64)).toEqual(pow2(512));
    expect(frontierConcurrencies(300)).toEqual(pow2(512)); // 600: the powers of two up to it
    expect(frontierConcurrencies(1024)).toEqual(pow2(2048));
    expect(frontierConcurrencies(4096)).toEqual(pow2(4096));
  });

  it('conc and sbk fill query.load, round-trip through the URL, and the engine answers with that backend and a frontier', () => {
    const s = serving({ conc: 64, sbk: 'trtllm' });
    const q = query(s);
    expect(q['load']).toEqual({ concurrency: 64, concurrencies: frontierConcurrencies(64), backend: 'trtllm' });
    const link = encodeState(s);
    for (const k of ['conc=64', 'sbk=trtllm']) expect(link).toContain(k);
    expect(decodeState('?' + link).state).toEqual(s);
    const ev = askNowOf(engine)(scenarioOf(s)) as Evaluation<ServingResult>;
    expect(ev.ok, JSON.stringify(ev.diagnostics)).toBe(true);
    const load = ev.result!.load!;
    expect([load.concurrency, load.backend?.id]).toEqual([64, 'trtllm']);
    expect(load.frontier!.map((p) => p.concurrency)).toEqual(frontierConcurrencies(64).slice(0, load.frontier!.length));
    expect(query(serving({ conc: 64 }))['load']).toEqual({ concurrency: 64, concurrencies: frontierConcurrencies(64) }); // no backend: the kernels' step
  });

  it('adt runs the GEMMs in fp8 (W8A8): the query carries dtypes.activations only when it is set past bf16', () => {
    expect((query(serving())['dtypes'] as Record<string, unknown>)['activations']).toBeUndefined();
    const s = serving({ wdt: 'fp8', kvdt: 'fp8', adt: 'fp8', conc: 8, sbk: 'trtllm' });
    expect(query(s)['dtypes']).toEqual({ weights: 'fp8', kv: 'fp8', activations: 'fp8' });
    const w8a8 = askNowOf(engine)(scenarioOf(s)) as Evaluation<ServingResult>;
    const w8a16 = askNowOf(engine)(
      scenarioOf(serving({ wdt: 'fp8', kvdt: 'fp8', conc: 8, sbk: 'trtllm' })),
    ) as Evaluation<ServingResult>;
    expect([w8a8.ok, w8a16.ok]).toEqual([true, true]);
    expect(w8a8.result!.dtypes.activations).toBe('fp8');
    // FP8 GEMMs prefill faster than bf16 ones reading fp8 weights.
    expect(w8a8.result!.load!.prefill_group_s).toBeLessThan(w8a16.result!.load!.prefill_group_s);
  });

  it('a link with a serving engine the engine does not have falls back with a notice', () => {
    const d = decodeState('?v=1&mode=serving&conc=64&sbk=tgi');
    expect(d.state.values['sbk']).toBeNull();
    expect(d.state.values['conc']).toBe(64);
    expect(d.notices).toEqual([
      `Ignored Serving engine (under load) = “tgi”: expected one of ${PRESETS.serving_backends.map((b) => b.id).join(', ')}. Using the default.`,
    ]);
  });

  it('the scaling chart’s variants leave the load out; the book’s fidelity drops the backend the engine would refuse there', () => {
    const s = serving({ conc: 64, sbk: 'trtllm' });
    const variants = scalingDegrees(s);
    const meshes = variants.map(({ deg }) => meshFor(s, askNowOf(engine), deg));
    for (const p of scalingScenarios(s, variants, meshes))
      expect((p.scenario.query as unknown as Record<string, unknown>)['load']).toBeUndefined();
    const sc = scenarioOf(s);
    const refused = askNowOf(engine)({ ...sc, query: { ...sc.query, fidelity: 'book' } });
    expect(refused.diagnostics.map((d) => d.code)).toContain('needs_calibrated');
    const book = atBookFidelity(sc);
    expect((book.query as unknown as { load: unknown }).load).toEqual({
      concurrency: 64,
      concurrencies: frontierConcurrencies(64),
    });
    expect(askNowOf(engine)(book).ok).toBe(true);
  });

  it('sends no load in training mode', () => {
    const s = cloneState(defaultState());
    Object.assign(s.values, { conc: 64, sbk: 'trtllm' });
    expect(query(s)['load']).toBeUndefined();
  });
});
