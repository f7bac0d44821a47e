// chapters/numbers.json -> one formatted value per reference, each computed by the real engine (the chapter build
// hands in the wasm module's `evaluate`). Every problem is collected, not just the first: a scenario the engine
// rejects (ok = false), a path that reaches nothing or no number, a non-finite value, an unknown format.
import { formatNumber, isFormat, FORMATS, type NumberFormat } from './format.ts';

export interface ResolvedNumber {
  name: string;
  value: number;
  text: string;
  format: NumberFormat;
  path: string;
}

export interface ResolvedNumbers {
  numbers: Map<string, ResolvedNumber>;
  errors: string[];
}

const NAME_RE = /^[a-z][a-z0-9_]*$/;

/** RFC 6901 JSON pointer ("/result/sweep/3/step_s"); undefined when it reaches nothing. */
export function jsonPointer(doc: unknown, pointer: string): unknown {
  if (pointer === '') return doc;
  if (!pointer.startsWith('/')) return undefined;
  let node: unknown = doc;
  for (const raw of pointer.slice(1).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(node)) {
      if (!/^(0|[1-9]\d*)$/.test(key)) return undefined;
      node = node[Number(key)];
    } else if (node !== null && typeof node === 'object' && Object.prototype.hasOwnProperty.call(node, key)) {
      node = (node as Record<string, unknown>)[key];
    } else {
      return undefined;
    }
  }
  return node;
}

function describe(x: unknown): string {
  if (x === undefined) return 'nothing';
  if (Array.isArray(x)) return 'a list';
  if (x === null) return 'null';
  return typeof x === 'object' ? 'an object' : `${typeof x} ${JSON.stringify(x)}`;
}

/**
 * Evaluates every reference's scenario (identical scenarios once) and reads its path. `evaluate` is the engine's:
 * scenario JSON text in, result JSON text out.
 */
export function resolveNumbers(defs: unknown, evaluate: (scenarioJson: string) => string, source = 'chapters/numbers.json'): ResolvedNumbers {
  const numbers = new Map<string, ResolvedNumber>();
  const errors: string[] = [];
  if (defs === null || typeof defs !== 'object' || Array.isArray(defs)) {
    return { numbers, errors: [`${source}: expected an object of references`] };
  }
  const answers = new Map<string, unknown>();
  for (const [name, def] of Object.entries(defs as Record<string, unknown>)) {
    const where = `${source}: ${name}`;
    if (!NAME_RE.test(name)) {
      errors.push(`${where}: a reference name is lower-case letters, digits and underscores`);
      continue;
    }
    if (def === null || typeof def !== 'object') {
      errors.push(`${where}: expected {scenario, path, format}`);
      continue;
    }
    const { scenario, path, format } = def as { scenario?: unknown; path?: unknown; format?: unknown };
    if (scenario === null || typeof scenario !== 'object') {
      errors.push(`${where}: no scenario`);
      continue;
    }
    if (typeof path !== 'string' || !path.startsWith('/result/')) {
      errors.push(`${where}: path must be a JSON pointer starting with /result/ (got ${describe(path)})`);
      continue;
    }
    if (!isFormat(format)) {
      errors.push(`${where}: unknown format ${JSON.stringify(format)}; valid: ${FORMATS.join(', ')}`);
      continue;
    }
    const text = JSON.stringify(scenario);
    let answer = answers.get(text);
    if (answer === undefined) {
      try {
        answer = JSON.parse(evaluate(text)) as unknown;
      } catch (e) {
        answer = { ok: false, diagnostics: [{ path: '', message: `the engine's answer could not be read: ${String(e)}` }] };
      }
      answers.set(text, answer);
    }
    const a = answer as { ok?: unknown; diagnostics?: { path?: string; message?: string; severity?: string }[] };
    if (a.ok !== true) {
      const diags = (a.diagnostics ?? []).filter((d) => d.severity !== 'warning').map((d) => `${d.path ?? ''}: ${d.message ?? ''}`);
      errors.push(`${where}: the engine rejects the scenario (ok = false): ${diags.join('; ') || 'no diagnostics'}`);
      continue;
    }
    const value = jsonPointer(answer, path);
    if (typeof value !== 'number') {
      errors.push(`${where}: ${path} reaches ${describe(value)}, not a number`);
      continue;
    }
    if (!Number.isFinite(value)) {
      errors.push(`${where}: ${path} is not finite (${value})`);
      continue;
    }
    numbers.set(name, { name, value, text: formatNumber(value, format), format, path });
  }
  return { numbers, errors };
}
