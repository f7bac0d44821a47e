// The schema (schema/) for the web tests: the problems a value has against one of its types, as "path message"
// lines (none: it is one). Results are closed objects: a key the engine gives and the schema lacks is a problem.
import { loadAjv } from '../scripts/schema-load.mjs';

const ajv = loadAjv();

/** `type` is a schema file and an optional pointer: 'answers.schema.json', 'results/shared.schema.json#/$defs/SearchedPlan'. */
export function schemaProblems(type: string, value: unknown): string[] {
  const validate = ajv.getSchema(type);
  if (!validate) throw new Error(`no schema ${type}`);
  return validate(value)
    ? []
    : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message} ${JSON.stringify(e.params)}`);
}
