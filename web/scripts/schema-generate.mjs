#!/usr/bin/env node
// Writes what the schema (schema/) is the source of (schema/README.md), or with --check says which is out of date
// and fails (web/test/schema-generated.test.ts runs the check):
//   web/src/engine/schema-types.ts   the TypeScript types of scenarios, queries, results, presets (json-schema-to-typescript)
//   core/io/ranges_table.inc          the range of every number the engine reads by key (io/ranges.cpp)
//   cli/units_table.inc               the unit of every number a result gives (the --table view)
//   web/src/state/result-units.ts     the same units for the page's CSV downloads
//   web/src/engine/schema-choices.ts  the page queries' enums and defaults, by pointer (its choice rows read them)
//   docs/api.md                       the blocks between "<!-- generated: ... -->" and "<!-- end generated -->"
//   python/scalescope/query_arguments.py  the helpers' keyword arguments (their signatures and help())
// Run it after a schema edit: node web/scripts/schema-generate.mjs [--check]
import fs from 'node:fs';
import path from 'node:path';
import { compile } from 'json-schema-to-typescript';
import { REPO } from './schema-corpus.mjs';
import { readSchemas } from './schema-load.mjs';

/** The input schema files in the order their numbers' ranges are listed (hardware, model, scenario, queries, calibration). */
export function inputFiles(files) {
  const order = (k) =>
    k === 'hardware.schema.json'
      ? 0
      : k === 'model.schema.json'
        ? 1
        : k === 'scenario.schema.json'
          ? 2
          : k === 'common.schema.json'
            ? 3
            : k.startsWith('queries/')
              ? 4
              : 5;
  return files
    .filter((f) => !f.key.startsWith('results/') && f.key !== 'answers.schema.json')
    .sort((a, b) => order(a.key) - order(b.key) || a.key.localeCompare(b.key));
}

const isNumber = (n) => n && typeof n === 'object' && (n.type === 'number' || n.type === 'integer');

/** A numeric node's range: {min, max, whole, zeroOk} (0 allowed besides [min, max]: anyOf [{const: 0}, {minimum}]). */
export function rangeOf(n) {
  const positive = n.anyOf?.find((b) => b.minimum !== undefined);
  const zeroOk = Boolean(n.anyOf?.some((b) => b.const === 0) && positive);
  return { min: zeroOk ? positive.minimum : n.minimum, max: n.maximum, whole: n.type === 'integer', zeroOk };
}

/**
 * The range table: one row per number the engine reads by key, named by its key (or x-range), from every numeric
 * property of the input schemas with a range, its array's entries and its record's values; x-range false marks a
 * number read with bounds of its own. A key given two ranges is an error: the engine looks ranges up by key.
 */
export function rangeRows(files) {
  const rows = new Map();
  const add = (name, n, unit, where) => {
    if (n['x-range'] === false || n.maximum === undefined) return;
    const row = {
      name: typeof n['x-range'] === 'string' ? n['x-range'] : name,
      ...rangeOf(n),
      unit: unit ?? n['x-unit'] ?? '',
    };
    const old = rows.get(row.name);
    if (old && JSON.stringify(old) !== JSON.stringify(row))
      throw new Error(`${where}: '${row.name}' has two ranges: ${JSON.stringify(old)} and ${JSON.stringify(row)}`);
    rows.set(row.name, row);
  };
  for (const { key, schema } of inputFiles(files)) {
    const walk = (n, at) => {
      if (!n || typeof n !== 'object') return;
      if (isNumber(n) && typeof n['x-range'] === 'string') add(n['x-range'], n, undefined, `${key}#${at}`);
      for (const [k, p] of Object.entries(n.properties ?? {})) {
        if (!p || typeof p !== 'object' || p['x-range'] === false) continue;
        if (isNumber(p) && typeof p['x-range'] !== 'string') add(k, p, undefined, `${key}#${at}/properties/${k}`);
        for (const inner of [p.items, p.additionalProperties])
          if (isNumber(inner) && typeof inner['x-range'] !== 'string')
            add(
              typeof p['x-range'] === 'string' ? p['x-range'] : k,
              inner,
              p['x-unit'],
              `${key}#${at}/properties/${k}`,
            );
      }
      for (const [k, v] of Object.entries(n)) if (k !== 'properties' && k !== 'if') walk(v, `${at}/${k}`); // a condition declares nothing
      for (const [k, v] of Object.entries(n.properties ?? {})) walk(v, `${at}/properties/${k}`);
    };
    walk(schema, '');
  }
  return [...rows.values()];
}

const cxxNumber = (v) => {
  if (Number.isInteger(v) && Math.abs(v) < 1e7) return String(v);
  const e = v.toExponential().replace('e+', 'e');
  return e.replace(/\.?0+e/, 'e');
};

export function rangesTable(files) {
  const lines = rangeRows(files).map(
    (r) =>
      `    {"${r.name}", ${cxxNumber(r.min)}, ${cxxNumber(r.max)}, ${r.whole ? 'kWhole' : 'kReal'}, "${r.unit}"${r.zeroOk ? ', kOrZero' : ''}},`,
  );
  return [
    '// Generated from schema/ by web/scripts/schema-generate.mjs: do not edit (edit the schema, then run it).',
    '// One row per number the engine reads by key: {field, min, max, whole, unit[, 0 allowed]} (io/ranges.h).',
    ...lines,
    '',
  ].join('\n');
}

/**
 * The unit of every number a result gives, by key (the --table view formats each number by its key's unit): from
 * each numeric property of the result schemas, its array's entries and its record's values (the record's x-unit);
 * "" for a plain number. A key given two units is an error: the view looks units up by key.
 */
export function unitRows(files) {
  const units = new Map();
  const add = (key, unit, where) => {
    const old = units.get(key);
    if (old !== undefined && old !== unit) throw new Error(`${where}: '${key}' has two units: '${old}' and '${unit}'`);
    units.set(key, unit);
  };
  for (const { key, schema } of files.filter((f) => f.key.startsWith('results/'))) {
    const walk = (n, at) => {
      if (!n || typeof n !== 'object') return;
      // An object with a unit gives it to its numbers (peak_flops_per_s: {"bf16": ...}): their keys are not units' keys.
      for (const [k, q] of Object.entries(n['x-unit'] ? {} : (n.properties ?? {}))) {
        if (!q || typeof q !== 'object') continue;
        // A record or list defined once in the file ($defs) names its unit there.
        const p = q.$ref?.startsWith('#/$defs/') ? { ...schema.$defs[q.$ref.slice(8)], ...q } : q;
        const inner = [p, p.items, p.additionalProperties].find(isNumber);
        if (inner || p['x-unit'] !== undefined)
          add(k, p['x-unit'] ?? inner?.['x-unit'] ?? '', `${key}#${at}/properties/${k}`);
      }
      for (const [k, v] of Object.entries(n)) walk(v, `${at}/${k}`);
    };
    walk(schema, '');
  }
  return [...units].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

export function unitsTable(files) {
  return [
    '// Generated from schema/results by web/scripts/schema-generate.mjs: do not edit (edit the schema, then run it).',
    '// Every number\'s key in a result and its unit ("": a plain number), sorted by key (cli/table.cpp).',
    ...unitRows(files).map(([k, u]) => `    {"${k}", "${u}"},`),
    '',
  ].join('\n');
}

/** The same units for the page (web/src/state/export.ts: the CSV's unit column), so that it writes the schema's. */
export function resultUnitsModule(files) {
  return [
    '// Generated from schema/results by web/scripts/schema-generate.mjs: do not edit (edit the schema, then run it).',
    '// Every number\'s key in a result and its unit ("": a plain number), as the CLI\'s --table view reads them.',
    'export const RESULT_UNITS: Readonly<Record<string, string>> = {',
    ...unitRows(files).map(([k, u]) => `  ${k}: ${JSON.stringify(u)},`),
    '};',
    '',
  ].join('\n');
}

// ------------------------------------------------------------------------------------------------ choices and defaults

/** The query kinds the page builds (their choice lists and defaults are generated for it). */
export const PAGE_QUERIES = ['training_step', 'serving', 'plan_search', 'serving_search', 'plan_mesh', 'collective'];

/** Whole documents a query carries, which the page pastes or loads rather than sets row by row. */
const NOT_PAGE_ROWS = ['calibration', 'draft_model', 'hf_config'];

/**
 * Each page query's enums and defaults by the pointer under `query` they apply at: through $ref, allOf, anyOf and
 * if/then/else, as { choices: {pointer: [...]}, defaults: {pointer: value} }. An enum met twice at one pointer keeps
 * the values both allow.
 */
export function queryChoices(files, kind) {
  const byKey = new Map(files.map((f) => [f.key, f.schema]));
  const out = { choices: {}, defaults: {} };
  const at = (file, pointer) =>
    pointer
      .split('/')
      .slice(1)
      .reduce((n, t) => n?.[t.replaceAll('~1', '/').replaceAll('~0', '~')], byKey.get(file));
  const walk = (file, n, where, depth) => {
    if (!n || typeof n !== 'object' || depth > 24) return;
    if (n.$ref) {
      const [target, pointer = ''] = n.$ref.split('#');
      const f = target ? path.posix.normalize(path.posix.join(path.posix.dirname(file), target)) : file;
      walk(f, at(f, pointer), where, depth + 1);
    }
    const values = n.enum;
    if (values && where) {
      const old = out.choices[where];
      out.choices[where] = old ? old.filter((v) => values.includes(v)) : values;
    }
    if (n.default !== undefined && where) out.defaults[where] = n.default;
    for (const b of [...(n.allOf ?? []), ...(n.anyOf ?? []), ...(n.oneOf ?? []), n.then, n.else])
      walk(file, b, where, depth + 1);
    for (const [k, p] of Object.entries(n.properties ?? {}))
      if (!NOT_PAGE_ROWS.includes(k)) walk(file, p, `${where}/${k}`, depth + 1);
  };
  walk(`queries/${kind}.schema.json`, byKey.get(`queries/${kind}.schema.json`), '', 0);
  return out;
}

/** The page's module of them (web/src/engine/schema-choices.ts): its choice rows and defaults read the schema's. */
export function choicesModule(files) {
  const tables = PAGE_QUERIES.map((kind) => [kind, queryChoices(files, kind)]);
  // What the training queries share (their TrainingInput) is written once and spread into each.
  const [step, search] = ['training_step', 'plan_search'].map((k) => tables.find(([kind]) => kind === k)[1]);
  const shared = (part) =>
    Object.fromEntries(
      Object.entries(step[part]).filter(([k, v]) => JSON.stringify(search[part][k]) === JSON.stringify(v)),
    );
  const common = { choices: shared('choices'), defaults: shared('defaults') };
  const entries = (table, skip = {}) =>
    Object.keys(table)
      .filter((k) => !(k in skip))
      .sort()
      .map((k) => `    '${k}': ${JSON.stringify(table[k])},`);
  const block = (name, part, constName) => [
    `export const ${name} = {`,
    ...tables.flatMap(([kind, t]) => {
      const training = kind === 'training_step' || kind === 'plan_search';
      return [
        `  ${kind}: {`,
        ...(training ? [`    ...${constName},`] : []),
        ...entries(t[part], training ? common[part] : {}),
        '  },',
      ];
    }),
    '} as const;',
    '',
  ];
  return [
    '// Generated from schema/ by web/scripts/schema-generate.mjs: do not edit (edit the schema, then run it).',
    "// Each page query's enums and machine-readable defaults, by the pointer under `query` they apply at.",
    '',
    '/** What training_step and plan_search share (their TrainingInput). */',
    'const TRAINING_CHOICES = {',
    ...entries(common.choices).map((l) => l.slice(2)),
    '} as const;',
    'const TRAINING_DEFAULTS = {',
    ...entries(common.defaults).map((l) => l.slice(2)),
    '} as const;',
    '',
    "/** The shared enums (common.schema.json's $defs), by name. */",
    'export const SCHEMA_ENUMS = {',
    ...Object.entries(files.find((f) => f.key === 'common.schema.json').schema.$defs)
      .filter(([, d]) => Array.isArray(d.enum))
      .map(([name, d]) => `  ${name}: ${JSON.stringify(d.enum)},`),
    '} as const;',
    '',
    ...block('QUERY_CHOICES', 'choices', 'TRAINING_CHOICES'),
    ...block('QUERY_DEFAULTS', 'defaults', 'TRAINING_DEFAULTS'),
    'export type PageQueryKind = keyof typeof QUERY_CHOICES;',
    '',
  ].join('\n');
}

// ------------------------------------------------------------------------------------------------ TypeScript types

/** Each type's name: a file's root by its title, each $defs entry by its key (unique across the files). */
function typeNames(files) {
  const names = new Map(); // "file#pointer" -> name
  const taken = new Map();
  const name = (where, n) => {
    if (taken.has(n)) throw new Error(`two types named ${n}: ${taken.get(n)} and ${where}`);
    taken.set(n, where);
    names.set(where, n);
  };
  for (const { key, schema } of files) {
    for (const d of Object.keys(schema.$defs ?? {})) name(`${key}#/$defs/${d}`, d);
    // A root that only points at one of its $defs is that type; other roots are named by their title.
    if (schema.$ref?.startsWith('#/$defs/')) names.set(`${key}#`, schema.$ref.slice(8));
    else if (schema.title && (schema.type || schema.properties)) name(`${key}#`, schema.title);
  }
  return names;
}

const unitNote = (n) => (n['x-unit'] ? ` [${n['x-unit']}]` : '');

/**
 * One schema of every type for json-schema-to-typescript: cross-file $refs become refs to the named types, a ref
 * into the middle of a type is copied in, units go into the doc comments, and what the generator cannot read from
 * JSON Schema is given as tsType: a union for if/then dispatch (a scenario's query, a model or chip by preset or
 * inline), and Required<> for a type that requires keys of the one it extends.
 */
export function typesBundle(files) {
  const byKey = new Map(files.map((f) => [f.key, f.schema]));
  const names = typeNames(files);
  const nodeAt = (file, pointer) =>
    pointer
      .split('/')
      .slice(1)
      .reduce((n, t) => n[t.replaceAll('~1', '/').replaceAll('~0', '~')], byKey.get(file));
  const target = (file, ref) => {
    const [f, p = ''] = ref.split('#');
    return [f ? path.posix.normalize(path.posix.join(path.posix.dirname(file), f)) : file, p];
  };
  const refName = (file, ref) => names.get(target(file, ref).join('#'));
  const convert = (n, file) => {
    if (Array.isArray(n)) return n.map((x) => convert(x, file));
    if (!n || typeof n !== 'object') return n;
    if (n.$ref) {
      const named = refName(file, n.$ref);
      const [f, p] = target(file, n.$ref);
      const base = named ? { $ref: `#/$defs/${named}` } : convert(nodeAt(f, p), f);
      const { $ref, ...rest } = n;
      return Object.keys(rest).length
        ? {
            ...convert(rest, file),
            ...(named ? { allOf: [base] } : base),
            ...(rest.description ? { description: rest.description + unitNote(rest) } : {}),
          }
        : base;
    }
    const out = {};
    for (const [k, v] of Object.entries(n)) {
      // Annotations, and list lengths (TypeScript would make tuples of them), are the validator's.
      if (k.startsWith('x-') || ['$schema', '$defs', 'title', '$id', 'minItems', 'maxItems'].includes(k)) continue;
      out[k] = ['properties', 'patternProperties', '$defs'].includes(k)
        ? Object.fromEntries(Object.entries(v).map(([kk, vv]) => [kk, convert(vv, file)]))
        : convert(v, file);
    }
    if (n['x-unit']) out.description = (n.description ?? '') + unitNote(n);
    // Branches that only bound a typed value (0, or from the minimum: anyOf [{const: 0}, {minimum}]) type nothing.
    if (out.type && out.anyOf?.every((b) => !b.type && !b.$ref && !b.properties)) delete out.anyOf;
    return out;
  };
  const defs = {};
  for (const [where, name] of names) {
    const [file, pointer] = where.split('#');
    if (pointer === '' && byKey.get(file).$ref) continue; // the root is one of the file's $defs
    defs[name] = convert(nodeAt(file, pointer), file);
    if (file.startsWith('queries/') && pointer === '' && defs[name].properties?.kind)
      defs[name].required = [...new Set(['kind', ...(defs[name].required ?? [])])];
  }
  const tsName = (n) => (n?.$ref ? n.$ref.slice(8) : undefined);
  for (const [name, d] of Object.entries(defs)) {
    const branches = (n) =>
      n.if ? [...(n.then ? branches(n.then) : []), ...(n.else ? branches(n.else) : [])] : n.$ref ? [tsName(n)] : [];
    if (d.if && !d.properties) d.tsType = branches(d).join(' | ');
    else if (d.allOf?.length && d.allOf.every((x) => x.if))
      d.tsType = d.allOf.flatMap((x) => branches(x.then)).join(' | ');
    else if (
      d.required &&
      d.allOf?.some((x) => x.$ref) &&
      Object.keys(d.properties ?? {}).every((k) => defs[tsName(d.allOf.find((x) => x.$ref))]?.properties?.[k])
    ) {
      // Requires keys of the type it extends (its own properties only narrow those): that type, with them required.
      const base = tsName(d.allOf.find((x) => x.$ref));
      const keys = (list) => list.map((k) => `'${k}'`).join(' | ');
      // An overlay that requires keys of a nested object: that object's type with them required.
      const nested = Object.entries(d.properties ?? {})
        .filter(([, o]) => o.required)
        .map(([k, o]) => {
          const inner = `NonNullable<${base}['${k}']>`;
          return `{ ${k}${d.required.includes(k) ? '' : '?'}: ${inner} & Required<Pick<${inner}, ${keys(o.required)}>> }`;
        });
      d.tsType = [`${base}`, `Required<Pick<${base}, ${keys(d.required)}>>`, ...nested].join(' & ');
    }
  }
  return { title: 'SchemaTypes', type: 'object', additionalProperties: false, properties: {}, $defs: defs };
}

export async function schemaTypes(files) {
  const ts = await compile(typesBundle(files), 'SchemaTypes', {
    bannerComment: '',
    unreachableDefinitions: true,
    additionalProperties: false,
    format: true,
    strictIndexSignatures: false,
    maxItems: -1,
    style: { printWidth: 120, singleQuote: true },
  });
  return [
    '// Generated from schema/ by web/scripts/schema-generate.mjs with json-schema-to-typescript: do not edit (edit the',
    '// schema, then run it). src/engine/types.ts re-exports these under the names the site imports.',
    '',
    ts
      .replace(
        /\/\*\*\n \* This interface was referenced by `SchemaTypes`'s JSON-Schema\n \* via the `definition` "\w+".\n \*\/\n/g,
        '',
      )
      .replace(
        /\n \*\n \* This interface was referenced by `SchemaTypes`'s JSON-Schema\n \* via the `definition` "\w+".\n/g,
        '\n',
      )
      .replace(/export interface SchemaTypes \{\}\n/, '')
      // Object types as type aliases, not interfaces: a result is then a Record<string, ...> where a caller needs one.
      .replace(/^export interface (\w+) \{$([\s\S]*?)^\}$/gm, 'export type $1 = {$2};'),
  ].join('\n');
}

// ------------------------------------------------------------------------------------------------ docs/api.md

/** C's %g, as tests/unit/test_docs.cpp prints a range. */
export function cg(v) {
  if (v === 0) return '0';
  const exp = Math.floor(Math.log10(Math.abs(Number(v.toPrecision(6)))));
  if (exp < -4 || exp >= 6) {
    const [m, e] = v.toExponential(5).split('e');
    const n = Number(e);
    return `${m.replace(/\.?0+$/, '')}e${n < 0 ? '-' : '+'}${String(Math.abs(n)).padStart(2, '0')}`;
  }
  return String(Number(v.toPrecision(6)));
}

export function rangesDoc(files) {
  return [
    '| field | min | max | kind | unit |',
    '|---|---|---|---|---|',
    ...rangeRows(files).map(
      (r) =>
        `| \`${r.name}\` | ${r.zeroOk ? '0 or ' : ''}${cg(r.min)} | ${cg(r.max)} | ${r.whole ? 'whole' : ''} | ${r.unit} |`,
    ),
    '',
  ].join('\n');
}

const cell = (t) =>
  String(t ?? '')
    .replaceAll('|', '\\|')
    .replaceAll('\n', ' ');

/**
 * A reader of the keys of a part of the schema: (file, pointer) -> {description, rows}, one row per key as {key,
 * type (for people), required, range, unit, meaning, python (the annotation of a Python argument)}, nested objects
 * as dotted keys. docs/api.md's tables and the Python helpers' signatures are written from it.
 */
function keyReader(files) {
  const byKey = new Map(files.map((f) => [f.key, f.schema]));
  const names = typeNames(files);
  const resolve = (file, ref) => {
    const [f, p = ''] = ref.split('#');
    const tf = f ? path.posix.normalize(path.posix.join(path.posix.dirname(file), f)) : file;
    return [tf, p];
  };
  const nodeAt = (file, pointer) =>
    pointer
      .split('/')
      .slice(1)
      .reduce((n, t) => n[t.replaceAll('~1', '/').replaceAll('~0', '~')], byKey.get(file));
  const nameOf = (file, ref) => {
    const [f, p] = resolve(file, ref);
    return names.get(`${f}#${p}`);
  };
  // A value's type for people; `inline` collects nested objects to list under dotted keys.
  const typeOf = (n, file, depth = 0) => {
    if (n === false) return 'not allowed';
    if (n.$ref) {
      const [f, p] = resolve(file, n.$ref);
      const target = nodeAt(f, p);
      const named = nameOf(file, n.$ref);
      // A named object or union reads better by name (its table is below or in the text); a named scalar by its type.
      if (named && (target.properties || target.anyOf || target.allOf || target.if || target.$ref)) return named;
      return depth < 3 ? typeOf(target, f, depth + 1) : 'value';
    }
    if (n.const !== undefined) return `\`${JSON.stringify(n.const)}\``;
    if (n.enum) return n.enum.map((v) => `\`${v}\``).join(' | ');
    if (n.anyOf) return n.anyOf.map((b) => typeOf(b, file, depth + 1)).join(' or ');
    const t = Array.isArray(n.type) ? n.type.filter((x) => x !== 'null').join(' or ') : n.type;
    if (t === 'array') return `list of ${n.items ? typeOf(n.items, file, depth + 1) : 'values'}`;
    if (t === 'integer') return 'whole number';
    if (t === 'object' && n.additionalProperties && typeof n.additionalProperties === 'object')
      return `{name: ${typeOf(n.additionalProperties, file, depth + 1)}}`;
    return t ?? 'value';
  };
  const rangeText = (n) => {
    const m = [n, n.items, typeof n.additionalProperties === 'object' ? n.additionalProperties : null].find(
      (x) => x && (x.minimum !== undefined || x.maximum !== undefined || x.anyOf),
    );
    if (!m) return '';
    const r = rangeOf(m);
    if (r.min === undefined && r.max === undefined) return '';
    if (r.max === undefined) return `at least ${cg(r.min)}`;
    return `${r.zeroOk ? '0 or ' : ''}${r.min !== undefined ? cg(r.min) : ''} to ${cg(r.max)}`;
  };
  // The annotation of a Python argument taking the value (a union of different types is Any).
  const pythonOf = (n, file, depth = 0) => {
    if (n.$ref)
      return depth < 4 ? pythonOf(nodeAt(...resolve(file, n.$ref)), resolve(file, n.$ref)[0], depth + 1) : 'Any';
    if (n.enum || typeof n.const === 'string') return 'str';
    if (n.anyOf) {
      const kinds = [...new Set(n.anyOf.map((b) => pythonOf(b, file, depth + 1)))];
      return kinds.length === 1 ? kinds[0] : 'Any';
    }
    return (
      { integer: 'int', number: 'float', boolean: 'bool', string: 'str', array: 'list', object: 'dict' }[n.type] ??
      'Any'
    );
  };
  const rows = (n, file, prefix, required, out) => {
    for (const [k, p0] of Object.entries(n.properties ?? {})) {
      if (k === 'kind' || k === '$schema' || p0 === false) continue;
      let p = p0,
        pf = file;
      const named = p.$ref ? nameOf(file, p.$ref) : undefined;
      if (p.$ref && !named) [pf, p] = (([f, q]) => [f, { ...nodeAt(f, q), ...p0 }])(resolve(file, p.$ref));
      const description =
        p0.description ??
        (named
          ? (byKey.get(resolve(file, p0.$ref)[0])?.$defs?.[named]?.description ??
            nodeAt(...resolve(file, p0.$ref)).description)
          : p.description);
      const unit = p0['x-unit'] ?? p['x-unit'] ?? p.items?.['x-unit'] ?? '';
      out.push({
        key: `${prefix}${k}`,
        type: typeOf(p0, file),
        required: required.includes(k),
        range: rangeText(p),
        unit,
        meaning: description ?? '',
        python: pythonOf(p0, file),
      });
      if (!named && p.type === 'object' && p.properties) rows(p, pf, `${prefix}${k}.`, p.required ?? [], out);
    }
  };
  return (file, pointer) => {
    const n = nodeAt(file, pointer);
    const out = [];
    const parts = [n, ...(n.allOf ?? []).filter((x) => x.$ref).map((x) => nodeAt(...resolve(file, x.$ref)))];
    for (const part of parts) rows(part, file, '', [...(n.required ?? []), ...(part.required ?? [])], out);
    return { description: n.description, rows: out };
  };
}

/** The tables of every key: the scenario, its parts and each query's arguments (nested objects as dotted keys). */
export function keysDoc(files) {
  const read = keyReader(files);
  const table = (title, file, pointer) => {
    const { description, rows } = read(file, pointer);
    return [
      `#### ${title}`,
      '',
      cell(description),
      '',
      '| key | type | required | range | unit | meaning |',
      '|---|---|---|---|---|---|',
      ...rows.map(
        (r) =>
          `| \`${r.key}\` | ${cell(r.type)} | ${r.required ? 'yes' : ''} | ${r.range} | ${cell(r.unit)} | ${cell(r.meaning)} |`,
      ),
      '',
    ].join('\n');
  };
  const kinds = files.find((f) => f.key === 'scenario.schema.json').schema.$defs.Query.properties.kind.enum;
  return [
    'Every key of a scenario, from the schema (`schema/`, the source of these tables): `range` is the accepted range',
    '(whole numbers where the type says so), defaults are in brackets in the meaning.',
    '',
    table('Scenario', 'scenario.schema.json', ''),
    table('Mesh', 'scenario.schema.json', '/$defs/Mesh'),
    table('HardwarePresetRef', 'hardware.schema.json', '/$defs/HardwarePresetRef'),
    table('ModelPresetRef', 'model.schema.json', '/$defs/ModelPresetRef'),
    table('HfModelRef', 'model.schema.json', '/$defs/HfModelRef'),
    table('SubAxis', 'common.schema.json', '/$defs/SubAxis'),
    table('Efficiency', 'common.schema.json', '/$defs/Efficiency'),
    table('TrainingInput (training_step, plan_search)', 'queries/training_input.schema.json', ''),
    ...kinds.map((k) => table(`\`${k}\` arguments`, `queries/${k}.schema.json`, '')),
  ].join('\n');
}

/** The helpers' queries whose arguments the Python module lists (python/scalescope/queries.py). */
export const PYTHON_QUERIES = ['training_step', 'serving', 'plan_search', 'serving_search'];

/** python/scalescope/query_arguments.py: each helper query's top-level arguments as (name, annotation, help). */
export function pythonArguments(files) {
  const read = keyReader(files);
  const py = (t) => JSON.stringify(t); // a JSON string is a Python string literal for this text
  // The meaning, then the choices or the entries' type, the range and the unit (the annotation says the rest).
  const help = (r) => {
    const facts = [r.type.includes('`') || r.type.startsWith('list of') ? r.type : '', r.range, r.unit].filter(Boolean);
    return `${r.meaning}${facts.length ? ` (${facts.join('; ')})` : ''}`.replaceAll('`', '');
  };
  // Adjacent string literals of at most 100 characters each, broken at spaces, one per line.
  const literals = (text, indent) => {
    const pieces = [''];
    for (const word of text.split(' ')) {
      const last = pieces.length - 1;
      if (pieces[last] && (pieces[last] + ' ' + word).length > 100) pieces.push(' ' + word);
      else pieces[last] += (pieces[last] ? ' ' : '') + word;
    }
    return pieces.map((p) => indent + py(p)).join('\n');
  };
  const topLevel = (file) => read(file, '').rows.filter((r) => !r.key.includes('.'));
  const entry = (r, indent) => [`${indent}(${py(r.key)}, ${py(r.python)},`, `${literals(help(r), `${indent} `)}),`];
  // training_step and plan_search both extend training_input: its arguments are written once and spread into each.
  const shared = topLevel('queries/training_input.schema.json');
  const same = (a, b) => a.key === b.key && a.python === b.python && help(a) === help(b);
  const lines = [
    '"""The arguments of the queries the helpers ask (training_step, serving, plan_search, serving_search), from the',
    'schema (schema/queries/): their signatures and help() list them. Generated by web/scripts/schema-generate.mjs from',
    'schema/: do not edit."""',
    '',
    '#: The arguments training_step and plan_search share (schema/queries/training_input.schema.json).',
    '_TRAINING_INPUT: tuple[tuple[str, str, str], ...] = (',
    ...shared.flatMap((r) => entry(r, '    ')),
    ')',
    '',
    "#: Each query's arguments as (name, annotation, help): the schema's description, choices, range and unit.",
    'QUERY_ARGUMENTS: dict[str, tuple[tuple[str, str, str], ...]] = {',
  ];
  for (const kind of PYTHON_QUERIES) {
    lines.push(`    ${py(kind)}: (`);
    const rows = topLevel(`queries/${kind}.schema.json`);
    const spreads = shared.every((s) => rows.some((r) => same(r, s)));
    for (const r of rows.filter((r) => !spreads || !shared.some((s) => same(r, s))))
      lines.push(...entry(r, '        '));
    if (spreads) lines.push('        *_TRAINING_INPUT,');
    lines.push('    ),');
  }
  return [...lines, '}', ''].join('\n');
}

/** docs/api.md with each generated block (between its markers) as the schema says. */
export function apiDoc(text, files) {
  const blocks = { ranges: rangesDoc(files), keys: keysDoc(files) };
  return text.replace(
    /(<!-- generated: node web\/scripts\/schema-generate\.mjs \((\w+)\) -->\n)[\s\S]*?(<!-- end generated -->)/g,
    (_, open, name, close) => {
      if (!(name in blocks)) throw new Error(`docs/api.md: no generated block '${name}'`);
      return `${open}${blocks[name]}${close}`;
    },
  );
}

// ------------------------------------------------------------------------------------------------ the files

/** [path from the repository, its generated text] for every artefact. */
export async function generated(files = readSchemas()) {
  const api = path.join(REPO, 'docs/api.md');
  return [
    ['web/src/engine/schema-types.ts', await schemaTypes(files)],
    ['core/io/ranges_table.inc', rangesTable(files)],
    ['cli/units_table.inc', unitsTable(files)],
    ['web/src/state/result-units.ts', resultUnitsModule(files)],
    ['web/src/engine/schema-choices.ts', choicesModule(files)],
    ['docs/api.md', apiDoc(fs.readFileSync(api, 'utf8'), files)],
    ['python/scalescope/query_arguments.py', pythonArguments(files)],
  ];
}

/** The artefacts whose text differs from what the schema gives. */
export async function outOfDate(files = readSchemas()) {
  return (await generated(files))
    .filter(
      ([file, text]) =>
        !fs.existsSync(path.join(REPO, file)) || fs.readFileSync(path.join(REPO, file), 'utf8') !== text,
    )
    .map(([file]) => file);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  if (process.argv.includes('--check')) {
    const stale = await outOfDate();
    for (const f of stale) console.error(`${f} is out of date with schema/: run node web/scripts/schema-generate.mjs`);
    process.exit(stale.length ? 1 : 0);
  }
  for (const [file, text] of await generated()) fs.writeFileSync(path.join(REPO, file), text);
}
