// The engine and the schema agree on every scenario of the structured mutator (tests/mutations.h: each number and
// text of every golden scenario and docs/api.md example pushed to an extreme), issue 19:
// - every answer is an Evaluation whose result validates against its kind's result schema (no key the schema lacks);
// - what the schema rejects, the engine rejects, at the same JSON pointers;
// - what the engine rejects with a structural diagnostic (a wrong type, a key unknown or missing, a number out of its
//   range or not whole, a choice it does not know), the schema rejects; cross-field rules the schema cannot state
//   (TP divides the heads, a batch feeds its data shards, pipeline stages within the layers) are out of it;
// - an unknown choice's "valid: ..." list is the schema's enum there.
// The answers are the native engine's (build/release/golden_dump --mutations --answers).
import { beforeAll, describe, expect, it } from 'vitest';
import { goldenDump } from '../scripts/schema-corpus.mjs';
import { errorPaths, loadAjv } from '../scripts/schema-load.mjs';

interface Diagnostic {
  path: string;
  code: string;
  message: string;
  severity: string;
}
interface Mutation {
  name: string;
  scenario: unknown;
  answer: { ok: boolean; diagnostics: Diagnostic[] };
}

const ajv = loadAjv();
const scenarioSchema = ajv.getSchema('scenario.schema.json')!;
const answerSchema = ajv.getSchema('answers.schema.json')!;

/** Codes the schema states whatever they say: the type, the keys, the choices, a list that must not be empty. */
const STRUCTURAL = new Set(['wrong_type', 'missing_key', 'unknown_key', 'unknown_choice', 'unknown_dtype', 'empty']);
/**
 * Codes that name a number's range or a size limit, structural when the message is the reader's range or limit
 * message (io/json_reader.cpp); the same codes also name cross-field rules ("16 pipeline stages exceed the 1
 * layers", "1 tokens cannot feed 64 data shards"), which the schema cannot state.
 */
const RANGE_CODES = new Set(['not_positive', 'negative', 'too_small', 'too_large', 'not_integer']);
const RANGE_MESSAGE =
  /(must be |^expected )(0 or )?(a whole number )?from |entries; the limit is|bytes long; the limit is/;
const structural = (d: Diagnostic): boolean =>
  STRUCTURAL.has(d.code) || (RANGE_CODES.has(d.code) && RANGE_MESSAGE.test(d.message));

/**
 * Structural diagnostics the schema cannot give, each for a reason (each must still occur: a stale one fails).
 * - A Hugging Face config.json is read by its family's rules: which keys a family needs, and the keys it names
 *   unknown, are the engine's (the schema types the keys it reads).
 * - Transfer coordinates are bounded by the mesh's shape.
 * - An override can make a preset need a key it lacks (experts on a dense model need expert_d_ff; a latent
 *   attention out of range leaves the model needing kv_heads): the schema does not see the preset.
 */
const ENGINE_ONLY: { reason: string; test: (d: Diagnostic) => boolean }[] = [
  { reason: "a config.json's family rules", test: (d) => /\/hf_config(\/|$)/.test(d.path) },
  {
    reason: 'coordinates within the mesh',
    test: (d) => /\/query\/(from|to)\/\d+$/.test(d.path) && d.code === 'too_large',
  },
  { reason: 'a key the merged preset needs', test: (d) => d.code === 'missing_key' && /\/overrides\//.test(d.path) },
];

/** The value at a JSON pointer. */
function at(doc: unknown, pointer: string): unknown {
  let v = doc;
  for (const t of pointer.split('/').slice(1))
    v = (v as Record<string, unknown> | undefined)?.[t.replaceAll('~1', '/').replaceAll('~0', '~')];
  return v;
}

/**
 * Values the schema rejects that the engine may take, each for a reason (each must still occur).
 * - A null in overrides deletes the preset's field (a JSON merge patch): fine for an optional field. The schema
 *   leaves deletion out; write the chip or model inline instead.
 */
const SCHEMA_ONLY: { reason: string; test: (scenario: unknown, path: string) => boolean }[] = [
  { reason: 'a null override deletes a field', test: (s, p) => /\/overrides\//.test(p) && at(s, p) === null },
];

let mutations: Mutation[];
beforeAll(() => {
  mutations = goldenDump(['--mutations', '--answers']).map((l: string) => JSON.parse(l) as Mutation);
}, 120_000);

describe('the engine and the schema on every mutated scenario', () => {
  it('are many', () => expect(mutations.length).toBeGreaterThan(50_000));

  it("every answer validates against the answer schema, every result against its kind's result schema", () => {
    const bad = mutations
      .filter((m) => !answerSchema(m.answer))
      .map((m) => `${m.name}: ${JSON.stringify(answerSchema.errors?.slice(0, 3))}`);
    expect(bad.slice(0, 10)).toEqual([]);
    expect(mutations.filter((m) => m.answer.ok).length).toBeGreaterThan(5_000);
  });

  it('what the schema rejects, the engine rejects at the same paths', () => {
    const disagree: string[] = [];
    const used = new Set<string>();
    let rejected = 0;
    for (const m of mutations) {
      if (scenarioSchema(m.scenario)) continue;
      rejected++;
      const errors = m.answer.diagnostics.filter((d) => d.severity === 'error');
      for (const p of errorPaths(scenarioSchema.errors)) {
        // The engine names a value nested too deep at its first level too deep, below the value the schema names.
        if (errors.some((d) => d.path === p || (d.code === 'too_deep' && d.path.startsWith(`${p}/`)))) continue;
        const excused = SCHEMA_ONLY.find((e) => e.test(m.scenario, p));
        if (excused) used.add(excused.reason);
        else disagree.push(`${m.name}: the schema rejects ${p}; the engine says ${JSON.stringify(errors.slice(0, 2))}`);
      }
    }
    expect(disagree.slice(0, 10)).toEqual([]);
    expect(rejected).toBeGreaterThan(20_000);
    expect([...used]).toEqual(SCHEMA_ONLY.map((e) => e.reason));
  });

  it('what the engine rejects with a structural diagnostic, the schema rejects', () => {
    const disagree: string[] = [];
    const used = new Set<string>();
    let structuralSeen = 0;
    for (const m of mutations) {
      const found = m.answer.diagnostics.filter((d) => d.severity === 'error' && structural(d));
      if (!found.length) continue;
      structuralSeen++;
      if (!scenarioSchema(m.scenario)) continue;
      for (const d of found) {
        const excused = ENGINE_ONLY.find((e) => e.test(d));
        if (excused) used.add(excused.reason);
        else disagree.push(`${m.name}: the engine says ${d.code} at ${d.path} (${d.message}); the schema accepts it`);
      }
    }
    expect(disagree.slice(0, 10)).toEqual([]);
    expect(structuralSeen).toBeGreaterThan(20_000);
    expect([...used].sort()).toEqual(ENGINE_ONLY.map((e) => e.reason).sort());
  });

  it("an unknown choice lists the schema's enum", () => {
    let compared = 0;
    const disagree: string[] = [];
    for (const m of mutations) {
      for (const d of m.answer.diagnostics.filter((x) => x.code === 'unknown_choice' || x.code === 'unknown_dtype')) {
        const listed = /valid: (.*)$/.exec(d.message)?.[1]?.split(', ');
        if (!listed || scenarioSchema(m.scenario)) continue;
        const allowed = scenarioSchema.errors?.find((e) => e.instancePath === d.path && e.keyword === 'enum')
          ?.params as { allowedValues?: string[] } | undefined;
        if (!allowed?.allowedValues) continue; // a list of the engine's data: presets, mesh axes
        compared++;
        if ([...listed].sort().join() !== [...allowed.allowedValues].sort().join())
          disagree.push(
            `${d.path}: the engine lists ${listed.join(', ')}; the schema ${allowed.allowedValues.join(', ')}`,
          );
      }
    }
    expect([...new Set(disagree)]).toEqual([]);
    expect(compared).toBeGreaterThan(100);
  });
});
