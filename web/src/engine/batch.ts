// One worker round trip per slider move, one wasm call per round trip: the scenarios of a batch go to the engine's
// evaluate_many as one JSON array, and the answer travels back to the page as that array's text (a string is
// cheaper to post than the parsed objects, and the page parses it once). Pure, so Vitest can run it on the real
// module and on a fake one.
import type { EngineModule } from './types';

export interface BatchAnswer {
  /** JSON text of an array with one evaluation per scenario, in order. */
  json: string;
  /** wasm calls made: 1 normally; one per scenario when the array could not be answered as a whole. */
  calls: number;
  /** The instance threw (a trap): its memory may be corrupt, so the caller should replace it. */
  trapped: boolean;
}

function trap(e: unknown): string {
  // The engine never throws by contract; a trap here is a bug worth showing in place, not a dead page.
  return JSON.stringify({
    ok: false,
    diagnostics: [{ path: '', code: 'engine_error', message: String(e) }],
    engine_version: '',
  });
}

/** Evaluates scenario JSON texts (each a JSON object) with evaluate_many; falls back to evaluate per scenario. */
export function evaluateBatch(m: EngineModule, scenarios: readonly string[]): BatchAnswer {
  if (scenarios.length === 0) return { json: '[]', calls: 0, trapped: false };
  let trapped = false;
  if (typeof m.evaluate_many === 'function') {
    try {
      const out = m.evaluate_many(`[${scenarios.join(',')}]`);
      // An array answer starts with '['; anything else is the engine rejecting the array itself (e.g. one text was
      // not JSON), and evaluating one by one gives each scenario its own diagnostics.
      if (out.startsWith('[')) return { json: out, calls: 1, trapped: false };
    } catch {
      trapped = true; // fall through to one call per scenario, which reports the trap in place
    }
  }
  const parts = scenarios.map((s) => {
    try {
      return m.evaluate(s);
    } catch (e) {
      trapped = true;
      return trap(e);
    }
  });
  return { json: `[${parts.join(',')}]`, calls: 1 + scenarios.length, trapped };
}
