// Every document the project writes down validates against the schema (issue 19): the golden scenarios, docs/api.md's
// examples, examples/*.json (which name the schema for editors), the published runs, the presets, the
// calibration profiles and the measured kernel tables. The golden cases that expect only structural diagnostics are
// rejected by the schema at the same paths.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  calibrationProfiles,
  docsExamples,
  exampleScenarios,
  goldenCases,
  publishedRunFiles,
  REPO,
  validScenarios,
} from '../scripts/schema-corpus.mjs';
import { errorPaths, loadAjv } from '../scripts/schema-load.mjs';

const ajv = loadAjv();
const scenario = ajv.getSchema('scenario.schema.json')!;

/** A document against a schema: the errors as "path: message" lines (none: valid). */
function problems(schemaKey: string, doc: unknown): string[] {
  const validate = ajv.getSchema(schemaKey);
  if (!validate) throw new Error(`no schema ${schemaKey}`);
  return validate(doc)
    ? []
    : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message} ${JSON.stringify(e.params)}`);
}

/** Diagnostic codes a schema can express (too_small and too_large also name cross-field rules: a batch too small for its
 * data shards; not_divisible, unknown_preset and the rest need the presets, the mesh or another field). */
const STRUCTURAL_CODES = new Set([
  'wrong_type',
  'missing_key',
  'unknown_key',
  'unknown_choice',
  'unknown_dtype',
  'not_positive',
  'negative',
  'not_integer',
]);

describe('the schema holds every document the project writes down', () => {
  it.each(validScenarios().map((s) => [s.source, s.scenario] as const))('%s', (_, doc) => {
    expect(problems('scenario.schema.json', doc)).toEqual([]);
  });

  it('examples/*.json name the schema, as an editor reads it', () => {
    const examples = exampleScenarios();
    expect(examples.length).toBeGreaterThan(0);
    for (const e of examples) {
      const ref = (e.scenario as { $schema?: string }).$schema;
      expect(ref, e.source).toBe('../schema/scenario.schema.json');
      expect(fs.existsSync(path.resolve(REPO, 'examples', ref!))).toBe(true);
    }
  });

  it("docs/api.md's mesh example is a mesh", () => {
    const meshes = docsExamples().filter(
      (e) => e.value && typeof e.value === 'object' && 'shape' in (e.value as object),
    );
    expect(meshes.length).toBe(1);
    expect(problems('scenario.schema.json#/$defs/Mesh', meshes[0]!.value)).toEqual([]);
  });

  it.each(publishedRunFiles().map((f) => [f.source, f.value] as const))('published runs: %s', (_, doc) => {
    expect(problems('published-runs.schema.json', doc)).toEqual([]);
  });

  it.each(calibrationProfiles().map((f) => [f.source, f.value] as const))('calibration profile: %s', (_, doc) => {
    expect(problems('calibration-profile.schema.json', doc)).toEqual([]);
  });

  it('every kernel tables file (tests/kernels/, what kernel_fit and scalescope kernels read)', () => {
    const dir = path.join(REPO, 'tests/kernels');
    const files = fs.readdirSync(dir).filter((f) => f.endsWith('.json'));
    expect(files.length).toBeGreaterThan(3);
    for (const f of files)
      expect(problems('kernel-tables.schema.json', JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8'))), f).toEqual(
        [],
      );
  });

  it.each([
    ['hardware_presets', 'hardware.schema.json'],
    ['model_presets', 'model.schema.json'],
  ])('every preset in %s/', (dir, key) => {
    const files = fs.readdirSync(path.join(REPO, dir)).filter((f) => f.endsWith('.json'));
    expect(files.length).toBeGreaterThan(5);
    for (const f of files)
      expect(problems(key, JSON.parse(fs.readFileSync(path.join(REPO, dir, f), 'utf8'))), f).toEqual([]);
  });

  it('the golden cases of bad input whose diagnostics are structural are rejected at the same paths', () => {
    let checked = 0;
    for (const c of goldenCases()) {
      const expected = c.expectDiagnostics as { path: string; code: string }[];
      if (!expected.length || !expected.every((d) => STRUCTURAL_CODES.has(d.code))) continue;
      expect(scenario(c.scenario), c.source).toBe(false);
      expect(errorPaths(scenario.errors), c.source).toEqual(expect.arrayContaining(expected.map((d) => d.path)));
      checked++;
    }
    expect(checked).toBeGreaterThan(15);
  });
});
