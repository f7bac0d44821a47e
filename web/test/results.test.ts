// What the headline reads from an answer: whether the plan can run and fits, the metrics, and — once the engine gives
// a calibrated estimate with the book's ideal beside it (issue 8) — both; with book-only results, the book's alone.
import { beforeAll, describe, expect, it } from 'vitest';
import type { EngineModule, Evaluation, ServingResult, TrainingStepResult } from '../src/engine/types';
import { cloneState, defaultState } from '../src/state/params';
import { mainScenario, meshFor, weightsDtype } from '../src/state/scenario';
import { goodputWords, trainingBoundWords } from '../src/ui/words';
import { fmtSeconds, fmtUsd } from '../src/charts/format';
import { atBookEfficiency, fidelityOf, metricsOf, planStatus, type PlanAnswer, type Planned } from '../src/ui/results';
import { loadEngine, askNowOf } from './engine';

let engine: EngineModule;
beforeAll(async () => {
  engine = await loadEngine();
});

function answer(values: Record<string, unknown> = {}): PlanAnswer {
  const state = cloneState(defaultState());
  Object.assign(state.values, values);
  const mesh = meshFor(state, askNowOf(engine));
  const main = mesh.ok
    ? (JSON.parse(engine.evaluate(JSON.stringify(mainScenario(state, mesh.plan)))) as Evaluation<Planned>)
    : null;
  return { state, mesh, main };
}

/** The same plan asked again with more of the query (the page asks with the engine's defaults). */
function reasked(a: PlanAnswer, query: Record<string, unknown>): PlanAnswer {
  if (!a.mesh.ok) throw new Error(a.mesh.problem);
  const sc = mainScenario(a.state, a.mesh.plan) as unknown as { query: Record<string, unknown> };
  Object.assign(sc.query, query);
  return { ...a, main: JSON.parse(engine.evaluate(JSON.stringify(sc))) as Evaluation<Planned> };
}

describe('plan status', () => {
  it('ok for the default; no-fit, cannot-run and warnings in words', () => {
    expect(planStatus(answer())).toEqual({ kind: 'ok', text: 'Fits in HBM; no warnings.' });
    expect(planStatus(answer({ batch: 268435456 }))).toMatchObject({
      kind: 'no-fit',
      text: expect.stringMatching(/^Does not fit: needs .* per chip of 96 GB HBM\.$/),
    });
    expect(planStatus(answer({ hw: 'tpu-v5e', dp: 2 }))).toMatchObject({
      kind: 'cannot-run',
      text: expect.stringMatching(/^Cannot run: TPU v5e is a 2D torus/),
    });
    expect(planStatus(answer({ tp: 3 }))).toMatchObject({ kind: 'cannot-run' });
  });
});

describe('fidelity', () => {
  it('the engine’s default, calibrated: each headline number with the book’s ideal beside it', () => {
    const a = answer();
    const t = a.main!.result as TrainingStepResult & { ideal: Record<string, number> };
    expect(fidelityOf(a).fidelity).toBe('calibrated');
    expect(fidelityOf(a).calibration?.error_band.text).toMatch(/held-out/);
    const m = metricsOf(a, undefined);
    expect(m.find((x) => x.id === 'step_s')!.ideal?.value).toBe(t.ideal['step_s']);
    expect(m.find((x) => x.id === 'train_usd')!.ideal?.value).toBe(t.ideal['train_usd']);
    // Memory carries the book's count, named a count (not a bound: issue 22, 80.1 GB by the book where 74.2 GB fit).
    expect(m.find((x) => x.id === 'memory_bytes')!.ideal).toMatchObject({
      value: t.ideal['total_bytes'],
      label: 'book’s count',
    });
  });

  it('the book’s memory count says when it is over HBM', () => {
    const a = answer({ batch: 67108864 });
    const t = a.main!.result as TrainingStepResult & { ideal: Record<string, number> };
    const mem = metricsOf(a, undefined).find((x) => x.id === 'memory_bytes')!;
    expect(mem.ideal!.text.endsWith('(over HBM)')).toBe(t.ideal['total_bytes']! > t.memory.hbm_capacity_bytes);
  });

  it('a book result shows the book’s numbers alone', () => {
    const a = answer();
    const book = reasked(a, { fidelity: 'book' });
    expect(fidelityOf(book).fidelity).toBe('book');
    expect(metricsOf(book, undefined).every((x) => x.ideal === undefined)).toBe(true);
    expect(atBookEfficiency(a.state)).toBe(true);
    expect(atBookEfficiency(answer({ eff_flops: 0.5 }).state)).toBe(false);
  });
});

describe('goodput: the time to train once chips fail (issue 38)', () => {
  const ids = (a: PlanAnswer): string[] => metricsOf(a, undefined).map((m) => m.id);

  it('the calibrated default adds the wall time and cost with failures, each after its failure-free number', () => {
    const a = answer();
    const g = (a.main!.result as TrainingStepResult).goodput!;
    expect(g.finishes).toBe(true);
    const m = metricsOf(a, undefined);
    const at = (id: string): number => m.findIndex((x) => x.id === id);
    expect(at('wall_time_s')).toBe(at('train_time_s') + 1);
    expect(at('wall_usd')).toBe(at('train_usd') + 1);
    expect(m[at('wall_time_s')]).toMatchObject({
      label: 'Time to train, with failures',
      value: g.wall_time_s,
      text: fmtSeconds(g.wall_time_s!),
      higherBetter: false,
    });
    expect(m[at('wall_usd')]).toMatchObject({
      label: 'Cost with failures',
      value: g.wall_usd,
      text: fmtUsd(g.wall_usd!),
    });
    // The engine's sentence, word for word.
    expect(goodputWords(g)).toBe(`With failures, checkpoints and restarts: ${g.text}.`);
    expect(g.text).toMatch(/^expected .* with \d+ interruptions, goodput [\d.]+%$/);
  });

  it('the book’s fidelity has none: its time to train has no failures, and its note says so', () => {
    const book = reasked(answer(), { fidelity: 'book' });
    const t = book.main!.result as TrainingStepResult;
    expect(t.goodput).toBeUndefined();
    expect(t.cost.note).toMatch(/no failures/);
    expect(ids(book)).not.toContain('wall_time_s');
    expect(ids(book)).not.toContain('wall_usd');
  });

  it('a job that fails faster than it restarts never finishes: no times, and the engine says why', () => {
    // A failure every 1.8 s on the default 2,048 chips, an hour to replace a host.
    const never = reasked(answer(), { goodput: { failures_per_chip_hour: 1, host_replace_s: 3600 } });
    const g = (never.main!.result as TrainingStepResult).goodput!;
    expect(g.finishes).toBe(false);
    expect(g.wall_time_s).toBeNull();
    const m = metricsOf(never, undefined);
    // "never" follows `finishes`: the engine's wall_usd is then 0, not null.
    for (const id of ['wall_time_s', 'wall_usd'])
      expect(m.find((x) => x.id === id)).toMatchObject({ value: undefined, text: 'never' });
    expect(goodputWords(g)).toMatch(/^With failures, checkpoints and restarts: the job never finishes: /);
  });
});

describe('compare', () => {
  it('memory per chip and a serving replica’s memory are two metrics, never paired (issue 22)', () => {
    const train = metricsOf(answer(), undefined).map((m) => m.id);
    const serve = metricsOf(answer({ mode: 'serving' }), undefined).map((m) => m.id);
    expect(train).toContain('memory_bytes');
    expect(serve).toContain('replica_memory_bytes');
    expect(serve).not.toContain('memory_bytes');
  });
});

describe('serving weights dtype (issue 41 #17)', () => {
  it('opens a model in the dtype it is published in, and keeps the reader’s choice', () => {
    // DeepSeek-V3 ships fp8 (its config.json's quantization_config): 671 GB of weights, which 8 H200s hold.
    const published = answer({ mode: 'serving', hw: 'h200', model: 'deepseek-v3', tp: 8, sbatch: 8, prompt: 2048 });
    expect(weightsDtype(published.state)).toBe('fp8');
    const r = published.main!.result as unknown as ServingResult;
    expect(r.dtypes.weights).toBe('fp8');
    expect(r.memory.fits).toBe(true);
    expect(planStatus(published).kind).toBe('ok');
    // A link that says bf16 keeps it, and does not fit.
    const bf16 = answer({
      mode: 'serving',
      hw: 'h200',
      model: 'deepseek-v3',
      tp: 8,
      sbatch: 8,
      prompt: 2048,
      wdt: 'bf16',
    });
    expect((bf16.main!.result as unknown as ServingResult).dtypes.weights).toBe('bf16');
    expect(planStatus(bf16).kind).toBe('no-fit');
    // A model published in bf16 is served in bf16.
    expect(weightsDtype(answer({ mode: 'serving', model: 'llama-3-70b' }).state)).toBe('bf16');
    expect(weightsDtype(answer({ mode: 'serving', model: 'gpt-oss-120b' }).state)).toBe('fp4');
  });
});

describe('a training step’s bound in words (issue 41 #17)', () => {
  it('says a resource longer than the bound one overlaps, and what it adds', () => {
    // LLaMA-3 70B on 1,024 H100s, TP 16 across nodes, 1M-token batch: the calibrated communication is longer in all
    // than the compute, but most of it hides behind the compute.
    const t = (answer({ hw: 'h100-sxm', tp: 16, fsdp: 64, batch: 1048576 }).main!.result as TrainingStepResult).time;
    expect(t.bound).toBe('compute');
    expect(t.comms_total_s).toBeGreaterThan(t.compute_s + t.bubble_s);
    expect(t.comms_exposed_s).toBeLessThan(t.compute_s);
    const w = trainingBoundWords(t);
    expect(w.bound).toBe('Compute-bound');
    expect(w.why).toBe(
      `Compute adds the most to the step. Communication takes longer in all (${fmtSeconds(t.comms_total_s)}) but overlaps the rest: it adds ${fmtSeconds(t.comms_exposed_s)}.`,
    );
    // Where the bound resource is also the longest, nothing more is said.
    const d = (answer().main!.result as TrainingStepResult).time;
    expect(trainingBoundWords(d).why).toBe(`${d.bound === 'compute' ? 'Compute' : d.bound} adds the most to the step.`);
    expect(d.comms_total_s).toBeLessThanOrEqual(d.compute_s + d.bubble_s);
  });
});
