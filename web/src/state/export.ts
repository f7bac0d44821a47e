// The page's results to take away (issue 11, point 6; issue 22: a file says what produced it). Every download is
// the inputs (state/inputs.ts) and then the engine's answer: as JSON, the scenario sent, the URL state, the inputs and
// the answer; as CSV (state/csv.ts), the inputs block and then a results block — for the main answer one row per
// number (JSON pointer, value, the unit its key names). Also the CLI command that reproduces the main answer.
import type { Evaluation, FidelityInfo, Scenario } from '../engine/types';
import type { State } from './params';
import { csvText, type Cell, type CsvBlock } from './csv';
import { inputRows, inputsBlock } from './inputs';
import { RESULT_UNITS } from './result-units';
import { encodeState } from './url';

/** What produced an answer: the state it was asked for, the scenario sent, and the fidelity fields of the answer. */
export interface Provenance {
  state: State;
  scenario: Scenario;
  used: FidelityInfo;
}

/** A CSV download: the inputs block, then the results. */
export function exportCsv(p: Provenance, results: CsvBlock): string {
  return csvText([inputsBlock(inputRows(p.state, p.scenario, p.used)), results]);
}

/** A JSON download: the scenario sent, the URL state (the link's query), the inputs in words, then `body`. */
export function exportJson(p: Provenance, body: Record<string, unknown>): string {
  return (
    JSON.stringify(
      {
        scenario: p.scenario,
        url_state: encodeState(p.state),
        inputs: inputRows(p.state, p.scenario, p.used),
        ...body,
      },
      null,
      2,
    ) + '\n'
  );
}

/**
 * One row per number, string and boolean of a result: path, value and the schema's unit for the nearest key that
 * has one (a record's entries, `peak_flops_per_s.bf16`, take the record's), as the CLI's --table view names them.
 */
export function resultBlock(result: unknown): CsvBlock {
  const rows: Cell[][] = [];
  const walk = (node: unknown, path: string, unitKey: string): void => {
    if (Array.isArray(node)) {
      node.forEach((x, i) => walk(x, `${path}/${i}`, unitKey));
    } else if (node && typeof node === 'object') {
      for (const [k, v] of Object.entries(node as Record<string, unknown>))
        walk(v, `${path}/${k}`, Object.hasOwn(RESULT_UNITS, k) ? k : unitKey);
    } else if (node !== undefined && node !== null) {
      rows.push([path, node as Cell, typeof node === 'number' ? (RESULT_UNITS[unitKey] ?? '') : '']);
    }
  };
  walk(result, '', '');
  return { header: ['path', 'value', 'unit'], rows };
}

/** The fidelity fields of an evaluation's result (none when it has no result). */
export const usedBy = (ev: Evaluation<unknown> | null | undefined): FidelityInfo =>
  (ev?.result as FidelityInfo | undefined) ?? {};

/** The main answer as CSV: its inputs, then one row per number. */
export function resultCsv(state: State, scenario: Scenario, ev: Evaluation<unknown>): string {
  return exportCsv({ state, scenario, used: usedBy(ev) }, resultBlock(ev.result));
}

/** The main answer as JSON: its inputs and the engine's whole answer. */
export function resultJson(state: State, scenario: Scenario, ev: Evaluation<unknown>): string {
  return exportJson({ state, scenario, used: usedBy(ev) }, { answer: ev });
}

/** A shell command that prints the page's numbers with the CLI (README "Use"). */
export function cliCommand(scenario: Scenario, mode: '--summary' | '--table' = '--summary'): string {
  const text = JSON.stringify(scenario).replace(/'/g, `'\\''`);
  return `echo '${text}' | build/release/scalescope ${mode} -`;
}
