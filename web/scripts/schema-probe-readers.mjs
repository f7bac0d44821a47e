#!/usr/bin/env node
// A development aid (schema/README.md): asks the native engine which keys its readers take at every object of every
// scenario the project writes down, by sending each object with one bogus key and reading the "unknown key ...;
// valid: ..." diagnostic. Prints, per place (the query's kind in brackets, array indices as *), the keys read
// there (union over the scenarios; a key read only sometimes is marked with its count), or "any key" where the
// engine took the bogus key without a word.
//   node web/scripts/schema-probe-readers.mjs
import { evaluateNative, publishedRunFiles, validScenarios } from './schema-corpus.mjs';

export const PROBE_KEY = 'zz_schema_probe';

/** Every object in `doc` as [pointer, place]: the place names each query by its kind, array indices as *. */
export function objectsOf(doc) {
  const out = [];
  const walk = (v, pointer, place) => {
    if (Array.isArray(v)) v.forEach((x, i) => walk(x, `${pointer}/${i}`, `${place}/*`));
    else if (v && typeof v === 'object') {
      out.push([pointer, place]);
      for (const [k, x] of Object.entries(v)) {
        const key = k.replaceAll('~', '~0').replaceAll('/', '~1');
        const kind = k === 'query' && x && typeof x === 'object' && typeof x.kind === 'string' ? `(${x.kind})` : '';
        walk(x, `${pointer}/${key}`, `${place}/${key}${kind}`);
      }
    }
  };
  walk(doc, '', '');
  return out;
}

function withProbe(doc, pointer) {
  const copy = structuredClone(doc);
  let node = copy;
  for (const t of pointer.split('/').slice(1)) node = node[t.replaceAll('~1', '/').replaceAll('~0', '~')];
  node[PROBE_KEY] = 1;
  return copy;
}

/** The keys the engine read at `pointer` (parsed from its unknown-key diagnostic), or null when it took any key. */
export function readKeys(answer, pointer) {
  const d = answer.diagnostics.find((x) => x.path === `${pointer}/${PROBE_KEY}` && x.code === 'unknown_key');
  // A summary reports its default plans' problems in its result, without a path.
  const problem = Object.values(answer.result ?? {})
    .flatMap((part) => part?.problems ?? [])
    .find((m) => m.startsWith(`unknown key '${PROBE_KEY}'`));
  const message = d?.message ?? problem;
  if (!message) return null;
  const m = /; valid: (.*)$/.exec(message);
  return m ? m[1].split(', ') : [];
}

/** The scenarios to probe: each valid one, each published run inside a one-run validation query, and each memory
 * check of the runs file beside the first run. */
export function probeDocuments() {
  const file = publishedRunFiles()[0].value;
  const runs = file.runs;
  return [
    ...validScenarios().map((s) => s.scenario),
    ...runs.map((run) => ({ query: { kind: 'validation', runs: [run] } })),
    ...(file.memory_checks ?? []).map((check) => ({
      query: { kind: 'validation', runs: [runs[0]], memory_checks: [check] },
    })),
  ];
}

/** [{place, pointer, keys}] for every object of every probe document. */
export function probeReaders(docs = probeDocuments()) {
  const probes = docs.flatMap((doc) => objectsOf(doc).map(([pointer, place]) => ({ doc, pointer, place })));
  const answers = evaluateNative(probes.map((p) => withProbe(p.doc, p.pointer)));
  return probes.map((p, i) => ({
    place: p.place,
    pointer: p.pointer,
    doc: p.doc,
    keys: readKeys(answers[i], p.pointer),
  }));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const byPlace = new Map();
  for (const { place, keys } of probeReaders()) {
    const e = byPlace.get(place) ?? { n: 0, any: 0, keys: new Map() };
    e.n++;
    if (keys === null) e.any++;
    else for (const k of keys) e.keys.set(k, (e.keys.get(k) ?? 0) + 1);
    byPlace.set(place, e);
  }
  for (const [place, e] of [...byPlace].sort()) {
    const read = e.n - e.any;
    const keys = [...e.keys].sort().map(([k, n]) => (n === read ? k : `${k}(${n}/${read})`));
    console.log(
      `${place || '/'} [${e.n}]: ${e.any === e.n ? 'any key' : (e.any ? `any key ${e.any}x; ` : '') + keys.join(', ')}`,
    );
  }
}
