// A calibration profile of the reader's own (src/state/profile.ts): its fingerprint, the profile taken from a
// calibrate result, the text kept in the browser (a few, most recently used first), the `cal` reference in the URL
// (hostile values dropped with a notice), and every calibrated query carrying it to the engine, which checks it.
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Diagnostic, EngineModule, Scenario } from '../src/engine/types';
import { hardwarePreset } from '../src/state/params';
import {
  MAX_PROFILE_CHARS,
  MAX_STORED_PROFILES,
  PROFILE_STORE_KEY,
  calibrationOf,
  fingerprint,
  keepProfile,
  unusedProfileNotice,
  profileFormatProblem,
  profileRef,
  readProfile,
  useProfileStore,
  type TextStore,
} from '../src/state/profile';
import { atBookFidelity, mainScenario, meshFor, servingSearchScenario } from '../src/state/scenario';
import { decodeState, encodeState } from '../src/state/url';
import { loadEngine, REPO, askNowOf, searchScenarioOf } from './engine';
import { stateWith } from './state';

const shipped = (id: string): Record<string, unknown> =>
  JSON.parse(fs.readFileSync(path.join(REPO, 'calibration_profiles', `${id}.json`), 'utf8'));
/** A profile of format 1 (scalescope.calibration/1, before the kernel models): examples/calibration's as it was. */
const FORMAT_1 = fs.readFileSync(path.join(__dirname, 'fixtures', 'profile-format-1.json'), 'utf8');
const H100 = hardwarePreset('h100-sxm');

/** A store like localStorage, in memory. */
class MemoryStore implements TextStore {
  readonly items = new Map<string, string>();
  getItem(k: string): string | null {
    return this.items.get(k) ?? null;
  }
  setItem(k: string, v: string): void {
    this.items.set(k, v);
  }
}

let engine: EngineModule;
beforeAll(async () => {
  engine = await loadEngine();
});
/** The page's own instance, as the loader asks it (it chooses a calibrate result's profile). */
const ask = (scenario: Scenario) => askNowOf(engine)(scenario);

let mem: MemoryStore;
beforeEach(() => {
  mem = new MemoryStore();
  useProfileStore(mem);
});

/** A profile read as the loader reads it; fails the test if the page refuses it. */
function read(v: unknown, hw = H100): { text: string; ref: string; id: string; note: string } {
  const r = readProfile(JSON.stringify(v), hw, ask);
  if (!r.ok) throw new Error(r.problem);
  return r;
}

describe('the fingerprint', () => {
  it('is 32-bit FNV-1a of the UTF-8 bytes, 8 hex digits', () => {
    expect(fingerprint('')).toBe('811c9dc5');
    expect(fingerprint('a')).toBe('e40c292c');
    expect(fingerprint('foobar')).toBe('bf9cf968');
  });

  it('does not depend on how the file was laid out, and the kept text is ASCII', () => {
    const p = { ...shipped('h100-sxm'), id: 'mine', source: 'Grüße from the cluster 🚀' };
    const pretty = readProfile(JSON.stringify(p, null, 2), H100, ask);
    const flat = readProfile(JSON.stringify(p), H100, ask);
    expect(pretty.ok && flat.ok).toBe(true);
    if (!pretty.ok || !flat.ok) return;
    expect(pretty.text).toBe(flat.text);
    expect(pretty.ref).toBe(`mine~${fingerprint(flat.text)}`);
    expect(pretty.text).toMatch(/^[\x20-\x7e]+$/);
    expect(JSON.parse(pretty.text).source).toBe(p.source);
  });

  it('goes with an id cut to URL-safe characters', () => {
    expect(profileRef('my cluster/h100 <v2>', '{}')).toBe(`my-cluster-h100-v2~${fingerprint('{}')}`);
    expect(profileRef('', '{}')).toBe(`profile~${fingerprint('{}')}`);
    expect(profileRef('x'.repeat(100), '{}').split('~')[0]).toHaveLength(48);
  });
});

describe('a calibrate result', () => {
  const family = { ...shipped('gpu'), id: 'gpu-mine' };
  const chip = { ...shipped('h100-sxm'), id: 'h100-mine' };
  const result = { profiles: [family, chip], fits: [], runs: [] };

  const problem = (v: unknown, hw = H100): string => {
    const r = readProfile(JSON.stringify(v), hw, ask);
    return r.ok ? '' : r.problem;
  };

  it('gives the profile that lists the chip (the engine chooses: the profile query)', () => {
    const p = read(result);
    expect(p.id).toBe('h100-mine');
    expect(p.note).toBe("Took 'h100-mine' of the 2 in this calibrate result: the one for NVIDIA H100 SXM.");
  });

  it('else the family profile of the chip’s kind', () => {
    const p = read(result, hardwarePreset('h200'));
    expect(p.id).toBe('gpu-mine');
    expect(p.note).toContain('GPU family');
  });

  it('says so when nothing in it fits the chip, or one of its profiles is wrong', () => {
    expect(problem(result, hardwarePreset('tpu-v5p'))).toMatch(
      /no profile for .*tpu-v5p.* and no TPU family profile.*'gpu-mine', 'h100-mine'/,
    );
    expect(problem({ profiles: [] })).toContain('it has no profiles');
    expect(problem({ profiles: [family, { ...chip, kind: 'npu' }] })).toMatch(/^\/profiles\/1\/kind: /);
  });

  it('is read whole as the CLI prints it, {"ok": …, "result": {"profiles": …}}', () => {
    expect(read({ ok: true, diagnostics: [], result }).id).toBe('h100-mine');
  });

  it('of format 2 as the CLI writes it (examples/calibration), whole or as its profile', () => {
    const mine = JSON.parse(
      fs.readFileSync(path.join(REPO, 'examples/calibration/my-cluster-h100-sxm.json'), 'utf8'),
    ) as Record<string, unknown>;
    expect(mine['schema']).toBe('scalescope.calibration/2');
    const bare = read(mine);
    expect(JSON.parse(bare.text)).toEqual(mine);
    const family = JSON.parse(
      fs.readFileSync(path.join(REPO, 'examples/calibration/my-cluster-gpu.json'), 'utf8'),
    ) as Record<string, unknown>;
    const whole = read({
      ok: true,
      diagnostics: [],
      query: 'calibrate',
      result: { profiles: [family, mine], fits: [], runs: [], summary: [] },
    });
    expect(whole.text).toBe(bare.text);
    expect(read({ profiles: [family, mine] }, hardwarePreset('b200')).id).toBe('my-cluster-gpu');
  });

  it('a bare profile is used as it is, whatever it says (the engine judges it where it is used)', () => {
    const odd = read({ id: 'odd', kind: 'tpu' });
    expect(odd.id).toBe('odd');
    expect(odd.note).toBe('');
  });
});

describe('what the page refuses itself', () => {
  const problem = (text: string): string => {
    const r = readProfile(text, H100, ask);
    return r.ok ? '' : r.problem;
  };
  it('text that is not one JSON object', () => {
    expect(problem('{"id": ')).toMatch(/^This is not JSON/);
    expect(problem('[1, 2]')).toMatch(/one JSON object/);
    expect(problem('"h100"')).toMatch(/one JSON object/);
  });
  it('a profile too long to keep, or with broken Unicode', () => {
    expect(problem(JSON.stringify({ id: 'big', notes: 'x'.repeat(MAX_PROFILE_CHARS) }))).toMatch(/at most 65536/);
    expect(problem('{"id": "\\ud800"}')).toMatch(/not valid Unicode/);
  });
});

describe('profiles kept in the browser', () => {
  it('are found by the reference, most recently used first, at most a few', () => {
    const refs: string[] = [];
    for (let i = 0; i < MAX_STORED_PROFILES + 1; i++) {
      const r = read({ id: `p${i}`, parameters: {} });
      expect(keepProfile(r.text)).toBe(true);
      refs.push(r.ref);
    }
    const kept = JSON.parse(mem.getItem(PROFILE_STORE_KEY)!) as [string, string][];
    expect(kept).toHaveLength(MAX_STORED_PROFILES);
    expect(kept[0]![0]).toBe(refs.at(-1)!.split('~')[1]); // the newest first, the oldest dropped
    useProfileStore(mem); // a new page
    expect(calibrationOf(stateWith({ cal: refs[0] }))).toBeUndefined();
    expect(calibrationOf(stateWith({ cal: refs[1] }))).toEqual({ id: 'p1', parameters: {} });
    expect((JSON.parse(mem.getItem(PROFILE_STORE_KEY)!) as [string, string][])[0]![0]).toBe(refs[1]!.split('~')[1]); // opening it was a use
  });

  it('ignore what does not check out, and work for the page when storage fails', () => {
    const r = read({ id: 'mine', parameters: {} });
    mem.setItem(PROFILE_STORE_KEY, JSON.stringify([[r.ref.split('~')[1], '{"id":"forged"}'], 7, 'x']));
    expect(calibrationOf(stateWith({ cal: r.ref }))).toBeUndefined();
    mem.setItem(PROFILE_STORE_KEY, '{not json');
    useProfileStore(mem);
    expect(calibrationOf(stateWith({ cal: r.ref }))).toBeUndefined();
    useProfileStore({
      getItem: () => {
        throw new Error('denied');
      },
      setItem: () => {
        throw new Error('quota');
      },
    });
    expect(keepProfile(r.text)).toBe(false);
    expect(calibrationOf(stateWith({ cal: r.ref }))).toEqual({ id: 'mine', parameters: {} });
  });
});

describe('the cal parameter', () => {
  it('round-trips through the URL and names the profile', () => {
    const r = read({ ...shipped('h100-sxm'), id: 'my-cluster' });
    const s = stateWith({ hw: 'h100-sxm', cal: r.ref });
    const q = encodeState(s);
    expect(q).toContain(new URLSearchParams({ cal: r.ref }).toString()); // cal=my-cluster%7E…: the codec encodes the ~
    expect(decodeState('?' + q)).toEqual({ state: s, notices: [] });
  });

  it('drops a hostile or malformed value with a notice', () => {
    for (const bad of [
      '<script>alert(1)</script>~12345678',
      'my-cluster~ZZZZZZZZ',
      'my-cluster~1234567',
      '~12345678',
      'my cluster~12345678',
      `${'a'.repeat(49)}~12345678`,
      'a~12345678~12345678',
    ]) {
      const d = decodeState(`?v=1&cal=${encodeURIComponent(bad)}`);
      expect(d.state.values['cal'], bad).toBe('');
      expect(d.notices, bad).toHaveLength(1);
      expect(d.notices[0], bad).toMatch(/^Ignored Calibration profile = “.*”: expected text like my-cluster~1a2b3c4d/);
    }
  });

  it('that this browser does not have: the shipped profile, and a notice that says how to get it back', () => {
    const s = stateWith({ hw: 'h100-sxm', cal: 'my-cluster~0badf00d' });
    expect(calibrationOf(s)).toBeUndefined();
    expect(unusedProfileNotice(s)).toMatch(
      /^This link used calibration profile 'my-cluster' \(fingerprint 0badf00d\), which this browser has not loaded: the calibrated numbers shown use the shipped profile\. .*load that profile file.*same fingerprint restores it/,
    );
    const m = meshFor(s, askNowOf(engine));
    if (!m.ok) throw new Error(m.problem);
    expect(mainScenario(s, m.plan).query).not.toHaveProperty('calibration');
    expect(unusedProfileNotice(stateWith({}))).toBeNull();
  });
});

describe('calibrated queries', () => {
  const mine: Record<string, unknown> = { ...shipped('h100-sxm'), id: 'my-cluster', source: 'five runs on our H100s' };

  it('every one carries the loaded profile; the book’s fidelity none', () => {
    const r = read(mine);
    keepProfile(r.text);
    const training = stateWith({ hw: 'h100-sxm', fsdp: 8, tp: 8, cal: r.ref });
    const serving = stateWith({ hw: 'h100-sxm', mode: 'serving', tp: 8, cal: r.ref });
    for (const s of [training, serving]) {
      const m = meshFor(s, askNowOf(engine));
      if (!m.ok) throw new Error(m.problem);
      const main = mainScenario(s, m.plan);
      expect(main.query).toHaveProperty('calibration', JSON.parse(r.text));
      const { calibration: _profile, ...rest } = main.query as { calibration?: unknown };
      expect(atBookFidelity(main).query).toEqual({ ...rest, fidelity: 'book' });
    }
    expect(searchScenarioOf(engine, training)?.query).toHaveProperty('calibration.id', 'my-cluster');
    expect(servingSearchScenario(serving)?.query).toHaveProperty('calibration.id', 'my-cluster');
  });

  it('is used only on chips of its kind: a GPU profile with TPU7x falls back to the shipped one and says so (issue 41)', () => {
    const r = read(mine);
    keepProfile(r.text);
    const tpu = stateWith({ hw: 'tpu7x', cal: r.ref });
    expect(calibrationOf(tpu)).toBeDefined(); // still loaded: choosing a GPU again uses it
    const m = meshFor(tpu, askNowOf(engine));
    if (!m.ok) throw new Error(m.problem);
    const main = mainScenario(tpu, m.plan);
    expect(main.query).not.toHaveProperty('calibration');
    expect(JSON.parse(engine.evaluate(JSON.stringify(main))).ok).toBe(true);
    expect(unusedProfileNotice(tpu)).toMatch(
      /^Calibration profile 'my-cluster' is for GPUs, and TPU7x .* is a TPU: the calibrated numbers shown use the shipped profile\./,
    );
    expect(unusedProfileNotice(stateWith({ hw: 'b200', cal: r.ref }))).toBeNull();
  });

  it('a runs file is named as one, with how to fit it, not read as a profile (issue 41)', () => {
    const runs = readProfile(
      JSON.stringify({ runs: [{ id: 'a', task: 'training', metric: 'step_s', measured: 1, scenario: {} }] }),
      H100,
      ask,
    );
    expect(runs.ok).toBe(false);
    if (!runs.ok) expect(runs.problem).toMatch(/^This is a runs file .*scalescope calibrate FILE --write DIR/);
  });

  /** The main scenario's answer with the profile `r` (readProfile's), kept first. */
  function answerWith(r: { text: string; ref: string }): {
    ok: boolean;
    result?: { calibration: { profile: unknown } };
    diagnostics: Diagnostic[];
  } {
    keepProfile(r.text);
    const s = stateWith({ hw: 'h100-sxm', fsdp: 8, tp: 8, cal: r.ref });
    const m = meshFor(s, askNowOf(engine));
    if (!m.ok) throw new Error(m.problem);
    return JSON.parse(engine.evaluate(JSON.stringify(mainScenario(s, m.plan))));
  }

  it('the engine uses it and names it; a bad parameter is its diagnostic, under /query/calibration', () => {
    const ok = answerWith(read(mine));
    expect(ok.result!.calibration.profile).toMatchObject({ id: 'my-cluster', source: 'five runs on our H100s' });
    const bad = answerWith(read({ ...mine, parameters: { ...(mine['parameters'] as object), overlap_frac: 7 } }));
    expect(bad.ok).toBe(false);
    expect(bad.diagnostics).toContainEqual(
      expect.objectContaining({ path: '/query/calibration/parameters/overlap_frac', severity: 'error' }),
    );
    expect(profileFormatProblem(bad.diagnostics)).toBeNull();
    const s = stateWith({ hw: 'h100-sxm', fsdp: 8, tp: 8, cal: read(mine).ref });
    const m = meshFor(s, askNowOf(engine));
    if (!m.ok) throw new Error(m.problem);
    const book = JSON.parse(engine.evaluate(JSON.stringify(atBookFidelity(mainScenario(s, m.plan)))));
    expect(book.ok || book.diagnostics.every((d: { path: string }) => !d.path.startsWith('/query/calibration'))).toBe(
      true,
    );
  });

  it('its kernel models are checked constant by constant; the end-to-end parameters of format 1 are unknown keys', () => {
    const kernels = mine['kernels'] as { gemm: Record<string, object> };
    const slow = answerWith(
      read({
        ...mine,
        kernels: { ...kernels, gemm: { ...kernels.gemm, bf16: { ...kernels.gemm['bf16'], ceiling_frac: 3 } } },
      }),
    );
    expect(slow.ok).toBe(false);
    expect(slow.diagnostics).toContainEqual(
      expect.objectContaining({ path: '/query/calibration/kernels/gemm/bf16/ceiling_frac', severity: 'error' }),
    );
    const old = answerWith(read({ ...mine, parameters: { ...(mine['parameters'] as object), matmul_frac: 0.8 } }));
    expect(old.diagnostics).toContainEqual(
      expect.objectContaining({ path: '/query/calibration/parameters/matmul_frac', code: 'unknown_key' }),
    );
  });

  it('a profile of format 1 is the engine’s unsupported_version, whose message the loader shows on its own', () => {
    const r = readProfile(FORMAT_1, H100, ask);
    if (!r.ok) throw new Error(r.problem); // the page keeps it: the engine judges it
    const no = answerWith(r);
    expect(no.ok).toBe(false);
    expect(no.diagnostics).toEqual([
      expect.objectContaining({ path: '/query/calibration/schema', code: 'unsupported_version', severity: 'error' }),
    ]);
    expect(profileFormatProblem(no.diagnostics)).toBe(no.diagnostics[0]!.message);
    expect(profileFormatProblem(no.diagnostics)).toMatch(/scalescope\.calibration\/1.*scalescope calibrate/);
    expect(profileFormatProblem([{ ...no.diagnostics[0]!, path: '/runs/0/schema' }])).toBeNull(); // another document's
  });
});
