// The wasm module the site ships answers every golden case (tests/golden/*.json) with exactly the JSON the native
// build prints (build/release/golden_dump, one "file :: name :: result" line per case), and then the validation
// suite's calibrate and family-held-out validation (issue 22: the fits' exp and log give the same bits).
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import type { EngineModule } from '../src/engine/types';
import { REPO, loadEngine } from './engine';

const GOLDEN_DIR = path.join(REPO, 'tests/golden');
const DUMP = process.env['SCALESCOPE_GOLDEN_DUMP'] ?? path.join(REPO, 'build/release/golden_dump');

interface Case { name: string; scenario: unknown }
const files = fs.readdirSync(GOLDEN_DIR).filter((f) => f.endsWith('.json')).sort();
const cases: { file: string; c: Case }[] = files.flatMap((file) =>
  (JSON.parse(fs.readFileSync(path.join(GOLDEN_DIR, file), 'utf8')) as { cases: Case[] }).cases.map((c) => ({ file, c })),
);

// As tests/golden_dump.cpp builds them.
const RUNS = (JSON.parse(fs.readFileSync(path.join(REPO, 'tests/validation/published-runs.json'), 'utf8')) as { runs: unknown[] }).runs;
const CALIBRATION = [
  { name: 'calibrate', query: { kind: 'calibrate', runs: RUNS } },
  { name: 'validation with each family held out', query: { kind: 'validation', family_holdout: true, runs: RUNS } },
];

let engine: EngineModule;
let native: string[];
beforeAll(async () => {
  engine = await loadEngine();
  native = execFileSync(DUMP, { maxBuffer: 256 * 1024 * 1024 }).toString().trimEnd().split('\n');
});

describe('wasm engine vs native golden_dump', () => {
  it('has one native line per golden case, then the two calibration lines', () => {
    expect(cases.length).toBeGreaterThan(0);
    expect(native.length).toBe(cases.length + CALIBRATION.length);
  });

  it.each(CALIBRATION)('the validation suite: $name, byte for byte', ({ name, query }) => {
    const prefix = `published-runs.json :: ${name} :: `;
    const line = native.find((l) => l.startsWith(prefix));
    expect(line, prefix).toBeDefined();
    expect(engine.evaluate(JSON.stringify({ query }))).toBe(line!.slice(prefix.length));
  });

  it.each(files)('%s: every case byte for byte', (file) => {
    let checked = 0;
    cases.forEach(({ file: f, c }, i) => {
      if (f !== file) return;
      const prefix = `${f} :: ${c.name} :: `;
      const line = native[i] ?? '';
      expect(line.startsWith(prefix), `native line ${i} is for ${prefix}`).toBe(true);
      expect(engine.evaluate(JSON.stringify(c.scenario)), c.name).toBe(line.slice(prefix.length));
      checked++;
    });
    expect(checked).toBeGreaterThan(0);
  });
});
