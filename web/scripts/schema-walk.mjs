// Walks a document with the schema: for every object in it, the schema nodes that apply there (through $ref,
// allOf, if/then/else and the anyOf branches it matches), the keys they declare and whether they leave the object
// open to other keys. The readers' test holds each object's keys against the engine's (web/test/schema-readers.test.ts).
import path from 'node:path';
import { readSchemas } from './schema-load.mjs';

const unescape = (t) => t.replaceAll('~1', '/').replaceAll('~0', '~');

export class SchemaWalker {
  constructor(ajv) {
    this.ajv = ajv;
    this.files = new Map(readSchemas().map(({ key, schema }) => [key, schema]));
  }

  /** The node at `file#pointer`. */
  node(file, pointer) {
    let n = this.files.get(file);
    if (n === undefined) throw new Error(`no schema file ${file}`);
    for (const t of pointer.split('/').slice(1)) n = n[unescape(t)];
    if (n === undefined) throw new Error(`no schema node ${file}#${pointer}`);
    return n;
  }

  /** Where a $ref in `file` points: [file, pointer]. */
  resolve(file, ref) {
    const [target, pointer = ''] = ref.split('#');
    return [target ? path.posix.normalize(path.posix.join(path.posix.dirname(file), target)) : file, pointer];
  }

  matches(file, pointer, value) {
    const validate = this.ajv.getSchema(`${file}#${pointer}`);
    if (!validate) throw new Error(`Ajv has no ${file}#${pointer}`);
    return validate(value);
  }

  /** The nodes that apply to `value` at file#pointer, as [file, pointer, node] (the node itself first). */
  applicable(file, pointer, value, out = []) {
    const n = this.node(file, pointer);
    if (typeof n !== 'object') return out;
    out.push([file, pointer, n]);
    if (n.$ref) this.applicable(...this.resolve(file, n.$ref), value, out);
    (n.allOf ?? []).forEach((_, i) => this.applicable(file, `${pointer}/allOf/${i}`, value, out));
    for (const key of ['anyOf', 'oneOf'])
      (n[key] ?? []).forEach((_, i) => {
        if (this.matches(file, `${pointer}/${key}/${i}`, value))
          this.applicable(file, `${pointer}/${key}/${i}`, value, out);
      });
    if (n.if !== undefined) {
      const branch = this.matches(file, `${pointer}/if`, value) ? 'then' : 'else';
      if (n[branch] !== undefined) this.applicable(file, `${pointer}/${branch}`, value, out);
    }
    return out;
  }

  /**
   * Every object of `doc` (validated from file#pointer) as {pointer, declared: Set of keys, open, declarers:
   * ["file#pointer" of each node with properties]}.
   */
  objects(doc, file, pointer = '') {
    const out = [];
    const walk = (value, at, nodes) => {
      if (Array.isArray(value)) {
        value.forEach((x, i) => {
          const items = nodes.filter(([, , n]) => n.items !== undefined).map(([f, p]) => [f, `${p}/items`]);
          walk(
            x,
            `${at}/${i}`,
            items.flatMap(([f, p]) => this.applicable(f, p, x)),
          );
        });
        return;
      }
      if (!value || typeof value !== 'object') return;
      const declared = new Set(),
        declarers = [];
      let open = true;
      for (const [f, p, n] of nodes) {
        if (n.properties) {
          declarers.push(`${f}#${p}`);
          for (const [k, v] of Object.entries(n.properties)) if (v !== false) declared.add(k); // false: forbidden here
        }
        if (n.additionalProperties === false || n.unevaluatedProperties === false) open = false;
      }
      out.push({ pointer: at, declared, open, declarers });
      for (const [k, x] of Object.entries(value)) {
        const child = [];
        for (const [f, p, n] of nodes) {
          if (n.properties && k in n.properties)
            child.push(...this.applicable(f, `${p}/properties/${k.replaceAll('~', '~0').replaceAll('/', '~1')}`, x));
          else if (n.additionalProperties && typeof n.additionalProperties === 'object')
            child.push(...this.applicable(f, `${p}/additionalProperties`, x));
        }
        walk(x, `${at}/${k.replaceAll('~', '~0').replaceAll('/', '~1')}`, child);
      }
    };
    walk(doc, pointer, this.applicable(file, pointer, doc));
    return out;
  }
}
