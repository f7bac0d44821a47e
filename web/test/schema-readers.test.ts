// The engine's readers and the schema name the same keys (issue 19), both ways. Every object of every scenario the
// project writes down (tests/schema/coverage-scenarios.json included) is sent to the native engine with one bogus
// key, and the reader's "unknown key ...; valid: ..." diagnostic says which keys it reads there:
// - every key a reader takes is in the schema there, and the schema leaves an object open exactly where the engine
//   takes any key (dims, sources, a config.json);
// - every key the schema declares is read somewhere its declaration applies: a key added to the schema and not to
//   the reader, or to the reader and not to the schema, fails;
// - every object the input schemas declare is reached by some document, so that nothing escapes the check.
import { beforeAll, describe, expect, it } from 'vitest';
import { probeDocuments, probeReaders } from '../scripts/schema-probe-readers.mjs';
import { loadAjv, readSchemas } from '../scripts/schema-load.mjs';
import { SchemaWalker } from '../scripts/schema-walk.mjs';

interface Probe {
  place: string;
  pointer: string;
  doc: unknown;
  keys: string[] | null;
}
interface Place {
  pointer: string;
  declared: Set<string>;
  open: boolean;
  declarers: string[];
}

const walker = new SchemaWalker(loadAjv());
let probes: { probe: Probe; place: Place }[];

/** Objects the schema declares that no reader reads key by key: open records, kept documentation. */
const NOT_READ_BY_KEY = [
  'model.schema.json#/$defs/HfConfig', // a config.json: read by its family's rules, the engine names unknown keys itself
  'published-runs.schema.json#', // a runs file: the CLI takes its runs (each one is read key by key: PublishedRun)
];

beforeAll(() => {
  const docs = probeDocuments() as unknown[];
  const places = new Map<unknown, Map<string, Place>>();
  for (const doc of docs)
    places.set(doc, new Map(walker.objects(doc, 'scenario.schema.json').map((o: Place) => [o.pointer, o])));
  probes = (probeReaders(docs) as Probe[]).map((probe) => ({
    probe,
    place: places.get(probe.doc)!.get(probe.pointer)!,
  }));
}, 120_000);

describe('the readers and the schema name the same keys', () => {
  it('reach every object of every document', () => {
    expect(probes.length).toBeGreaterThan(2000);
    expect(probes.filter((p) => !p.place).map((p) => p.probe.pointer)).toEqual([]);
  });

  it('every key a reader takes is in the schema there; an object is open in both or in neither', () => {
    const disagree = new Set<string>();
    for (const { probe, place } of probes) {
      if (place.declarers.some((d) => NOT_READ_BY_KEY.some((n) => d.startsWith(n)))) continue;
      if (probe.keys === null) {
        if (!place.open) disagree.add(`${probe.place}: the engine takes any key; the schema closes it`);
        continue;
      }
      if (place.open) disagree.add(`${probe.place}: the engine names the keys it reads; the schema leaves it open`);
      for (const k of probe.keys)
        if (!place.declared.has(k))
          disagree.add(
            `${probe.place}: the engine reads '${k}'; the schema (${place.declarers.join(', ')}) does not declare it`,
          );
    }
    expect([...disagree].sort()).toEqual([]);
  });

  it('every key the schema declares is read where its declaration applies', () => {
    const read = new Map<string, Set<string>>(); // declarer -> keys read wherever it applied
    for (const { probe, place } of probes)
      for (const d of place.declarers) {
        const keys = read.get(d) ?? new Set<string>();
        for (const k of probe.keys ?? []) keys.add(k);
        read.set(d, keys);
      }
    const unread: string[] = [];
    for (const [declarer, keys] of read) {
      if (NOT_READ_BY_KEY.some((n) => declarer.startsWith(n))) continue;
      if (![...keys].length) continue; // an open object: nothing named
      const properties = walker.node(...(declarer.split('#') as [string, string])).properties as Record<
        string,
        unknown
      >;
      for (const [k, v] of Object.entries(properties))
        if (v !== false && !keys.has(k) && k !== '$schema')
          unread.push(`${declarer}: '${k}' is in the schema; no reader reads it`);
    }
    expect(unread.sort()).toEqual([]);
  });

  it('every object the input schemas declare is reached by a document', () => {
    const reached = new Set(probes.flatMap((p) => p.place.declarers));
    const declared: string[] = [];
    for (const { key, schema } of readSchemas()) {
      if (key.startsWith('results/') || key === 'answers.schema.json') continue;
      const walk = (n: unknown, pointer: string): void => {
        if (!n || typeof n !== 'object') return;
        const node = n as Record<string, unknown>;
        if (pointer.endsWith('/if')) return; // a condition, not a declaration
        if (
          node['properties'] &&
          !NOT_READ_BY_KEY.includes(`${key}#${pointer}`) &&
          !`${key}#${pointer}`.startsWith(NOT_READ_BY_KEY[0]!)
        )
          declared.push(`${key}#${pointer}`);
        for (const [k, v] of Object.entries(node))
          walk(v, `${pointer}/${k.replaceAll('~', '~0').replaceAll('/', '~1')}`);
      };
      walk(schema, '');
    }
    expect(declared.filter((d) => !reached.has(d)).sort()).toEqual([]);
  });
});
