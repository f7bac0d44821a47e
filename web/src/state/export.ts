// The page's result to take away (issue 11, point 6): the scenario and the engine's whole answer as JSON, the answer
// flattened to CSV rows (JSON pointer, value, the unit its key names), and the CLI command that reproduces it.
import type { Evaluation, Scenario } from '../engine/types';

/** The SI unit a result key names (docs/api.md: the unit is in every key). */
export function unitOf(key: string): string {
  if (/_flops_per_s$/.test(key)) return 'FLOP/s';
  if (/_bytes_per_s(_|$)/.test(key)) return 'B/s';
  if (/_flops_per_byte$/.test(key)) return 'FLOP/B';
  if (/_usd_per_hour$|^usd_per_hour$/.test(key)) return 'USD/h';
  if (/^usd_per_million_/.test(key)) return 'USD';
  if (/_usd$/.test(key)) return 'USD';
  if (/_bytes$/.test(key)) return 'B';
  if (/_flops$/.test(key)) return 'FLOP';
  if (/_frac$|_fraction$/.test(key)) return 'fraction';
  if (/_per_s$/.test(key)) return '1/s';
  if (/_s$/.test(key)) return 's';
  return '';
}

const csvCell = (v: string): string => (/[",\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);

/** One row per number, string and boolean of the result: "path,value,unit" with the unit the nearest key names. */
export function resultCsv(result: unknown): string {
  const rows: string[] = ['path,value,unit'];
  const walk = (node: unknown, path: string, unitKey: string): void => {
    if (Array.isArray(node)) {
      node.forEach((x, i) => walk(x, `${path}/${i}`, unitKey));
    } else if (node && typeof node === 'object') {
      for (const [k, v] of Object.entries(node as Record<string, unknown>)) walk(v, `${path}/${k}`, k.includes('_') ? k : unitKey);
    } else if (node !== undefined && node !== null) {
      rows.push([path, String(node), typeof node === 'number' ? unitOf(unitKey) : ''].map(csvCell).join(','));
    }
  };
  walk(result, '', '');
  return rows.join('\n') + '\n';
}

/** The scenario and the engine's answer in one file. */
export function resultJson(scenario: Scenario, ev: Evaluation<unknown>): string {
  return JSON.stringify({ scenario, answer: ev }, null, 2) + '\n';
}

/** A shell command that prints the page's numbers with the CLI (README "Use"). */
export function cliCommand(scenario: Scenario, mode: '--summary' | '--table' = '--summary'): string {
  const text = JSON.stringify(scenario).replace(/'/g, `'\\''`);
  return `echo '${text}' | build/release/scalescope ${mode} -`;
}
