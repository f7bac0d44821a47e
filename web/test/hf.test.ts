// A pasted Hugging Face config.json: the state keeps the file (minified, for the link), the launch module reads it
// (the `model` query; the explorer's first-load module has no reader), and the scenarios the page sends carry the
// model it read, inline, giving the same numbers on the first-load module as the preset of the same model.
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { EngineModule, Evaluation, ModelJson, ModelResult } from '../src/engine/types';
import { cloneState, defaultState, MAX_HF_CONFIG_CHARS } from '../src/state/params';
import { configModelScenario, modelJsonOf } from '../src/engine/launch-client';
import { hfPreset, minifyConfig, rememberHfModel, withConfigDiagnostics } from '../src/state/hf';
import { mainScenario, meshFor, transformerScenario } from '../src/state/scenario';
import { decodeState, encodeState } from '../src/state/url';
import { loadEngine, REPO, askNowOf } from './engine';

let engine: EngineModule;
let reader: EngineModule;
beforeAll(async () => {
  engine = await loadEngine();
  reader = await loadEngine('scalescope_launch');
});

/** What the page's launch worker answers about a config.json (engine/launch-client.ts readConfigJson). */
const read = (hf: Record<string, unknown>): ModelJson =>
  modelJsonOf(JSON.parse(reader.evaluate(JSON.stringify(configModelScenario(hf)))) as Evaluation<ModelResult>);

const config = (f: string): string => fs.readFileSync(path.join(REPO, 'tests/hf_configs', f), 'utf8');

describe('a pasted config.json', () => {
  it('is kept minified, fits a link, and round-trips through the URL', () => {
    const m = minifyConfig(config('meta-llama-3-70b.json'));
    if (!m.ok) throw new Error(m.problem);
    const s = cloneState(defaultState());
    s.values['hf'] = m.text;
    const back = decodeState(encodeState(s));
    expect(back.notices).toEqual([]);
    expect(back.state.values['hf']).toBe(m.text);
  });

  it('is refused in words when it is not one JSON object or too long for a link', () => {
    expect(minifyConfig('{"a": ')).toMatchObject({ ok: false });
    expect(minifyConfig('[1, 2]')).toMatchObject({ ok: false, problem: expect.stringContaining('one JSON object') });
    expect(minifyConfig(JSON.stringify({ x: 'y'.repeat(MAX_HF_CONFIG_CHARS) }))).toMatchObject({
      ok: false,
      problem: expect.stringContaining('at most'),
    });
  });

  it('is read by the engine and gives the preset’s numbers', () => {
    const m = minifyConfig(config('meta-llama-3-70b.json'));
    if (!m.ok) throw new Error(m.problem);
    const s = cloneState(defaultState());
    s.values['hf'] = m.text;
    // Before it is read, a scenario carries the file, which the first-load module says it cannot read.
    const unread = JSON.parse(engine.evaluate(JSON.stringify(transformerScenario(s))));
    expect(unread.diagnostics).toEqual([
      expect.objectContaining({
        code: 'not_in_module',
        path: '/model/hf_config',
        message: expect.stringContaining('launch module'),
      }),
    ]);
    const answer = read(JSON.parse(m.text));
    expect(answer.ok).toBe(true);
    expect(answer).toEqual(JSON.parse(reader.model_json(JSON.stringify({ hf_config: JSON.parse(m.text) }))));
    rememberHfModel(m.text, answer);
    expect(hfPreset(s)?.layers).toBe(80);
    const mesh = meshFor(s, askNowOf(engine));
    if (!mesh.ok) throw new Error(mesh.problem);
    const sc = mainScenario(s, mesh.plan);
    expect(sc.model).toEqual(answer.model);
    const viaHf = JSON.parse(engine.evaluate(JSON.stringify(sc)));
    const viaPreset = JSON.parse(engine.evaluate(JSON.stringify(mainScenario(defaultState(), mesh.plan))));
    expect(viaHf.ok).toBe(true);
    expect(viaHf.result).toEqual(viaPreset.result);
  });

  // Each config.json with its preset (tests/unit/test_hf_config.cpp holds the shapes equal in the engine).
  const PAIRS: [string, string][] = [
    ['meta-llama-3.1-8b.json', 'llama-3-8b'],
    ['mixtral-8x7b-v0.1.json', 'mixtral-8x7b'],
    ['gemma-2-27b.json', 'gemma-2-27b'],
    ['gemma-3-27b-pt.json', 'gemma-3-27b'],
    ['deepseek-v3.json', 'deepseek-v3'],
    ['kimi-k2-instruct.json', 'kimi-k2'],
    ['qwen3-235b-a22b.json', 'qwen3-235b-a22b'],
    ['qwen3-30b-a3b.json', 'qwen3-30b-a3b'],
    ['gpt-oss-120b.json', 'gpt-oss-120b'],
    ['gpt-oss-20b.json', 'gpt-oss-20b'],
    ['llama-4-scout-17b-16e.json', 'llama-4-scout'],
    ['llama-4-maverick-17b-128e.json', 'llama-4-maverick'],
  ];
  it.each(PAIRS)(
    '%s: pasted, through a link, gives the training step and the facts of the %s preset picked',
    (file, preset) => {
      const m = minifyConfig(config(file));
      if (!m.ok) throw new Error(m.problem);
      const answer = read(JSON.parse(m.text));
      expect(answer.ok, JSON.stringify(answer.diagnostics)).toBe(true);
      rememberHfModel(m.text, answer);
      const picked = cloneState(defaultState());
      Object.assign(picked.values, { model: preset, tp: 1, fsdp: 2048 });
      const pasted = cloneState(picked);
      pasted.values['hf'] = m.text;
      const back = decodeState(encodeState(pasted));
      expect(back.notices).toEqual([]);
      const mesh = meshFor(back.state, askNowOf(engine));
      if (!mesh.ok) throw new Error(mesh.problem);
      const run = (sc: unknown) =>
        JSON.parse(engine.evaluate(JSON.stringify(sc))) as {
          ok: boolean;
          result: Record<string, unknown>;
          diagnostics: unknown[];
        };
      const viaHf = run(mainScenario(back.state, mesh.plan));
      const viaPreset = run(mainScenario(picked, mesh.plan));
      expect(viaPreset.ok, JSON.stringify(viaPreset.diagnostics)).toBe(true);
      expect(viaHf.ok, JSON.stringify(viaHf.diagnostics)).toBe(true);
      expect(viaHf.result['time']).toEqual(viaPreset.result['time']);
      expect(viaHf.result['memory']).toEqual(viaPreset.result['memory']);
      // The controls read the same model: the same layer kinds and the same degrees the sliders stop at.
      const t = (st: typeof picked) =>
        run(transformerScenario(st)).result as { layers: unknown; attention: unknown; params: unknown };
      expect(t(back.state).layers).toEqual(t(picked).layers);
      expect(t(back.state).attention).toEqual(t(picked).attention);
      expect(t(back.state).params).toEqual(t(picked).params);
      const SHAPE = ['layers', 'd_model', 'd_ff', 'expert_d_ff', 'heads', 'kv_heads', 'head_dim', 'vocab', 'experts'];
      const shape = (st: typeof picked) => {
        const m = (run(transformerScenario(st)).result as { model: Record<string, unknown> }).model;
        return SHAPE.map((k) => m[k]);
      };
      expect(shape(back.state)).toEqual(shape(picked));
    },
  );

  it('names an unknown key through the engine', () => {
    const c = JSON.parse(config('mistral-7b-v0.1.json')) as Record<string, unknown>;
    c['rope_wobble'] = 3;
    const answer = read(c);
    expect(answer.ok).toBe(false);
    expect(answer.diagnostics).toEqual([
      expect.objectContaining({ code: 'unknown_key', path: '/model/hf_config/rope_wobble' }),
    ]);
    // The page's numbers for it then say what the reader said, not that the first-load module reads no config.json.
    const text = JSON.stringify(c);
    rememberHfModel(text, answer);
    const s = cloneState(defaultState());
    s.values['hf'] = text;
    const numbers = JSON.parse(engine.evaluate(JSON.stringify(transformerScenario(s)))) as Evaluation<unknown>;
    expect(numbers.diagnostics.map((d) => d.code)).toEqual(['not_in_module']);
    expect(withConfigDiagnostics(numbers, s).diagnostics).toEqual(answer.diagnostics);
  });
});
