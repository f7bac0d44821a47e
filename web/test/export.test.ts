// Taking a result away: RFC 4180 CSV with the inputs first (the non-default parameters of the one table, the chip,
// model, fidelity and profile the engine used), rows with the unit each key names, JSON with the scenario and the URL
// state, and a CLI command that survives shell quoting.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { EngineModule, Evaluation, Scenario } from '../src/engine/types';
import { csvCell, csvText } from '../src/state/csv';
import { cliCommand, resultBlock, resultCsv, resultJson } from '../src/state/export';
import { inputRows, inputsBlock } from '../src/state/inputs';
import { PARAM_BY_KEY, defaultState } from '../src/state/params';
import { mainScenario, meshFor } from '../src/state/scenario';
import { RESULT_UNITS } from '../src/state/result-units';
import { unitOf } from '../src/state/units';
import { encodeState } from '../src/state/url';
import { REPO, loadEngine, askNowOf } from './engine';
import { stateWith } from './state';
import { parseCsv } from './csv';

let engine: EngineModule;
beforeAll(async () => {
  engine = await loadEngine();
});

const answer = (sc: Scenario): Evaluation<unknown> =>
  JSON.parse(engine.evaluate(JSON.stringify(sc))) as Evaluation<unknown>;

describe('csv', () => {
  it('quotes commas, quotes and line breaks (RFC 4180) and keeps non-ASCII text as it is', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a, "b"')).toBe('"a, ""b"""');
    expect(csvCell('line\nbreak')).toBe('"line\nbreak"');
    expect(csvCell('Llama 3 — “70B”, µs')).toBe('"Llama 3 — “70B”, µs"');
    expect(csvCell('naïve')).toBe('naïve');
    expect(csvCell(2.5)).toBe('2.5');
    expect(csvCell(false)).toBe('false');
    expect(csvCell(null)).toBe('');
    const text = csvText([
      { header: ['a', 'b', 'c'], rows: [['x, "y"', 'ü', '']] },
      { header: ['d', 'e'], rows: [[1, true]] },
    ]);
    expect(text).toBe('a,b,c\r\n"x, ""y""",ü,\r\n,,\r\nd,e,\r\n1,true,\r\n');
    expect(parseCsv(text)).toEqual([
      ['a', 'b', 'c'],
      ['x, "y"', 'ü', ''],
      ['', '', ''],
      ['d', 'e', ''],
      ['1', 'true', ''],
    ]);
  });

  it('writes text a spreadsheet would run as a formula after a quote, and leaves numbers alone (OWASP CSV Injection)', () => {
    expect(csvCell('=HYPERLINK("http://x","y")')).toBe(`"'=HYPERLINK(""http://x"",""y"")"`);
    expect(csvCell('+cmd')).toBe("'+cmd");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('\tlabel')).toBe("'\tlabel");
    expect(csvCell('-5')).toBe('-5'); // a negative number given as text stays a number
    expect(csvCell('-1e-3')).toBe('-1e-3');
    expect(csvCell(-2.5)).toBe('-2.5');
    expect(csvCell('-x')).toBe("'-x");
    expect(csvCell('a=b')).toBe('a=b'); // only a leading sign runs
    // Issue 41: a semicolon splits a field in semicolon-locale spreadsheets, whose next piece would run; spaces
    // before the sign are trimmed by some.
    expect(csvCell("x;=cmd|' /C calc'!A0;")).toBe(`"x;=cmd|' /C calc'!A0;"`);
    expect(parseCsv(csvText([{ header: ['a'], rows: [["x;=cmd|' /C calc'!A0;"]] }]))[1]).toEqual([
      "x;=cmd|' /C calc'!A0;",
    ]);
    expect(csvCell(' =1+1')).toBe("' =1+1");
    expect(csvCell('\u00a0@SUM(A1)')).toBe("'\u00a0@SUM(A1)");
    expect(csvCell(' -5')).toBe(' -5'); // still a number
  });

  it('an input whose value holds commas and quotes (a pasted config.json) reads back exactly', () => {
    const config = '{"model_type":"llama","hidden_size":4096,"num_hidden_layers":32}';
    const s = stateWith({ hf: config });
    const m = meshFor(stateWith({}), askNowOf(engine)); // the degrees' mesh: the partial config is no model to ask with
    if (!m.ok) throw new Error(m.problem);
    const rows = parseCsv(csvText([inputsBlock(inputRows(s, mainScenario(s, m.plan), {}))]));
    expect(rows.find((r) => r[0] === 'hf')).toEqual(['hf', PARAM_BY_KEY.get('hf')!.label, config, '']);
    expect(rows.find((r) => r[0] === 'engine.model')?.[2]).toMatch(/\(pasted config\.json\)$/);
  });
});

describe('export', () => {
  it('names units from keys', () => {
    expect(unitOf('step_s')).toBe('s');
    expect(unitOf('total_bytes')).toBe('B');
    expect(unitOf('hbm_bandwidth_bytes_per_s')).toBe('B/s');
    expect(unitOf('mfu_frac')).toBe('fraction');
    expect(unitOf('train_usd')).toBe('USD');
    expect(unitOf('usd_per_hour')).toBe('USD/h');
    expect(unitOf('peak_flops_per_s')).toBe('FLOP/s');
    expect(unitOf('tokens_per_s')).toBe(''); // a result's key: the schema names its unit (tokens/s, below)
    expect(unitOf('bound')).toBe('');
  });

  it("flattens a result into path,value,unit rows (quoting commas), each unit the schema's", () => {
    const csv = csvText([
      resultBlock({
        time: { step_s: 2.5, bound: 'compute' },
        memory: { fits: true, total_bytes: 3e9 },
        note: 'a, "b"',
        thresholds: [{ name: 'x', margin: 1.5 }],
        tokens_per_s: 1200,
        peak_flops_per_s: { bf16: 9.89e14 },
      }),
    ]);
    expect(csv.split('\r\n')).toEqual([
      'path,value,unit',
      '/time/step_s,2.5,s',
      '/time/bound,compute,',
      '/memory/fits,true,',
      '/memory/total_bytes,3000000000,bytes',
      '/note,"a, ""b""",',
      '/thresholds/0/name,x,',
      '/thresholds/0/margin,1.5,',
      // Issue 39: the page wrote "1/s" here; the schema says tokens/s. A record's entries take the record's unit.
      '/tokens_per_s,1200,tokens/s',
      '/peak_flops_per_s/bf16,989000000000000,FLOP/s',
      '',
    ]);
    // Every unit the CSV can write is the schema's (schema/results: the CLI's --table view reads the same table).
    const shared = JSON.parse(fs.readFileSync(path.join(REPO, 'schema/results/shared.schema.json'), 'utf8')) as {
      $defs: Record<string, { properties?: Record<string, { 'x-unit'?: string }> }>;
    };
    for (const def of Object.values(shared.$defs))
      for (const [k, p] of Object.entries(def.properties ?? {}))
        if (p['x-unit'] !== undefined) expect(RESULT_UNITS[k], k).toBe(p['x-unit']);
  });

  it('the CSV starts with its inputs: what the engine used, then every non-default parameter with its label and unit', () => {
    const s = stateWith({ hw: 'h100-sxm', fsdp: 64, tp: 4, batch: 2097152, eff_flops: 0.6, remat: 'none', sbatch: 64 });
    s.hw['hbm_capacity_bytes'] = 96e9;
    const m = meshFor(s, askNowOf(engine));
    if (!m.ok) throw new Error(m.problem);
    const sc = mainScenario(s, m.plan);
    const ev = answer(sc);
    expect(ev.diagnostics.filter((d) => d.severity !== 'warning')).toEqual([]);
    const rows = parseCsv(resultCsv(s, sc, ev));
    const end = rows.findIndex((r) => r.every((x) => x === ''));
    const inputs = rows.slice(0, end);
    expect(inputs[0]).toEqual(['input', 'label', 'value', 'unit']);
    const byKey = new Map(inputs.slice(1).map((r) => [r[0], r]));
    expect(byKey.get('engine.chip')?.[2]).toMatch(/H100.*\(h100-sxm\)/);
    expect(byKey.get('engine.model')?.[2]).toMatch(/\(llama-3-70b\)$/);
    expect(byKey.get('engine.fidelity')?.[2]).toBe((ev.result as { fidelity?: string }).fidelity ?? 'book');
    expect(byKey.get('engine.calibration_profile')?.[2]).toBe(
      (ev.result as { calibration?: { profile: { id: string } } }).calibration?.profile.id ?? 'none',
    );
    // Each non-default row of the table, with the table's own label and unit; the serving batch is not a training input.
    for (const [key, value] of [
      ['hw', 'h100-sxm'],
      ['fsdp', '64'],
      ['tp', '4'],
      ['batch', '2097152'],
      ['eff_flops', '0.6'],
      ['remat', 'none'],
    ] as const) {
      const p = PARAM_BY_KEY.get(key)!;
      expect(byKey.get(key), key).toEqual([key, p.label, value, p.unit]);
    }
    expect(byKey.has('sbatch')).toBe(false);
    expect(byKey.has('seq')).toBe(false); // at its default
    expect(byKey.get('hw.hbm_capacity_bytes')?.slice(2)).toEqual(['96000000000', 'B']);
    // Then the results as before, under their own header.
    expect(rows[end + 1]).toEqual(['path', 'value', 'unit', '']);
    const step = rows.find((r) => r[0] === '/time/step_s')!;
    expect(Number(step[1])).toBe((ev.result as { time: { step_s: number } }).time.step_s);
    expect(step[2]).toBe('s');
    expect(new Set(rows.map((r) => r.length))).toEqual(new Set([4])); // every record has the same field count
  });

  it('the default state lists only what the engine used', () => {
    const s = defaultState();
    const m = meshFor(s, askNowOf(engine));
    if (!m.ok) throw new Error(m.problem);
    const sc = mainScenario(s, m.plan);
    expect(inputRows(s, sc, {}).map((r) => r.key)).toEqual([
      'engine.chip',
      'engine.model',
      'engine.fidelity',
      'engine.calibration_profile',
    ]);
  });

  it('the JSON carries the scenario sent, the URL state and the inputs beside the answer', () => {
    const s = stateWith({ tp: 4, fsdp: 512 });
    const m = meshFor(s, askNowOf(engine));
    if (!m.ok) throw new Error(m.problem);
    const sc = mainScenario(s, m.plan);
    const ev = answer(sc);
    const j = JSON.parse(resultJson(s, sc, ev)) as {
      scenario: Scenario;
      url_state: string;
      inputs: { key: string; value: unknown }[];
      answer: Evaluation<unknown>;
    };
    expect(j.scenario).toEqual(sc);
    expect(j.url_state).toBe(encodeState(s));
    expect(j.url_state).toContain('tp=4');
    expect(j.inputs.find((r) => r.key === 'tp')?.value).toBe(4);
    expect(j.answer).toEqual(ev);
  });

  it('prints a command the CLI runs as is, quotes and all', () => {
    const cli = path.join(REPO, 'build/release/scalescope');
    if (!fs.existsSync(cli)) throw new Error(`${cli} is missing: build the release preset first`);
    const scenario = { hardware: { preset: 'tpu-v5e' }, query: { kind: 'chip' as const } };
    const cmd = cliCommand({ ...scenario, model: { hf_config: { _name_or_path: "it's" } } } as never, '--table');
    expect(cmd).toContain(`'\\''`);
    const out = spawnSync('bash', ['-c', cmd.replace('build/release/scalescope', cli).replace(' --table -', ' -')], {
      encoding: 'utf8',
    }).stdout;
    expect(JSON.parse(out).ok).toBe(false); // the odd model object is the engine's to reject: the text arrived intact
    expect(out).toContain('hf_config');
  });
});
