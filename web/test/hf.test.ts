// A pasted Hugging Face config.json: the state keeps the file (minified, for the link), the engine reads it (wasm
// model_json), and the scenarios the page sends carry it as {"model": {"hf_config": ...}}, giving the same numbers
// as the preset of the same model.
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { EngineModule, ModelJson } from '../src/engine/types';
import { cloneState, defaultState, MAX_HF_CONFIG_CHARS } from '../src/state/params';
import { hfPreset, minifyConfig, rememberHfModel } from '../src/state/hf';
import { mainScenario, meshFor } from '../src/state/scenario';
import { decodeState, encodeState } from '../src/state/url';
import { loadEngine, REPO } from './engine';

let engine: EngineModule;
beforeAll(async () => {
  engine = await loadEngine();
});

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
    expect(minifyConfig(JSON.stringify({ x: 'y'.repeat(MAX_HF_CONFIG_CHARS) }))).toMatchObject({ ok: false, problem: expect.stringContaining('at most') });
  });

  it('is read by the engine and gives the preset’s numbers', () => {
    const m = minifyConfig(config('meta-llama-3-70b.json'));
    if (!m.ok) throw new Error(m.problem);
    const s = cloneState(defaultState());
    s.values['hf'] = m.text;
    const answer = JSON.parse(engine.model_json(JSON.stringify({ hf_config: JSON.parse(m.text) }))) as ModelJson;
    expect(answer.ok).toBe(true);
    rememberHfModel(m.text, answer);
    expect(hfPreset(s)?.layers).toBe(80);
    const mesh = meshFor(s);
    if (!mesh.ok) throw new Error(mesh.problem);
    const sc = mainScenario(s, mesh.plan);
    expect(sc.model).toEqual({ hf_config: JSON.parse(m.text) });
    const viaHf = JSON.parse(engine.evaluate(JSON.stringify(sc)));
    const viaPreset = JSON.parse(engine.evaluate(JSON.stringify(mainScenario(defaultState(), mesh.plan))));
    expect(viaHf.ok).toBe(true);
    expect(viaHf.result).toEqual(viaPreset.result);
  });

  it('names an unknown key through the engine', () => {
    const c = JSON.parse(config('mistral-7b-v0.1.json')) as Record<string, unknown>;
    c['rope_wobble'] = 3;
    const answer = JSON.parse(engine.model_json(JSON.stringify({ hf_config: c }))) as ModelJson;
    expect(answer.ok).toBe(false);
    expect(answer.diagnostics).toEqual([expect.objectContaining({ code: 'unknown_key', path: '/model/hf_config/rope_wobble' })]);
  });
});
