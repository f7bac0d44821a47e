// The documents the schema is held against (schema/README.md): every scenario the project writes down — the golden
// cases, docs/api.md's examples, examples/*.json, the published runs — and the native engine that answers them
// (build/release/golden_dump; SCALESCOPE_GOLDEN_DUMP overrides). Shared by the schema tests and the tools beside it.
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const GOLDEN_DUMP = process.env.SCALESCOPE_GOLDEN_DUMP ?? path.join(REPO, 'build/release/golden_dump');

const readJson = (file) => JSON.parse(fs.readFileSync(path.resolve(REPO, file), 'utf8'));

/** Every golden case as {source, scenario, expectDiagnostics}. */
export function goldenCases() {
  const dir = path.join(REPO, 'tests/golden');
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .flatMap((f) =>
      readJson(path.join(dir, f)).cases.map((c) => ({
        source: `tests/golden/${f} :: ${c.name}`,
        scenario: c.scenario,
        expectDiagnostics: c.expect_diagnostics ?? [],
      })),
    );
}

/** docs/api.md's ```json blocks that parse, as {source, value}: scenarios, and the mesh snippet. */
export function docsExamples() {
  const doc = fs.readFileSync(path.join(REPO, 'docs/api.md'), 'utf8');
  const out = [];
  for (const m of doc.matchAll(/```json\n([\s\S]*?)```/g)) {
    try {
      out.push({ source: `docs/api.md example ${out.length + 1}`, value: JSON.parse(m[1]) });
    } catch {
      // a result sketch with "..." in it: not a document
    }
  }
  return out;
}

/** examples/*.json: the scenarios shipped for users. */
export function exampleScenarios() {
  const dir = path.join(REPO, 'examples');
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => ({ source: `examples/${f}`, scenario: readJson(path.join(dir, f)) }));
}

/** The published-runs files the repository holds: the project's (with its split) and the team example's. */
export function publishedRunFiles() {
  const files = ['tests/validation/published-runs.json', 'examples/calibration/my-cluster-runs.json'];
  return files.map((f) => ({ source: path.relative(REPO, path.resolve(REPO, f)), value: readJson(f) }));
}

/** The calibration profiles a team writes (examples/calibration) and the embedded ones (calibration_profiles/). */
export function calibrationProfiles() {
  const out = [];
  for (const dir of ['calibration_profiles', 'examples/calibration'])
    for (const f of fs
      .readdirSync(path.join(REPO, dir))
      .filter((x) => x.endsWith('.json'))
      .sort()) {
      const value = readJson(path.join(dir, f));
      if (!('runs' in value)) out.push({ source: `${dir}/${f}`, value });
    }
  return out;
}

/** Scenarios that give the engine a calibrate result (examples/calibration's two profiles), as the CLI writes one
 * and as it answers one: the engine chooses the chip's profile from it (docs/api.md profile). */
export function calibrateResultScenarios() {
  const profiles = ['my-cluster-gpu.json', 'my-cluster-h100-sxm.json'].map((f) =>
    readJson(path.join('examples/calibration', f)),
  );
  const source = (what) => `examples/calibration's profiles as a calibrate result: ${what}`;
  return [
    {
      source: source('the profile query, a written result'),
      scenario: { hardware: { preset: 'h200' }, query: { kind: 'profile', calibration: { profiles } } },
    },
    {
      source: source('the profile query, an answered result'),
      scenario: {
        hardware: { preset: 'h100-sxm' },
        query: { kind: 'profile', calibration: { ok: true, diagnostics: [], result: { profiles } } },
      },
    },
    {
      source: source('a calibrated training step'),
      scenario: {
        hardware: { preset: 'h100-sxm' },
        model: { preset: 'llama-3-8b' },
        mesh: { shape: [8] },
        query: {
          kind: 'training_step',
          batch_tokens: 1048576,
          seq_len: 4096,
          parallelism: { fsdp: ['X'] },
          calibration: { profiles },
        },
      },
    },
  ];
}

/** tests/schema/coverage-scenarios.json: scenarios that reach the optional parts of the results. */
export function coverageScenarios() {
  return readJson('tests/schema/coverage-scenarios.json').scenarios.map((scenario, i) => ({
    source: `tests/schema/coverage-scenarios.json #${i}`,
    scenario,
  }));
}

/** Every scenario above that the engine should accept (the golden cases that expect no diagnostics, docs, examples). */
export function validScenarios() {
  return [
    ...coverageScenarios(),
    ...calibrateResultScenarios(),
    ...goldenCases()
      .filter((c) => c.expectDiagnostics.length === 0)
      .map(({ source, scenario }) => ({ source, scenario })),
    ...docsExamples()
      .filter((e) => e.value && typeof e.value === 'object' && 'query' in e.value)
      .map(({ source, value }) => ({ source, scenario: value })),
    ...exampleScenarios(),
  ];
}

/** Runs golden_dump with `args` and returns its stdout lines (stdin: `input`). */
export function goldenDump(args, input) {
  const out = spawnSync(GOLDEN_DUMP, args, { input, maxBuffer: 1 << 30, encoding: 'utf8' });
  if (out.error || out.status !== 0) throw new Error(`${GOLDEN_DUMP} ${args.join(' ')}: ${out.error ?? out.stderr}`);
  return out.stdout.split('\n').filter(Boolean);
}

/** The native engine's answers to `scenarios` (objects), in order. */
export function evaluateNative(scenarios) {
  if (!scenarios.length) return [];
  return goldenDump(['--evaluate'], scenarios.map((s) => JSON.stringify(s)).join('\n') + '\n').map((l) =>
    JSON.parse(l),
  );
}
