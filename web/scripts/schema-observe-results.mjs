#!/usr/bin/env node
// A development aid (schema/README.md "Adding a query kind"): runs the native golden_dump over every golden case,
// every structured mutation and tests/schema/coverage-scenarios.json, and prints, per query kind, the structure its
// results were seen to have: each key with the JSON types it took, how often it was there when its parent was
// (every time: required), and for strings the few values seen (an enum?). Objects whose keys are data (a record)
// show up as many one-off keys. With --draft, a JSON Schema draft of each kind's result instead: every object
// closed (additionalProperties false), the keys always seen required, and each number's unit read off its key's
// words (a starting point to edit by hand: descriptions, enums, shared $defs).
//   node web/scripts/schema-observe-results.mjs [--draft] [kind ...]   (SCALESCOPE_GOLDEN_DUMP: another golden_dump)
import { coverageScenarios, evaluateNative, goldenDump } from './schema-corpus.mjs';

const args = process.argv.slice(2);
const draft = args[0] === '--draft';
if (draft) args.shift();
const kinds = args;

const answers = [
  ...goldenDump([]).map((l) => JSON.parse(l.slice(l.lastIndexOf(' :: {') + 4))),
  ...goldenDump(['--mutations', '--answers']).map((l) => JSON.parse(l).answer),
  ...evaluateNative(coverageScenarios().map((c) => c.scenario)),
];

// node: {count, types: Map, strings: Set, keys: Map<key, node>, items: node}
const newNode = () => ({ count: 0, types: new Map(), strings: new Set(), keys: new Map(), items: null });
function add(node, v) {
  node.count++;
  const t = v === null ? 'null' : Array.isArray(v) ? 'array' : Number.isInteger(v) ? 'integer' : typeof v;
  node.types.set(t, (node.types.get(t) ?? 0) + 1);
  if (t === 'string' && node.strings.size <= 12) node.strings.add(v.length > 40 ? '<text>' : v);
  if (t === 'array') for (const x of v) add((node.items ??= newNode()), x);
  if (t === 'object')
    for (const [k, x] of Object.entries(v)) {
      if (!node.keys.has(k)) node.keys.set(k, newNode());
      add(node.keys.get(k), x);
    }
}

function print(node, name, indent, objects) {
  const types = [...node.types].map(([t, n]) => (n === node.count ? t : `${t}:${n}`)).join('|');
  const strings = node.strings.size && node.strings.size <= 12 ? ` {${[...node.strings].join(', ')}}` : '';
  const seen = objects === undefined || node.count === objects ? '' : ` (${node.count}/${objects})`;
  console.log(`${' '.repeat(indent)}${name}: ${types}${seen}${strings}`);
  const objectsHere = node.types.get('object') ?? 0;
  for (const [k, child] of [...node.keys].sort()) print(child, k, indent + 2, objectsHere);
  if (node.items) print(node.items, '[]', indent + 2, undefined);
}

const byKind = new Map();
for (const a of answers) {
  if (!a.ok || !a.result) continue;
  if (!byKind.has(a.query)) byKind.set(a.query, newNode());
  add(byKind.get(a.query), a.result);
}
// The unit a key names by its words (the rule cli/table.cpp followed before the schema gave it the units).
const NOUNS = [
  'tokens',
  'queries',
  'sequences',
  'chips',
  'gpus',
  'params',
  'slices',
  'hops',
  'servers',
  'devices',
  'ports',
];
function unitOf(key) {
  const t = key.split('_');
  const tail = (from) =>
    t
      .slice(from)
      .join(' ')
      .replace(/^per s\b/, '/s')
      .replace(/ per s\b/, '/s')
      .replace(/^per byte\b/, '/byte');
  const sep = (x) => (x && !x.startsWith('/') ? ` ${x}` : x);
  if (t.includes('frac') || t.includes('fraction')) return 'fraction';
  for (let i = 0; i < t.length; i++) {
    const rest = tail(i + 1);
    if (t[i] === 'bytes') return `bytes${sep(rest)}`;
    if (t[i] === 'flops') {
      if (i + 2 === t.length && t[i + 1] === 's') break;
      if (rest.startsWith('/byte')) return `FLOPs${rest}`;
      if (rest.startsWith('/s')) return `FLOP${rest}`;
      return `FLOPs${sep(rest)}`;
    }
    if (t[i] === 'usd') return `USD${sep(rest)}`;
    if (t[i] === 'hz') return `Hz${sep(rest)}`;
  }
  if (t.at(-1) === 's' && t.at(-2) !== 'per') return 's';
  const noun = t.findIndex((w) => NOUNS.includes(w));
  if (noun >= 0) return `${t[noun] === 'gpus' ? 'GPUs' : t[noun]}${sep(tail(noun + 1))}`;
  return undefined;
}

function schemaOf(node, key) {
  const types = [...node.types.keys()].filter((t) => t !== 'null');
  if (types.length !== 1 && !(types.length === 2 && types.includes('integer') && types.includes('number')))
    return { 'x-observed': types };
  const t = types[0] === 'integer' ? 'number' : types[0];
  if (t === 'number') {
    const unit = unitOf(key);
    return unit ? { type: 'number', 'x-unit': unit } : { type: 'number' };
  }
  if (t === 'string')
    return node.strings.size <= 6 && ![...node.strings].includes('<text>')
      ? { type: 'string', 'x-seen': [...node.strings] }
      : { type: 'string' };
  if (t === 'array') return { type: 'array', items: node.items ? schemaOf(node.items, key) : {} };
  if (t !== 'object') return { type: t };
  const objects = node.types.get('object');
  const keys = [...node.keys].sort();
  return {
    type: 'object',
    additionalProperties: false,
    required: keys.filter(([, c]) => c.count === objects).map(([k]) => k),
    properties: Object.fromEntries(keys.map(([k, c]) => [k, schemaOf(c, k)])),
  };
}

for (const [kind, node] of [...byKind].sort()) {
  if (kinds.length && !kinds.includes(kind)) continue;
  if (draft) console.log(JSON.stringify({ kind, schema: schemaOf(node, kind) }, null, 2));
  else print(node, kind, 0, undefined);
}
