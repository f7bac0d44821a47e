#!/usr/bin/env node
// The page keeps no engine rule (issue 39): a static reading of web/src's TypeScript for the four kinds of rule the
// page used to keep, each found in its code before (web/test/page-rules.test.ts holds one such line per kind):
//   enum-copy      an array of strings that is one of the schema's enums, in its order: the engine's list, copied
//                  (the page reads web/src/engine/schema-choices.ts instead; a subset a widget offers, or the
//                  strategies in the page's own order, is a choice of its own)
//   default-copy   `x.key ?? value` where the schema gives `key` that machine-readable default: the engine's default,
//                  restated (read QUERY_DEFAULTS)
//   enum-table     an object mapping two or more values of a schema enum to values of a schema enum (the precision
//                  -> dtype table): an engine rule as data (ask the engine)
//   shape-formula  arithmetic on a model's shape fields (layers, d_model, d_ff, heads, ...): *, **, + or -, a Math
//                  call, or a division by anything but another shape field (the model-size scaling rule). A ratio of
//                  two shape fields, shown as what a row means (F / D), is not a formula.
// The generated files are the schema's own words and are not read.
//   node web/scripts/page-rules.mjs [DIR]   lists the findings under DIR (default web/src), exits 1 if any
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { REPO } from './schema-corpus.mjs';
import { readSchemas } from './schema-load.mjs';

/** Files written by schema-generate.mjs from the schema: the schema's lists and defaults, where they belong. */
const GENERATED = ['engine/schema-types.ts', 'engine/schema-choices.ts', 'state/result-units.ts'];

/** A model's integer shape fields (model.schema.json ModelFields): what the model-size scaling rule computed on. */
export const SHAPE_FIELDS = [
  'layers',
  'd_model',
  'd_ff',
  'expert_d_ff',
  'heads',
  'kv_heads',
  'head_dim',
  'vocab',
  'experts',
  'active_experts',
];

/** The schema's string enums (two values or more) and its machine-readable defaults by key, from the input files. */
export function schemaFacts(files = readSchemas()) {
  const enums = [];
  const defaults = new Map();
  const walk = (n) => {
    if (Array.isArray(n)) return n.forEach(walk);
    if (!n || typeof n !== 'object') return;
    if (Array.isArray(n.enum) && n.enum.filter((v) => typeof v === 'string').length >= 2)
      enums.push(n.enum.filter((v) => typeof v === 'string'));
    for (const [k, p] of Object.entries(n.properties ?? {}))
      if (p && typeof p === 'object' && p.default !== undefined) defaults.set(k, p.default);
    Object.values(n).forEach(walk);
  };
  for (const { key, schema } of files) if (!key.startsWith('results/') && key !== 'answers.schema.json') walk(schema);
  return { enums, defaults };
}

// (In the schema's order: a list the page orders its own way, outermost strategy first, is a presentation.)
const sameList = (a, b) => a.length === b.length && a.every((x, i) => b[i] === x);
const nameOf = (n) =>
  ts.isPropertyAccessExpression(n)
    ? n.name.text
    : ts.isElementAccessExpression(n) && ts.isStringLiteral(n.argumentExpression)
      ? n.argumentExpression.text
      : undefined;
const literalOf = (n) =>
  ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n)
    ? n.text
    : ts.isNumericLiteral(n)
      ? Number(n.text)
      : n.kind === ts.SyntaxKind.TrueKeyword
        ? true
        : n.kind === ts.SyntaxKind.FalseKeyword
          ? false
          : undefined;
const unwrap = (n) => (ts.isParenthesizedExpression(n) || ts.isAsExpression(n) ? unwrap(n.expression) : n);
const isShape = (n) => SHAPE_FIELDS.includes(nameOf(unwrap(n)) ?? '');

const ARITHMETIC = new Set([
  ts.SyntaxKind.AsteriskToken,
  ts.SyntaxKind.AsteriskAsteriskToken,
  ts.SyntaxKind.PlusToken,
  ts.SyntaxKind.MinusToken,
  ts.SyntaxKind.SlashToken,
  ts.SyntaxKind.PercentToken,
]);

/** The findings in one file's text: [{file, line, rule, text}]. */
export function findingsIn(file, text, facts) {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const out = [];
  const add = (node, rule) => {
    const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
    out.push({ file, line, rule, text: node.getText(source).replace(/\s+/g, ' ').slice(0, 100) });
  };
  const isEnumValue = (v) => typeof v === 'string' && facts.enums.some((e) => e.includes(v));
  const visit = (node) => {
    if (ts.isArrayLiteralExpression(node)) {
      const values = node.elements.map(literalOf);
      if (
        values.length >= 2 &&
        values.every((v) => typeof v === 'string') &&
        facts.enums.some((e) => sameList(e, values))
      )
        add(node, 'enum-copy');
    } else if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.QuestionQuestionToken) {
      const key = nameOf(unwrap(node.left));
      const value = literalOf(unwrap(node.right));
      if (key && value !== undefined && facts.defaults.has(key) && facts.defaults.get(key) === value)
        add(node, 'default-copy');
    } else if (ts.isObjectLiteralExpression(node)) {
      const pairs = node.properties
        .filter(ts.isPropertyAssignment)
        .map((p) => [p.name.getText(source).replace(/^['"]|['"]$/g, ''), literalOf(p.initializer)]);
      const table = pairs.filter(([k, v]) => isEnumValue(k) && isEnumValue(v));
      if (table.length >= 2 && facts.enums.some((e) => table.filter(([k]) => e.includes(k)).length >= 2))
        add(node, 'enum-table');
    } else if (ts.isBinaryExpression(node) && ARITHMETIC.has(node.operatorToken.kind)) {
      const [a, b] = [node.left, node.right];
      const ratio = node.operatorToken.kind === ts.SyntaxKind.SlashToken && isShape(a) && isShape(b);
      if ((isShape(a) || isShape(b)) && !ratio) add(node, 'shape-formula');
    } else if (
      ts.isCallExpression(node) &&
      ts.isPropertyAccessExpression(node.expression) &&
      node.expression.expression.getText(source) === 'Math' &&
      node.arguments.some(isShape)
    )
      add(node, 'shape-formula');
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

/** The findings under a source folder (every .ts file but the generated ones). */
export function pageRuleFindings(dir = path.join(REPO, 'web/src'), facts = schemaFacts()) {
  const files = fs
    .readdirSync(dir, { recursive: true })
    .filter((f) => f.endsWith('.ts') && !GENERATED.includes(f.split(path.sep).join('/')))
    .sort();
  return files.flatMap((f) => findingsIn(f, fs.readFileSync(path.join(dir, f), 'utf8'), facts));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const found = pageRuleFindings(process.argv[2] ? path.resolve(process.argv[2]) : undefined);
  for (const f of found) console.log(`${f.file}:${f.line} ${f.rule}: ${f.text}`);
  console.log(`${found.length} engine rule${found.length === 1 ? '' : 's'} found in the page`);
  process.exit(found.length ? 1 : 0);
}
