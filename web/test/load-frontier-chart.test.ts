// The interactivity frontier's data (src/charts/load-frontier.ts, issue 35) from a real engine answer: one point per
// concurrency of load.frontier, those past the KV slots marked as queuing, the concurrency on screen labelled first
// and always, each other point labelled with its concurrency, and the table of the chart's numbers.
import { beforeAll, describe, expect, it } from 'vitest';
import type { EngineModule, Evaluation, ServingResult } from '../src/engine/types';
import { cloneState, defaultState } from '../src/state/params';
import { mainScenario, meshFor } from '../src/state/scenario';
import {
  loadFrontierCurrent,
  loadFrontierData,
  loadFrontierDots,
  loadFrontierLabels,
  loadFrontierLegend,
  loadFrontierRows,
} from '../src/charts/load-frontier';
import { fmtCount, fmtSeconds } from '../src/charts/format';
import { askNowOf, loadEngine } from './engine';

let engine: EngineModule;
let load: NonNullable<ServingResult['load']>;
beforeAll(async () => {
  engine = await loadEngine();
  const s = cloneState(defaultState());
  Object.assign(s.values, { mode: 'serving', hw: 'h200', model: 'llama-3-70b', conc: 64, sbk: 'trtllm' });
  const m = meshFor(s, askNowOf(engine));
  if (!m.ok) throw new Error(m.problem);
  load = (askNowOf(engine)(mainScenario(s, m.plan)) as Evaluation<ServingResult>).result!.load!;
});

describe('interactivity frontier chart data', () => {
  it('one point per concurrency the engine answered, throughput per chip against tokens/s per user', () => {
    const d = loadFrontierData(load);
    expect(d.map((p) => p.concurrency)).toEqual(load.frontier!.map((p) => p.concurrency));
    expect(d.map((p) => [p.per_user, p.per_chip])).toEqual(
      load.frontier!.map((p) => [p.tokens_per_s_per_user, p.output_tokens_per_s_per_chip]),
    );
    // Past the KV slots the extra clients queue: fewer in flight than the concurrency (LLaMA-3 70B on 8 H200s at 512).
    expect(d.filter((p) => p.queued).map((p) => p.concurrency)).toEqual(
      load.frontier!.filter((p) => p.in_flight < p.concurrency).map((p) => p.concurrency),
    );
    expect(d.some((p) => p.queued)).toBe(true);
    expect(loadFrontierCurrent(load)).toEqual([
      { concurrency: 64, per_chip: load.output_tokens_per_s_per_chip, per_user: load.tokens_per_s_per_user },
    ]);
  });

  it('labels the current concurrency first and always, then every other point with its concurrency', () => {
    const d = loadFrontierData(load);
    const here = loadFrontierCurrent(load);
    const labels = loadFrontierLabels(d, here);
    expect(labels[0]).toMatchObject({ text: 'current: 64', required: true, bold: true });
    expect(labels.slice(1).map((l) => l.text)).toEqual(
      d.filter((p) => p.concurrency !== 64).map((p) => fmtCount(p.concurrency)),
    );
    expect(labels.slice(1).every((l) => !l.required)).toBe(true);
    expect(loadFrontierDots(d, here)).toHaveLength(d.length + 1); // labels keep clear of the ring too
  });

  it('tables every point, the current one said so', () => {
    const rows = loadFrontierRows(loadFrontierData(load), loadFrontierCurrent(load));
    const at64 = load.frontier!.find((p) => p.concurrency === 64)!;
    expect(rows).toHaveLength(load.frontier!.length);
    expect(rows.find((r) => r[0]!.startsWith('64'))).toEqual([
      '64 (current)',
      '64',
      fmtCount(at64.output_tokens_per_s_per_chip),
      fmtCount(at64.tokens_per_s_per_user),
      fmtSeconds(at64.time_to_first_token_s),
      fmtSeconds(at64.time_per_output_token_s),
    ]);
  });

  it('keys what it draws: the points, the queuing ones, the current concurrency', () => {
    const d = loadFrontierData(load);
    expect(loadFrontierLegend(d, loadFrontierCurrent(load), 'GPU').map((e) => e.label)).toEqual([
      'one concurrency each (labelled): tokens/s per GPU and per user',
      'more clients than KV slots: the rest queue',
      'current concurrency',
    ]);
    expect(
      loadFrontierLegend(
        d.filter((p) => !p.queued),
        [],
        'chip',
      ).map((e) => e.label),
    ).toEqual(['one concurrency each (labelled): tokens/s per chip and per user']);
  });

  it('draws nothing for a load that served nothing', () => {
    const none = { ...load, fits: false, frontier: [] };
    expect(loadFrontierData(none)).toEqual([]);
    expect(loadFrontierCurrent(none)).toEqual([]);
  });
});
