// Every result the native engine gives for the golden cases, the validation suite's calibrate and validation, and
// tests/schema/coverage-scenarios.json (which reach the optional parts of the results) validates against its
// kind's result schema: a key the schema lacks fails (every result object is closed), issue 19. The mutated
// scenarios' answers are checked in schema-mutations.test.ts, the wasm module's in golden-wasm.test.ts.
import { describe, expect, it } from 'vitest';
import { coverageScenarios, evaluateNative, goldenDump } from '../scripts/schema-corpus.mjs';
import { loadAjv } from '../scripts/schema-load.mjs';

const answerSchema = loadAjv().getSchema('answers.schema.json')!;

function expectValid(name: string, answer: { ok: boolean }): void {
  expect(answer.ok, name).toBe(true);
  expect(answerSchema(answer) ? [] : answerSchema.errors?.slice(0, 5), name).toEqual([]);
}

describe('native results against the result schema', () => {
  it('every golden case, the validation suite and every coverage scenario; every query kind among them', () => {
    const kinds = new Set<string>();
    const lines = goldenDump([]) as string[];
    expect(lines.length).toBeGreaterThan(300);
    for (const line of lines) {
      const answer = JSON.parse(line.slice(line.lastIndexOf(' :: {') + 4)) as { ok: boolean; query?: string };
      if (!answer.ok) continue; // a bad-input case: its diagnostics are the point
      expectValid(line.slice(0, 120), answer);
      kinds.add(answer.query!);
    }
    const scenarios = coverageScenarios();
    evaluateNative(scenarios.map((s: { scenario: unknown }) => s.scenario)).forEach(
      (answer: { ok: boolean; query?: string }, i: number) => {
        expectValid(scenarios[i]!.source, answer);
        kinds.add(answer.query!);
      },
    );
    const all = (answerSchema.schema as { properties: { query: { enum: string[] } } }).properties.query.enum;
    expect([...kinds].sort()).toEqual([...all].sort());
  });
});
