// The plan search's and the serving search's lists as downloads, from the real wasm engine's answers: the search's
// inputs first, then one row per plan the engine ranked (or deployment listed) under named columns whose numbers are
// the engine's own; the JSON carries the scenario sent, the URL state and the whole answer.
import { beforeAll, describe, expect, it } from 'vitest';
import type {
  EngineModule,
  Evaluation,
  PlanSearchQuery,
  PlanSearchResult,
  Scenario,
  ServingSearchResult,
} from '../src/engine/types';
import { servingSearchScenario } from '../src/state/scenario';
import { encodeState } from '../src/state/url';
import { PLANS_SHOWN, planRows, listedPlans, type SearchRun } from '../src/ui/plan-list';
import {
  DEPLOYMENT_COLUMNS,
  PLAN_COLUMNS,
  planSearchCsv,
  planSearchJson,
  servingSearchCsv,
  servingSearchJson,
  type ServingList,
} from '../src/ui/search-export';
import type { ServingSearchRun } from '../src/ui/serving-run';
import { loadEngine, searchScenarioOf } from './engine';
import { parseCsv } from './csv';
import { stateWith } from './state';

let engine: EngineModule;
beforeAll(async () => {
  engine = await loadEngine();
});

const run = <R>(x: unknown): Evaluation<R> => JSON.parse(engine.evaluate(JSON.stringify(x))) as Evaluation<R>;

/** The CSV's two blocks: the inputs (keyed) and the results (header, then rows), each without the padding fields. */
function blocks(text: string): { inputs: Map<string, string[]>; header: string[]; rows: string[][] } {
  const records = parseCsv(text);
  const gap = records.findIndex((r) => r.every((x) => x === ''));
  const width = (r: string[]): number => r.length - [...r].reverse().findIndex((x) => x !== '');
  const header = records[gap + 1]!;
  return {
    inputs: new Map(records.slice(1, gap).map((r) => [r[0]!, r])),
    header: header.slice(0, width(header)),
    rows: records.slice(gap + 2),
  };
}

describe('plan search downloads', () => {
  // A v5p 4x4x4 slice, with a search option set (so the inputs show it).
  const state = stateWith({ fsdp: 16, tp: 4, pmaxtp: 8 });
  let searchRun: SearchRun;
  beforeAll(() => {
    const sc = searchScenarioOf(engine, state)!;
    let ev = run<PlanSearchResult>(sc);
    for (let calls = 1; ev.ok && ev.result && !ev.result.complete && ev.result.cursor && calls < 100; calls++)
      ev = run<PlanSearchResult>({ ...sc, query: { ...(sc.query as PlanSearchQuery), resume: ev.result.cursor } });
    expect(ev.ok).toBe(true);
    const mesh = { shape: sc.mesh!.shape, axis_names: sc.mesh!.axis_names ?? [] };
    const rows = planRows(state, ev.result!, mesh);
    searchRun = {
      key: JSON.stringify(sc),
      state,
      mesh,
      gpu: false,
      ev,
      engineMs: 0,
      rows,
      complete: true,
      chunks: 1,
      wallMs: 0,
      progressFrac: 1,
    };
  });

  it('the CSV: the search’s inputs, then one row per ranked plan under the named columns', () => {
    const res = searchRun.ev!.result!;
    const { inputs, header, rows } = blocks(planSearchCsv(searchRun));
    expect(inputs.get('engine.fidelity')?.[2]).toBe(res.fidelity ?? 'book');
    expect(inputs.get('engine.calibration_profile')?.[2]).toBe(res.calibration?.profile.id ?? 'none');
    expect(inputs.get('pmaxtp')?.slice(1, 4)).toEqual(['Tensor parallel at most', '8', 'chips']);
    expect(inputs.get('tp')?.[2]).toBe('4');
    expect(header).toEqual([...PLAN_COLUMNS]);
    expect(rows.length).toBe(res.plans.length);
    const col = (name: (typeof PLAN_COLUMNS)[number]): number => PLAN_COLUMNS.indexOf(name);
    const listed = listedPlans(searchRun);
    expect(listed.length).toBe(Math.min(PLANS_SHOWN, res.plans.filter((p) => p.fits).length));
    rows.forEach((r, i) => {
      const p = res.plans[i]!;
      expect(r[col('engine_rank')]).toBe(String(p.rank));
      expect(Number(r[col('step_s')])).toBe(p.step_s);
      expect(Number(r[col('mfu_frac')])).toBe(p.mfu_frac);
      expect(Number(r[col('memory_bytes')])).toBe(p.memory_bytes);
      expect(r[col('fits')]).toBe(String(p.fits));
      expect(Number(r[col('tensor')])).toBe(p.degrees.tensor);
      expect(Number(r[col('tensor')])).toBeLessThanOrEqual(8);
      expect(r[col('remat')]).toBe(p.remat);
      const at = listed.findIndex((c) => c.plan === p);
      expect(r[col('listed')]).toBe(at >= 0 ? String(at + 1) : '');
      expect(r[col('left_out_because')] === '').toBe(at >= 0);
    });
    expect(rows[0]![col('plan')]).toMatch(/FSDP|TP|DP/);
  });

  it('the JSON: the scenario sent, the URL state, each plan with its place in the list, and the whole answer', () => {
    const j = JSON.parse(planSearchJson(searchRun)) as {
      scenario: Scenario;
      url_state: string;
      inputs: unknown[];
      plans: { listed: number | null; plan: { rank: number } }[];
      answer: unknown;
    };
    expect(j.scenario).toEqual(JSON.parse(searchRun.key));
    expect(j.url_state).toBe(encodeState(state));
    expect(j.plans.length).toBe(searchRun.rows.length);
    expect(j.plans[0]!.listed).toBe(1);
    expect(j.answer).toEqual(searchRun.ev);
  });
});

describe('serving search downloads', () => {
  const state = stateWith({ mode: 'serving', hw: 'tpu-v5e', sobj: 'fewest_chips', slat: 0.05 });
  let servingRun: ServingSearchRun;
  beforeAll(() => {
    const sc = servingSearchScenario(state)!;
    const ev = run<ServingSearchResult>(sc);
    expect(ev.ok).toBe(true);
    servingRun = { key: JSON.stringify(sc), state, ev, engineMs: 0 };
  });

  it('the CSV: the search’s inputs, then one row per deployment listed under the named columns', () => {
    const res = servingRun.ev!.result!;
    expect(res.deployments.length).toBeGreaterThan(2);
    const list: ServingList = { kind: 'deployment', rows: res.deployments, gpu: false };
    const { inputs, header, rows } = blocks(servingSearchCsv(servingRun, list));
    expect(inputs.get('slat')?.slice(1, 4)).toEqual(['Latency per token at most', '0.05', 's']);
    expect(inputs.get('engine.chip')?.[2]).toMatch(/\(tpu-v5e\)$/);
    expect(inputs.has('batch')).toBe(false); // training rows are not a serving answer's inputs
    expect(header).toEqual([...DEPLOYMENT_COLUMNS]);
    expect(rows.length).toBe(res.deployments.length);
    const col = (name: (typeof DEPLOYMENT_COLUMNS)[number]): number => DEPLOYMENT_COLUMNS.indexOf(name);
    rows.forEach((r, i) => {
      const d = res.deployments[i]!;
      expect(r[col('rank')]).toBe(String(i + 1));
      expect(Number(r[col('total_chips')])).toBe(d.total_chips);
      expect(r[col('weights_dtype')]).toBe(d.dtypes.weights);
      expect(Number(r[col('batch')])).toBe(d.batch);
      expect(Number(r[col('latency_per_token_s')])).toBe(d.latency_per_token_s);
      expect(Number(r[col('usd_per_million_output_tokens')])).toBe(d.usd_per_million_output_tokens);
      expect(r[col('meets_targets')]).toBe('true');
    });
  });

  it('none meets the targets: the CSV lists the fastest there are, each marked as missing them; the JSON says which list', () => {
    const hard = stateWith({ mode: 'serving', hw: 'tpu-v5e', slat: 1e-4 });
    const sc = servingSearchScenario(hard)!;
    const ev = run<ServingSearchResult>(sc);
    const res = ev.result!;
    expect(res.deployments).toEqual([]);
    const r: ServingSearchRun = { key: JSON.stringify(sc), state: hard, ev, engineMs: 0 };
    const list: ServingList = { kind: 'frontier', rows: res.frontier.slice(0, 10), gpu: false };
    const { rows } = blocks(servingSearchCsv(r, list));
    expect(rows.length).toBe(list.rows.length);
    expect(rows.every((x) => x[0] === 'frontier' && x[DEPLOYMENT_COLUMNS.indexOf('meets_targets')] === 'false')).toBe(
      true,
    );
    const j = JSON.parse(servingSearchJson(r, list)) as { list: string; deployments: unknown[]; url_state: string };
    expect(j.list).toBe('frontier');
    expect(j.deployments.length).toBe(list.rows.length);
    expect(j.url_state).toContain('slat=0.0001');
  });
});
