// The schema (schema/**/*.schema.json) loaded into Ajv (draft 2020-12), each file under its path in schema/ so that
// the files' relative $refs resolve as an editor resolves them. The project's annotations (x-unit, x-range) are
// declared keywords: Ajv stays strict about everything else.
import fs from 'node:fs';
import path from 'node:path';
import Ajv2020 from 'ajv/dist/2020.js';
import { REPO } from './schema-corpus.mjs';
import { schemaFiles } from './schema-format.mjs';

export const SCHEMA_DIR = path.join(REPO, 'schema');
/** The annotations the project adds to JSON Schema (schema/README.md). */
export const ANNOTATIONS = ['x-unit', 'x-range'];

/** Every schema file as {key: its path under schema/, schema}. */
export function readSchemas() {
  return schemaFiles().map((file) => ({
    key: path.relative(SCHEMA_DIR, file),
    schema: JSON.parse(fs.readFileSync(file, 'utf8')),
  }));
}

/** An Ajv instance holding every schema file; `ajv.getSchema('scenario.schema.json')` validates a scenario. */
export function loadAjv() {
  const ajv = new Ajv2020({
    allErrors: true,
    strict: true,
    strictTypes: false,
    strictRequired: false,
    allowUnionTypes: true,
  });
  for (const k of ANNOTATIONS) ajv.addKeyword(k);
  for (const { key, schema } of readSchemas()) ajv.addSchema(schema, key);
  return ajv;
}

/**
 * An Ajv error list as the engine would list it: each error at the JSON pointer of the value it is about (an
 * unknown key at the key's own path), keeping only the deepest (an error whose path is a prefix of another's says
 * the same thing less precisely: anyOf's branches, if/then's "must match then").
 */
export function errorPaths(errors) {
  const paths = new Set(
    (errors ?? []).map((e) => {
      const extra = e.params?.additionalProperty ?? e.params?.unevaluatedProperty;
      if (extra !== undefined) return `${e.instancePath}/${String(extra).replaceAll('~', '~0').replaceAll('/', '~1')}`;
      if (e.keyword === 'false schema') return e.instancePath;
      if (e.keyword === 'required')
        return `${e.instancePath}/${String(e.params.missingProperty).replaceAll('~', '~0').replaceAll('/', '~1')}`;
      return e.instancePath;
    }),
  );
  return [...paths].filter((p) => ![...paths].some((q) => q !== p && q.startsWith(`${p}/`))).sort();
}
