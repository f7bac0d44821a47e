// The engine's types against the real module: the Embind functions exist, every scenario the page sends is a
// scenario of the schema, and every answer to them validates against the schema (schema/, from which
// src/engine/schema-types.ts is generated): a key the engine gives and the schema lacks fails, as a required key
// the engine leaves out does (issue 19). presets() and model_json() answer as their schemas say.
import { SHAPE_FIELDS } from '../scripts/page-rules.mjs';
import { beforeAll, describe, expect, it } from 'vitest';
import type {
  EngineModule,
  Evaluation,
  PlanMeshResult,
  PlanSearchQuery,
  PlanSearchResult,
  Presets,
  Scenario,
} from '../src/engine/types';
import { schemaProblems } from './schema';
import { defaultState, cloneState } from '../src/state/params';
import {
  chipScenario,
  mainScenario,
  meshFor,
  planMeshScenario,
  rooflineCurveScenarios,
  servingSearchScenario,
  transformerScenario,
} from '../src/state/scenario';
import { loadEngine, askNowOf, searchScenarioOf } from './engine';

let engine: EngineModule;
beforeAll(async () => {
  engine = await loadEngine();
});

/** Runs a scenario the page sends: the scenario is the schema's, and so is the answer. */
function run<R>(s: Scenario): Evaluation<R> {
  expect(schemaProblems('scenario.schema.json', s)).toEqual([]);
  const ev = JSON.parse(engine.evaluate(JSON.stringify(s))) as Evaluation<R>;
  expect(schemaProblems('answers.schema.json', ev), ev.query).toEqual([]);
  return ev;
}

/** A valid answer: no errors, and its result its kind's (run() has checked it against the schema). */
function expectShape(ev: Evaluation<unknown>): void {
  expect(ev.diagnostics.filter((d) => d.severity !== 'warning')).toEqual([]);
  expect(ev.ok).toBe(true);
  expect(ev.result).toBeDefined();
}

const training = defaultState();
const serving = cloneState(training);
serving.values['mode'] = 'serving';
const gpu = cloneState(training);
gpu.values['hw'] = 'h100-sxm';
gpu.values['fsdp'] = 8;
gpu.values['tp'] = 8;
const moe = cloneState(training);
moe.values['model'] = 'mixtral-8x7b';
moe.values['ep'] = 4;
moe.values['tp'] = 1;
// An applied plan's layout with a split axis (sub-axes) and uneven pipeline stages (3 over 80 layers).
const subAxes = cloneState(training);
Object.assign(subAxes.values, { fsdp: 32, tp: 2, layout: 'fsdp4.fsdp4.fsdp2*tensor2' });
const uneven = cloneState(training);
Object.assign(uneven.values, { hw: 'h100-sxm', fsdp: 8, pp: 3, tp: 8, mb: 8, zero: 1 });

function plan(s: typeof training) {
  const m = meshFor(s, askNowOf(engine));
  if (!m.ok) throw new Error(m.problem);
  return m.plan;
}

describe('the wasm module', () => {
  it('has the five functions', () => {
    for (const f of ['evaluate', 'evaluate_many', 'presets', 'validate', 'version'] as const)
      expect(typeof engine[f]).toBe('function');
    expect(engine.version()).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it('presets() matches the Presets type', () => {
    const p = JSON.parse(engine.presets()) as Presets;
    expect(schemaProblems('answers.schema.json#/$defs/Presets', p)).toEqual([]);
    expect(Object.keys(p).sort()).toEqual([
      'calibration_profiles',
      'engine_version',
      'hardware',
      'models',
      'queries',
      'serving_backends',
    ]);
    // The serving engines a benchmark's load can apply (issue 35): the explorer's `sbk` choices and names come from here.
    for (const b of p.serving_backends)
      expect([typeof b.id, typeof b.name, b.source]).toEqual([
        'string',
        'string',
        expect.stringMatching(/^fitted on /),
      ]);
    for (const c of p.calibration_profiles) {
      expect(['tpu', 'gpu']).toContain(c.kind);
      expect(c.fitted_on.length).toBeGreaterThan(0);
      expect(c.schema).toBe('scalescope.calibration/2');
      expect(typeof c.parameters.overlap_frac).toBe('number');
      expect(typeof c.kernels.gemm.bf16.ceiling_frac).toBe('number');
    }
    expect(p.engine_version).toBe(engine.version());
    for (const h of p.hardware) {
      expect(typeof h.id).toBe('string');
      expect(['tpu', 'gpu']).toContain(h.kind);
      expect(typeof h.hbm_capacity_bytes).toBe('number');
      if (h.kind === 'tpu') expect(Array.isArray(h.ici?.max_slice_shape)).toBe(true);
      else expect(typeof h.scale_up?.domain_gpus).toBe('number');
    }
    // Every shape field but the experts' width, which a dense model leaves out.
    for (const m of p.models)
      for (const k of SHAPE_FIELDS.filter((f: string) => f !== 'expert_d_ff'))
        expect(typeof (m as unknown as Record<string, unknown>)[k]).toBe('number');
    expect(p.queries).toEqual(expect.arrayContaining(['transformer', 'chip', 'roofline', 'matmul']));
  });

  it('validate() answers {ok, diagnostics}', () => {
    const v = JSON.parse(engine.validate('{"query": {"kind": "chip"}, "hardware": {"preset": "nope"}}')) as {
      ok: boolean;
      diagnostics: unknown[];
    };
    expect(v.ok).toBe(false);
    expect(v.diagnostics.length).toBeGreaterThan(0);
    expect(JSON.parse(engine.validate('not json')).diagnostics[0].code).toBe('malformed_json');
  });

  it('model_json() answers a ModelJson', () => {
    const answer = JSON.parse(engine.model_json(JSON.stringify({ preset: 'deepseek-v3' })));
    expect(schemaProblems('answers.schema.json#/$defs/ModelJson', answer)).toEqual([]);
    expect(answer.model.not_modelled.length).toBeGreaterThan(0);
  });

  it('a result with a key the schema lacks, or without a required one, fails', () => {
    const ev = run<Record<string, unknown>>(chipScenario(training));
    expect(
      schemaProblems('answers.schema.json', { ...ev, result: { ...ev.result, not_in_the_schema_s: 1 } }),
    ).not.toEqual([]);
    const { hbm_capacity_bytes: _, ...without } = ev.result!;
    expect(schemaProblems('answers.schema.json', { ...ev, result: without })).not.toEqual([]);
  });

  it('transformer, chip, matmul and roofline results match their types', () => {
    for (const s of [training, serving, moe]) expectShape(run(transformerScenario(s)));
    for (const s of [training, gpu]) expectShape(run(chipScenario(s)));
    expectShape(run({ hardware: { preset: 'tpu-v5p' }, query: { kind: 'matmul', batch: 4096, d: 8192, f: 28672 } }));
    expectShape(run(rooflineCurveScenarios(training)[3]!));
  });

  const has = (kind: string): boolean =>
    (JSON.parse(engine.presets()) as Presets).queries.includes(kind as Presets['queries'][number]);

  it('plan_mesh results match PlanMeshResult: laid out, laid out by the engine, refused with the nearest state', () => {
    const v5e = cloneState(training);
    Object.assign(v5e.values, { hw: 'tpu-v5e', chips: 2048 });
    const parts = cloneState(training);
    Object.assign(parts.values, { fsdp: 4, tp: 32, pp: 35 });
    for (const s of [training, serving, gpu, moe, v5e, parts]) {
      const ev = run<PlanMeshResult>(planMeshScenario(s, undefined, { chips: true, stops: true, batch: true }));
      expectShape(ev);
      for (const p of ev.result!.problems)
        expect(Object.keys(p).sort()).toEqual(['code', 'message', 'path', 'severity']);
      for (const c of ev.result!.nearest?.changes ?? [])
        expect(Object.keys(c).sort()).toEqual(['from', 'path', 'reason', 'to']);
    }
    expect(run<PlanMeshResult>(planMeshScenario(v5e, undefined, { chips: true })).result!.nearest).toBeDefined();
    expect(run<PlanMeshResult>(planMeshScenario(parts)).result!.engine_layout).toBe(true);
  });

  it('training_step results match TrainingStepResult', (ctx) => {
    if (!has('training_step')) return ctx.skip();
    for (const s of [training, gpu, moe, subAxes, uneven]) {
      const ev = run<{ thresholds: unknown[] }>(mainScenario(s, plan(s)));
      expectShape(ev);
      expect(ev.result!.thresholds.length).toBeGreaterThan(0);
    }
    // The optional keys the schema names are there when they apply: the chosen layout for sub-axes, the busiest stage.
    const sub = run<{ parallelism?: unknown; layout?: Record<string, unknown>; layouts_considered?: number }>(
      mainScenario(subAxes, plan(subAxes)),
    ).result!;
    expect(sub.parallelism).toEqual({
      fsdp: ['X', 'Y', { axis: 'Z', size: 2, stride: 2 }],
      tensor: [{ axis: 'Z', size: 2, stride: 1 }],
    });
    expect(sub.layouts_considered).toBe(1);
    const st = run<{ pipeline_stage_layers?: number; pipeline_stage_imbalance?: number }>(
      mainScenario(uneven, plan(uneven)),
    ).result!;
    expect([st.pipeline_stage_layers, st.pipeline_stage_imbalance]).toEqual([27, 27 / (80 / 3)]);
    expect(
      run<{ pipeline_stage_layers?: number }>(mainScenario(training, plan(training))).result!.pipeline_stage_layers,
    ).toBeUndefined();
  });

  it('plan_search results match PlanSearchResult: plans, the Pareto front, layouts, ties and a resume cursor', (ctx) => {
    if (!has('plan_search')) return ctx.skip();
    const small = cloneState(training);
    Object.assign(small.values, { fsdp: 16, tp: 4 });
    const gpuSmall = cloneState(gpu);
    let ties = 0;
    for (const s of [small, gpuSmall]) {
      const ev = run<PlanSearchResult>(searchScenarioOf(engine, s)!);
      expectShape(ev);
      const r = ev.result!;
      expect(r.plans.length).toBeGreaterThan(0);
      // Plans, layouts, ties and the front are in the answer run() checked: the optional parts are reached.
      for (const p of r.plans) {
        expect(Object.values(p.layout).length).toBeGreaterThan(0);
        if (p.tie) ties++;
      }
      expect(r.pareto.length).toBeGreaterThan(0);
      expect(r.complete).toBe(true);
      expect(r.cursor).toBeUndefined();
    }
    expect(ties).toBeGreaterThan(0);
    // A search cut into chunks answers with a cursor until it is complete.
    const sc = searchScenarioOf(engine, small)!;
    const part = run<PlanSearchResult>({ ...sc, query: { ...(sc.query as PlanSearchQuery), chunk_plans: 1000 } });
    expectShape(part);
    expect(part.result!.complete).toBe(false);
    expect(part.result!.cursor).toBeDefined();
  });

  it('serving results match ServingResult', (ctx) => {
    if (!has('serving')) return ctx.skip();
    const ev = run(mainScenario(serving, plan(serving)));
    expectShape(ev);
    expect((ev.result as { sweep: unknown[] }).sweep.length).toBeGreaterThan(0);
    // Speculative decoding, a KV context and efficiency knobs, as the page sends them.
    const spec = cloneState(serving);
    Object.assign(spec.values, { spec: true, kvctx: 4096, eff_flops: 0.5, sdeploy: 'disaggregated', sdemand: 1e5 });
    const sp = run(mainScenario(spec, plan(spec)));
    expectShape(sp);
    const r = sp.result as { speculative?: unknown; deployment?: unknown; kv_context_len: number };
    expect(r.kv_context_len).toBe(4096);
    expect(r.speculative).toBeDefined();
    expect(r.deployment).toBeDefined();
  });

  it('serving_search results match ServingSearchResult, every deployment ServingDeployment', (ctx) => {
    if (!has('serving_search')) return ctx.skip();
    // The page's query, a GPU with a mixture of experts (EP axes) and targets, and one no deployment meets.
    const moeGpu = cloneState(serving);
    Object.assign(moeGpu.values, { hw: 'h100-sxm', model: 'mixtral-8x7b', slat: 0.05, sttft: 2, sdemand: 1e4 });
    const none = cloneState(serving);
    none.values['slat'] = 1e-4;
    for (const s of [serving, moeGpu, none]) {
      const ev = run<{ deployments: unknown[]; frontier: unknown[] }>(servingSearchScenario(s)!);
      expectShape(ev);
      const rows = [...ev.result!.deployments, ...ev.result!.frontier];
      expect(rows.length).toBeGreaterThan(0);
    }
  });
});
