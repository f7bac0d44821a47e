// The schema's machine-readable defaults are the engine's (issue 39): the page reads its choice rows' defaults and
// the plan words' unstated settings from them (web/src/engine/schema-choices.ts), so each must be what the engine
// does when the key is left out. For every default of every page query, a scenario the project writes down that has
// the default's parent object is sent twice to the native engine, once without the key and once with it set to the
// schema's default, and the two answers must be the same.
import { describe, expect, it } from 'vitest';
import { evaluateNative, validScenarios } from '../scripts/schema-corpus.mjs';
import { QUERY_CHOICES, QUERY_DEFAULTS } from '../src/engine/schema-choices';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => !!v && typeof v === 'object' && !Array.isArray(v);

/** The object at `pointer`'s parent under `query`, and the key itself (null when the document lacks the parent). */
function parentOf(query: Obj, pointer: string): [Obj, string] | null {
  const keys = pointer.split('/').slice(1);
  let node: unknown = query;
  for (const k of keys.slice(0, -1)) node = isObj(node) ? node[k] : undefined;
  return isObj(node) ? [node, keys[keys.length - 1]!] : null;
}

/** Other values the key takes, to show that a scenario reaches what the key does. */
function otherThan(value: unknown, choices: readonly unknown[] | undefined): unknown[] {
  if (typeof value === 'boolean') return [!value];
  // (A limit as large as a search's default is held by a space it refuses.)
  if (typeof value === 'number')
    return value === 0 ? [0.5] : [value / 2, value * 2, ...(value >= 1e4 ? [value / 1e4] : [])];
  return (choices ?? []).filter((c) => c !== value);
}

interface Case {
  label: string;
  without: Obj;
  with: Obj;
  others: Obj[];
}

/** Up to PER_DEFAULT of the smallest written-down scenarios of each default's query that have its parent object. */
const PER_DEFAULT = 12;

function cases(): { found: Case[][]; uncovered: string[] } {
  const docs = (validScenarios() as { source: string; scenario: Obj }[])
    .filter(({ scenario }) => isObj(scenario['query']))
    .sort((a, b) => JSON.stringify(a.scenario).length - JSON.stringify(b.scenario).length); // the smallest: fast
  const found: Case[][] = [];
  const uncovered: string[] = [];
  for (const [kind, defaults] of Object.entries(QUERY_DEFAULTS))
    for (const [pointer, value] of Object.entries(defaults as Obj)) {
      const choices = (QUERY_CHOICES as Record<string, Record<string, readonly unknown[]>>)[kind]![pointer];
      const reach = docs
        .filter(
          ({ scenario }) => (scenario['query'] as Obj)['kind'] === kind && parentOf(scenario['query'] as Obj, pointer),
        )
        .slice(0, PER_DEFAULT);
      if (!reach.length) uncovered.push(`${kind} ${pointer}`);
      found.push(
        reach.map((doc) => {
          const without = structuredClone(doc.scenario);
          const [p, key] = parentOf(without['query'] as Obj, pointer)!;
          delete p[key];
          const set = (v: unknown) => {
            const copy = structuredClone(without);
            parentOf(copy['query'] as Obj, pointer)![0][key] = v;
            return copy;
          };
          return {
            label: `${kind} ${pointer} = ${JSON.stringify(value)} (on ${doc.source})`,
            without,
            with: set(value),
            others: otherThan(value, choices).map(set),
          };
        }),
      );
    }
  return { found, uncovered };
}

describe("the schema's defaults", () => {
  it('are what the engine does without the key, each held on scenarios its value changes', () => {
    const { found, uncovered } = cases();
    expect(
      uncovered,
      'defaults no written-down scenario reaches (add one to tests/schema/coverage-scenarios.json)',
    ).toEqual([]);
    const all = found.flat();
    expect(found.length).toBeGreaterThan(40);
    const sent = all.flatMap((c) => [c.without, c.with, ...c.others]);
    const answers = (evaluateNative(sent) as Obj[]).map((a) => JSON.stringify(a));
    const at = new Map<Case, string[]>();
    let i = 0;
    for (const c of all) at.set(c, answers.slice(i, (i += 2 + c.others.length)));
    const differ = all.filter((c) => at.get(c)![0] !== at.get(c)![1]).map((c) => c.label);
    expect(differ).toEqual([]);
    // Each default is held where it matters: on some scenario another value answers otherwise.
    const unexercised = found
      .filter(
        (group) =>
          !group.some((c) =>
            at
              .get(c)!
              .slice(2)
              .some((other) => other !== at.get(c)![0]),
          ),
      )
      .map((group) => group[0]!.label);
    expect(unexercised).toEqual([]);
  }, 300_000);
});
