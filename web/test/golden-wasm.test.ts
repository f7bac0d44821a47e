// The wasm module the site ships answers every golden case (tests/golden/*.json) with exactly the JSON the native
// build prints (build/release/golden_dump, one "file :: name :: result" line per case). It leaves out the
// calibration subsystem (docs/architecture.md "What the page ships"): its calibrate and validation are unknown
// kinds, and the message that lists the kinds lists the others. That the fits themselves give the same bits in
// wasm (issue 22) is scripts/test.sh's comparison of the whole engine's golden_dump.js with the native one. Every
// answer also validates against the schema's answer and result schemas (schema/answers.schema.json).
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import type { EngineModule } from '../src/engine/types';
import { REPO, loadEngine } from './engine';
import { schemaProblems } from './schema';

const GOLDEN_DIR = path.join(REPO, 'tests/golden');
const DUMP = process.env['SCALESCOPE_GOLDEN_DUMP'] ?? path.join(REPO, 'build/release/golden_dump');

interface Case {
  name: string;
  scenario: unknown;
}
const files = fs
  .readdirSync(GOLDEN_DIR)
  .filter((f) => f.endsWith('.json'))
  .sort();
const cases: { file: string; c: Case }[] = files.flatMap((file) =>
  (JSON.parse(fs.readFileSync(path.join(GOLDEN_DIR, file), 'utf8')) as { cases: Case[] }).cases.map((c) => ({
    file,
    c,
  })),
);

// As tests/golden_dump.cpp builds them.
const RUNS = (
  JSON.parse(fs.readFileSync(path.join(REPO, 'tests/validation/published-runs.json'), 'utf8')) as { runs: unknown[] }
).runs;
const CALIBRATION = [
  { name: 'calibrate', query: { kind: 'calibrate', runs: RUNS } },
  { name: 'validation with each family held out', query: { kind: 'validation', family_holdout: true, runs: RUNS } },
];

/** The calibration subsystem's kinds, which the page's module leaves out (docs/architecture.md "What the page ships"). */
const CALIBRATION_KINDS = ['validation', 'calibrate', 'kernel_fit', 'kernel_family'];
/** The launch configs' kinds, which the page's first-load module leaves out too (scalescope_launch has them). */
const FRAMEWORK_KINDS = ['launch_config', 'import_config'];
/** A native answer as the page's module gives it: a list of the query kinds leaves out the calibration and launch ones. */
const pageAnswer = (line: string): string =>
  [CALIBRATION_KINDS, FRAMEWORK_KINDS].reduce(
    (l, kinds) => l.replaceAll(kinds.map((k) => `, ${k}`).join(''), ''),
    line,
  );

let engine: EngineModule;
let native: string[];
beforeAll(async () => {
  engine = await loadEngine();
  native = execFileSync(DUMP, { maxBuffer: 256 * 1024 * 1024 })
    .toString()
    .trimEnd()
    .split('\n');
});

describe('wasm engine vs native golden_dump', () => {
  it('has one native line per golden case, then the two calibration lines', () => {
    expect(cases.length).toBeGreaterThan(0);
    expect(native.length).toBe(cases.length + CALIBRATION.length);
  });

  it.each(CALIBRATION)('the validation suite: $name is not a kind the page has', ({ name, query }) => {
    const prefix = `published-runs.json :: ${name} :: `;
    expect(
      native.find((l) => l.startsWith(prefix)),
      prefix,
    ).toBeDefined();
    const answer = JSON.parse(engine.evaluate(JSON.stringify({ query }))) as {
      ok: boolean;
      diagnostics: { path: string; code: string; message: string }[];
    };
    expect(answer.ok).toBe(false);
    expect(answer.diagnostics[0]).toMatchObject({ path: '/query/kind', code: 'unknown_choice' });
    // The page's kinds are the core's: the message lists them, and none of the calibration kinds.
    const valid = answer.diagnostics[0]!.message.split('valid: ')[1]?.split(', ') ?? [];
    expect(valid).toEqual(expect.arrayContaining(['summary', 'training_step', 'serving_search', 'plan_mesh']));
    for (const k of CALIBRATION_KINDS) expect(valid).not.toContain(k);
  });

  it.each(files)('%s: every case byte for byte', (file) => {
    let checked = 0;
    cases.forEach(({ file: f, c }, i) => {
      if (f !== file) return;
      const prefix = `${f} :: ${c.name} :: `;
      const line = native[i] ?? '';
      expect(line.startsWith(prefix), `native line ${i} is for ${prefix}`).toBe(true);
      const answer = engine.evaluate(JSON.stringify(c.scenario));
      expect(answer, c.name).toBe(pageAnswer(line.slice(prefix.length)));
      // Its result is its kind's, as the schema says (issue 19): a key the schema lacks fails.
      expect(schemaProblems('answers.schema.json', JSON.parse(answer)), c.name).toEqual([]);
      checked++;
    });
    expect(checked).toBeGreaterThan(0);
  });
});
