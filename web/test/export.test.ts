// Taking a result away: CSV rows with the unit each key names, and a CLI command that survives shell quoting.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliCommand, resultCsv, unitOf } from '../src/state/export';
import { REPO } from './engine';

describe('export', () => {
  it('names units from keys', () => {
    expect(unitOf('step_s')).toBe('s');
    expect(unitOf('total_bytes')).toBe('B');
    expect(unitOf('hbm_bandwidth_bytes_per_s')).toBe('B/s');
    expect(unitOf('mfu_frac')).toBe('fraction');
    expect(unitOf('train_usd')).toBe('USD');
    expect(unitOf('usd_per_hour')).toBe('USD/h');
    expect(unitOf('peak_flops_per_s')).toBe('FLOP/s');
    expect(unitOf('tokens_per_s')).toBe('1/s');
    expect(unitOf('bound')).toBe('');
  });

  it('flattens a result into path,value,unit rows (quoting commas)', () => {
    const csv = resultCsv({ time: { step_s: 2.5, bound: 'compute' }, memory: { fits: true, total_bytes: 3e9 }, note: 'a, "b"', thresholds: [{ name: 'x', margin: 1.5 }] });
    expect(csv.split('\n')).toEqual([
      'path,value,unit', '/time/step_s,2.5,s', '/time/bound,compute,', '/memory/fits,true,', '/memory/total_bytes,3000000000,B',
      '/note,"a, ""b""",', '/thresholds/0/name,x,', '/thresholds/0/margin,1.5,', '',
    ]);
  });

  it('prints a command the CLI runs as is, quotes and all', () => {
    const cli = path.join(REPO, 'build/release/scalescope');
    if (!fs.existsSync(cli)) throw new Error(`${cli} is missing: build the release preset first`);
    const scenario = { hardware: { preset: 'tpu-v5e' }, query: { kind: 'chip' as const } };
    const cmd = cliCommand({ ...scenario, model: { hf_config: { _name_or_path: "it's" } } } as never, '--table');
    expect(cmd).toContain(`'\\''`);
    const out = spawnSync('bash', ['-c', cmd.replace('build/release/scalescope', cli).replace(' --table -', ' -')], { encoding: 'utf8' }).stdout;
    expect(JSON.parse(out).ok).toBe(false); // the odd model object is the engine's to reject: the text arrived intact
    expect(out).toContain('hf_config');
  });
});
