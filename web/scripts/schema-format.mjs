#!/usr/bin/env node
// Formats schema/**/*.json the one way the project writes them (schema/README.md): an object or array that fits in
// 120 columns on one line, else one key per line; keys in the order written. A development aid: run it after an
// edit (node web/scripts/schema-format.mjs [file ...]; no files: every schema file), or with --check to list files
// that it would change.
import fs from 'node:fs';
import path from 'node:path';
import { REPO } from './schema-corpus.mjs';

const WIDTH = 120;

const flatJson = (v) =>
  v === null || typeof v !== 'object'
    ? JSON.stringify(v)
    : Array.isArray(v)
      ? `[${v.map(flatJson).join(', ')}]`
      : `{${Object.entries(v)
          .map(([k, x]) => `${JSON.stringify(k)}: ${flatJson(x)}`)
          .join(', ')}}`;

export function formatJson(value, indent = 0, prefix = '') {
  const flat = flatJson(value);
  if (indent + prefix.length + flat.length <= WIDTH || value === null || typeof value !== 'object') return flat;
  const pad = ' '.repeat(indent + 2);
  if (Array.isArray(value) && value.every((v) => v === null || typeof v !== 'object')) {
    // Scalars fill each line.
    const lines = [''];
    for (const v of value.map((x) => JSON.stringify(x))) {
      if (lines.at(-1) && pad.length + lines.at(-1).length + v.length + 2 > WIDTH) lines.push('');
      lines[lines.length - 1] += (lines.at(-1) ? ' ' : '') + v + ',';
    }
    return `[\n${lines
      .map((l) => pad + l)
      .join('\n')
      .slice(0, -1)}\n${' '.repeat(indent)}]`;
  }
  const entries = Array.isArray(value)
    ? value.map((v) => pad + formatJson(v, indent + 2))
    : Object.entries(value).map(
        ([k, v]) => `${pad}${JSON.stringify(k)}: ${formatJson(v, indent + 2, `${JSON.stringify(k)}: `)}`,
      );
  const [open, close] = Array.isArray(value) ? ['[', ']'] : ['{', '}'];
  return `${open}\n${entries.join(',\n')}\n${' '.repeat(indent)}${close}`;
}

export function schemaFiles() {
  const out = [];
  const walk = (dir) => {
    for (const f of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      if (f.isDirectory()) walk(path.join(dir, f.name));
      else if (f.name.endsWith('.schema.json')) out.push(path.join(dir, f.name));
    }
  };
  walk(path.join(REPO, 'schema'));
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const check = process.argv.includes('--check');
  const files = process.argv.slice(2).filter((a) => a !== '--check');
  let changed = 0;
  for (const file of files.length ? files : schemaFiles()) {
    const text = fs.readFileSync(file, 'utf8');
    const formatted = formatJson(JSON.parse(text)) + '\n';
    if (formatted === text) continue;
    changed++;
    if (check) console.log(`${path.relative(REPO, file)} is not formatted`);
    else fs.writeFileSync(file, formatted);
  }
  if (check && changed) process.exit(1);
}
