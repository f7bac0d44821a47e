// "Under this load" (src/ui/serving-load.ts, issue 35) from real engine answers: the block's numbers are the engine's
// load fields formatted by format.ts, and the sentence names the runtime that priced them (a serving engine's, with
// what it was fitted on, or the calibrated kernels' step).
import { beforeAll, describe, expect, it } from 'vitest';
import type { EngineModule, Evaluation, ServingResult } from '../src/engine/types';
import { cloneState, defaultState } from '../src/state/params';
import { mainScenario, meshFor } from '../src/state/scenario';
import { loadFigures, type LoadResult } from '../src/ui/serving-load';
import { chipWord, loadRuntimeWords } from '../src/ui/words';
import { fmtCount, fmtRate, fmtSeconds } from '../src/charts/format';
import { askNowOf, loadEngine } from './engine';

let engine: EngineModule;
beforeAll(async () => {
  engine = await loadEngine();
});

/** The load the engine answers for the explorer's serving state with these values (H200, LLaMA-3 70B, TP 8). */
function loadOf(values: Record<string, unknown>): LoadResult {
  const s = cloneState(defaultState());
  Object.assign(s.values, { mode: 'serving', hw: 'h200', model: 'llama-3-70b', ...values });
  const m = meshFor(s, askNowOf(engine));
  if (!m.ok) throw new Error(m.problem);
  const ev = askNowOf(engine)(mainScenario(s, m.plan)) as Evaluation<ServingResult>;
  expect(ev.ok, JSON.stringify(ev.diagnostics)).toBe(true);
  return ev.result!.load!;
}

describe('under this load', () => {
  it('shows the engine’s TTFT, TPOT, throughput per GPU and per user, requests/s, in flight and queued, formatted', () => {
    const load = loadOf({ conc: 64, sbk: 'trtllm' });
    const f = loadFigures(load, chipWord('gpu'));
    expect(f.map((x) => [x.id, x.label])).toEqual([
      ['load_ttft_s', 'Time to first token'],
      ['load_tpot_s', 'Time per output token'],
      ['load_tokens_per_s_per_chip', 'Output tokens/s per GPU'],
      ['load_tokens_per_s_per_user', 'Tokens/s per user'],
      ['load_requests_per_s', 'Requests/s'],
      ['load_in_flight', 'Sequences in flight'],
      ['load_queued', 'Queued for a KV slot'],
    ]);
    expect(f.map((x) => x.value)).toEqual([
      load.time_to_first_token_s,
      load.time_per_output_token_s,
      load.output_tokens_per_s_per_chip,
      load.tokens_per_s_per_user,
      load.requests_per_s,
      load.in_flight,
      load.queued,
    ]);
    expect(f.map((x) => x.text)).toEqual([
      fmtSeconds(load.time_to_first_token_s!),
      fmtSeconds(load.time_per_output_token_s!),
      fmtRate(load.output_tokens_per_s_per_chip, 'tok/s'),
      fmtRate(load.tokens_per_s_per_user, 'tok/s'),
      fmtRate(load.requests_per_s, 'req/s'),
      '64',
      '0',
    ]);
  });

  it('names the serving engine that priced it and what its runtime was fitted on', () => {
    const load = loadOf({ conc: 64, sbk: 'trtllm' });
    expect(load.backend?.name).toBe('TensorRT-LLM');
    expect(loadRuntimeWords(load)).toBe(`Priced with TensorRT-LLM’s runtime, ${load.backend!.source}.`);
    expect(loadRuntimeWords(load)).toMatch(/fitted on \d+ fit rows/);
  });

  it('without a serving engine, says the calibrated kernels’ step priced it', () => {
    const load = loadOf({ conc: 64 });
    expect(load.backend).toBeNull();
    expect(loadRuntimeWords(load)).toBe('Priced with the calibrated kernels’ step, no serving engine’s runtime.');
  });

  it('past the KV slots: the rest queue, with the engine’s wait for a slot', () => {
    const load = loadOf({ conc: 4096 });
    expect(load.queued).toBeGreaterThan(0);
    const queued = loadFigures(load, 'GPU').find((x) => x.id === 'load_queued')!;
    expect(queued.text).toBe(`${fmtCount(load.queued)}, each waiting ${fmtSeconds(load.slot_wait_s)} on average`);
  });

  it('a replica with no room for one sequence: the times the engine leaves null read “—”', () => {
    const load = loadOf({ conc: 8, tp: 2, prompt: 1048576, gen: 1048576 });
    expect(load.fits).toBe(false);
    const f = loadFigures(load, 'GPU');
    expect(f.filter((x) => x.id === 'load_ttft_s' || x.id === 'load_tpot_s').map((x) => [x.value, x.text])).toEqual([
      [undefined, '—'],
      [undefined, '—'],
    ]);
  });

  it('says “chip” on a TPU and “GPU” on a GPU', () => {
    expect([chipWord('gpu'), chipWord('tpu'), chipWord(undefined)]).toEqual(['GPU', 'chip', 'chip']);
  });
});
