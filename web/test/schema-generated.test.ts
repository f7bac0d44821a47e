// What the schema is the source of is generated from it and current (issue 19): the TypeScript types
// (src/engine/schema-types.ts), the engine's range table (core/io/ranges_table.inc), the --table view's units
// (cli/units_table.inc) and docs/api.md's key and range tables. After a schema edit: node web/scripts/schema-generate.mjs.
// The schema files are formatted one way (web/scripts/schema-format.mjs), and every query kind the engine answers
// has its arguments' and its result's schema, registered where scenarios and answers dispatch on the kind. The site
// ships the whole folder (schema-plugin.ts).
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { evaluateNative } from '../scripts/schema-corpus.mjs';
import { formatJson, schemaFiles } from '../scripts/schema-format.mjs';
import { outOfDate } from '../scripts/schema-generate.mjs';
import { SCHEMA_DIR, readSchemas } from '../scripts/schema-load.mjs';
import { schemaAssets } from '../schema-plugin';

describe('the schema is the source', () => {
  it('of the generated files, which are current', async () => {
    expect(await outOfDate()).toEqual([]);
  });

  it('that the site ships whole, at its schema/ address', () => {
    expect(schemaAssets()).toEqual((readSchemas() as { key: string }[]).map((f) => f.key).sort());
    expect(schemaAssets()).toContain('scenario.schema.json');
  });

  it('whose every key has a one-line description', () => {
    const undescribed: string[] = [];
    for (const { key, schema } of readSchemas() as { key: string; schema: unknown }[]) {
      const walk = (n: unknown, at: string): void => {
        if (!n || typeof n !== 'object' || at.endsWith('/if')) return; // a condition describes nothing
        for (const [k, p] of Object.entries((n as { properties?: Record<string, unknown> }).properties ?? {})) {
          const q = p as Record<string, unknown>;
          // A named type ($ref) is described where it is defined; an overlay that only requires keys adds nothing.
          const overlay = Object.keys(q).every((x) => x === 'required');
          if (q && typeof q === 'object' && !q['description'] && !(q['$ref'] && !q['type']) && !overlay)
            undescribed.push(`${key}#${at}/${k}`);
        }
        for (const [k, v] of Object.entries(n)) walk(v, `${at}/${k}`);
      };
      walk(schema, '');
    }
    expect(undescribed).toEqual([]);
  });

  it('whose files are formatted', () => {
    const unformatted = (schemaFiles() as string[]).filter(
      (f) => fs.readFileSync(f, 'utf8') !== formatJson(JSON.parse(fs.readFileSync(f, 'utf8'))) + '\n',
    );
    expect(unformatted.map((f) => path.relative(SCHEMA_DIR, f))).toEqual([]);
  });

  it('of every query kind the engine answers: its arguments, its result, both dispatches', () => {
    const [answer] = evaluateNative([{ query: { kind: '?' } }]) as { diagnostics: { message: string }[] }[];
    const kinds = /valid: (.*)$/.exec(answer!.diagnostics[0]!.message)![1]!.split(', ').sort();
    const schemas = new Map(
      (readSchemas() as { key: string; schema: Record<string, unknown> }[]).map((f) => [f.key, f.schema]),
    );
    const files = (dir: string) =>
      [...schemas.keys()]
        .filter((k) => k.startsWith(`${dir}/`))
        .map((k) => k.slice(dir.length + 1, -'.schema.json'.length));
    expect(
      files('queries')
        .filter((k) => k !== 'training_input')
        .sort(),
    ).toEqual(kinds);
    expect(
      files('results')
        .filter((k) => k !== 'shared')
        .sort(),
    ).toEqual(kinds);
    const scenario = schemas.get('scenario.schema.json') as {
      $defs: { Query: { properties: { kind: { enum: string[] } }; allOf: { then: { $ref: string } }[] } };
    };
    expect([...scenario.$defs.Query.properties.kind.enum].sort()).toEqual(kinds);
    expect(scenario.$defs.Query.allOf.map((x) => x.then.$ref).sort()).toEqual(
      kinds.map((k) => `queries/${k}.schema.json`).sort(),
    );
    const answers = schemas.get('answers.schema.json') as {
      properties: { query: { enum: string[] } };
      allOf: { then: { properties: { result: { $ref: string } } } }[];
    };
    expect([...answers.properties.query.enum].sort()).toEqual(kinds);
    expect(answers.allOf.map((x) => x.then.properties.result.$ref).sort()).toEqual(
      kinds.map((k) => `results/${k}.schema.json`).sort(),
    );
  });
});
