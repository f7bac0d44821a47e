// chapters/numbers.json -> one formatted value per reference, each computed by the real engine (the chapter build
// hands in the wasm module's `evaluate`). Every problem is collected, not just the first: a scenario the engine
// rejects (ok = false), a path that reaches nothing or no number, a non-finite value, an unknown format.
import { formatNumber, isFormat, FORMATS, type NumberFormat } from './format.ts';

/** The engine's calibrated estimate of a quoted planner number (issue 8: the book stays the teacher, the page also
 * shows what a real cluster would measure), with the error band the validation suite gives that profile. */
export interface CalibratedCompanion {
  value: number;
  text: string;
  band: string;
  profile: string;
}

export interface ResolvedNumber {
  name: string;
  value: number;
  text: string;
  format: NumberFormat;
  path: string;
  calibrated?: CalibratedCompanion;
}

/**
 * The planners' headline quantities (step time, MFU, days, dollars, throughput, latency): where a chapter quotes one
 * from the book's model, the calibrated estimate of the same scenario is shown beside it.
 */
export const CALIBRATED_COMPANION_PATHS: Readonly<Record<string, readonly string[]>> = {
  training_step: [
    '/result/time/step_s',
    '/result/mfu_frac',
    '/result/cost/train_time_s',
    '/result/cost/train_usd',
    '/result/tokens_per_s',
  ],
  serving: [
    '/result/decode/step_s',
    '/result/tokens_per_s',
    '/result/tokens_per_s_per_chip',
    '/result/queries_per_s_per_chip',
    '/result/time_to_first_token_s',
    '/result/decode_time_s',
  ],
};

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
export function resolveNumbers(
  defs: unknown,
  evaluate: (scenarioJson: string) => string,
  source = 'chapters/numbers.json',
): ResolvedNumbers {
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
    const value = readAnswer(answerOf(scenario), path, where, errors);
    if (value === undefined) continue;
    const n: ResolvedNumber = { name, value, text: formatNumber(value, format), format, path };
    const kind = (scenario as { query?: { kind?: unknown } }).query?.kind;
    if (typeof kind === 'string' && CALIBRATED_COMPANION_PATHS[kind]?.includes(path)) {
      const calibrated = calibratedScenario(scenario as Scenario);
      const answer = answerOf(calibrated);
      const v = readAnswer(answer, path, `${where} (calibrated)`, errors);
      const cal = (answer as CalibratedAnswer).result?.calibration;
      if (v !== undefined && cal?.error_band?.text && cal.profile?.id) {
        n.calibrated = { value: v, text: formatNumber(v, format), band: cal.error_band.text, profile: cal.profile.id };
      } else if (v !== undefined) {
        errors.push(`${where} (calibrated): the answer has no calibration profile or error band`);
      }
    }
    numbers.set(name, n);
  }
  return { numbers, errors };

  function answerOf(scenario: object): unknown {
    const text = JSON.stringify(scenario);
    let answer = answers.get(text);
    if (answer === undefined) {
      try {
        answer = JSON.parse(evaluate(text)) as unknown;
      } catch (e) {
        answer = {
          ok: false,
          diagnostics: [{ path: '', message: `the engine's answer could not be read: ${String(e)}` }],
        };
      }
      answers.set(text, answer);
    }
    return answer;
  }
}

type Scenario = { query: Record<string, unknown> } & Record<string, unknown>;
interface CalibratedAnswer {
  result?: { calibration?: { error_band?: { text?: string }; profile?: { id?: string } } };
}

/** The same scenario at the engine's calibrated fidelity (the chapters pin the book's). */
function calibratedScenario(scenario: Scenario): Scenario {
  return { ...scenario, query: { ...scenario.query, fidelity: 'calibrated' } };
}

/** The number at `path` of an answer, or undefined with the problem recorded. */
function readAnswer(answer: unknown, path: string, where: string, errors: string[]): number | undefined {
  const a = answer as { ok?: unknown; diagnostics?: { path?: string; message?: string; severity?: string }[] };
  if (a.ok !== true) {
    const diags = (a.diagnostics ?? [])
      .filter((d) => d.severity !== 'warning')
      .map((d) => `${d.path ?? ''}: ${d.message ?? ''}`);
    errors.push(`${where}: the engine rejects the scenario (ok = false): ${diags.join('; ') || 'no diagnostics'}`);
    return undefined;
  }
  const value = jsonPointer(answer, path);
  if (typeof value !== 'number') {
    errors.push(`${where}: ${path} reaches ${describe(value)}, not a number`);
    return undefined;
  }
  if (!Number.isFinite(value)) {
    errors.push(`${where}: ${path} is not finite (${value})`);
    return undefined;
  }
  return value;
}
