// The launch config a row opens (state/launch.ts, ui/launch-config.ts), through the real launch module
// (build/wasm/scalescope_launch, as its worker loads it): the request is the training_step or serving scenario the
// row runs as (what its Apply sets), and the frameworks offered are those the engine writes the plan for, asked of
// the engine (never the page's rule): MaxText alone for a TPU training plan, vLLM alone for a TPU replica, the four
// training and three serving frameworks on GPUs. The first-load module has no launch kinds.
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type {
  Diagnostic,
  EngineModule,
  Evaluation,
  LaunchConfigResult,
  PlanSearchQuery,
  PlanSearchResult,
  Scenario,
  ServingDeployment,
  ServingSearchResult,
} from '../src/engine/types';
import {
  FRAMEWORKS,
  chosenOption,
  deploymentState,
  launchChoices,
  launchScenario,
  planState,
  runScenario,
  type LaunchAsk,
} from '../src/state/launch';
import { mainScenario, meshFor, servingSearchScenario } from '../src/state/scenario';
import type { State } from '../src/state/params';
import { askNowOf, loadEngine, loadLaunchEngine, REPO, searchScenarioOf } from './engine';
import { schemaProblems } from './schema';
import { stateWith } from './state';

let launch: EngineModule;
let page: EngineModule;
beforeAll(async () => {
  [launch, page] = await Promise.all([loadLaunchEngine(), loadEngine()]);
});

const ask: LaunchAsk = (scenarios) =>
  Promise.resolve(JSON.parse(launch.evaluate_many(JSON.stringify(scenarios))) as Evaluation<unknown>[]);

/** The launch config of a state's plan for every framework, as the panel asks it. */
async function launchOf(s: State | string): Promise<{ sc: Scenario; choices: ReturnType<typeof launchChoices> }> {
  expect(typeof s, String(s)).not.toBe('string');
  const sc = await runScenario(s as State, ask);
  expect(typeof sc === 'object' && sc !== null, String(sc)).toBe(true);
  const answers = (await ask(FRAMEWORKS.map((f) => launchScenario(sc as Scenario, f))))!;
  for (const a of answers) expect(schemaProblems('answers.schema.json', a)).toEqual([]);
  return { sc: sc as Scenario, choices: launchChoices(answers) };
}

const frameworks = (c: ReturnType<typeof launchChoices>): string[] => c.options.map((o) => o.framework);

describe('launch configs: the request a row builds', () => {
  it('names every framework the schema names, in the engine’s order', () => {
    const common = JSON.parse(fs.readFileSync(path.join(REPO, 'schema/common.schema.json'), 'utf8')) as {
      $defs: { Framework: { enum: string[] } };
    };
    expect([...FRAMEWORKS]).toEqual(common.$defs.Framework.enum);
  });

  it('is the scenario the page runs, its query as the plan, without a calibration profile', () => {
    const s = stateWith({});
    const m = meshFor(s, askNowOf(page));
    expect(m.ok).toBe(true);
    if (!m.ok) return;
    const sc = mainScenario(s, m.plan);
    const withProfile = { ...sc, query: { ...sc.query, calibration: { format: 2 } } } as unknown as Scenario;
    const out = launchScenario(withProfile, 'maxtext');
    expect(out.hardware).toEqual(sc.hardware);
    expect(out.model).toEqual(sc.model);
    expect(out.mesh).toEqual(sc.mesh);
    expect(out.query).toEqual({ kind: 'launch_config', framework: 'maxtext', plan: sc.query });
    expect(schemaProblems('scenario.schema.json', out)).toEqual([]);
  });

  it('a searched TPU plan: the state its Apply gives, written by MaxText alone, in the plan’s degrees', async () => {
    const s = stateWith({ fsdp: 16, tp: 4 });
    const search = searchScenarioOf(page, s)!;
    const res = JSON.parse(
      launch.evaluate(JSON.stringify({ ...search, query: { ...(search.query as PlanSearchQuery), keep: 3 } })),
    ) as Evaluation<PlanSearchResult>;
    expect(res.ok).toBe(true);
    const plan = res.result!.plans[0]!;
    const { sc, choices } = await launchOf(
      planState(s, plan, { shape: search.mesh!.shape, axis_names: search.mesh!.axis_names ?? [] }),
    );
    expect(sc.query.kind).toBe('training_step');
    expect(frameworks(choices)).toEqual(['maxtext']);
    const r = choices.options[0]!.result;
    expect(r.format).toBe('command_line');
    for (const [k, v] of Object.entries(plan.degrees))
      if (v > 1) expect(r.text, k).toContain(k === 'tensor' ? `ici_tensor_parallelism=${v}` : `_${k}_parallelism=`);
    expect((r.plan as { parallelism: Record<string, unknown> }).parallelism['fsdp'] ?? 1).toBe(plan.degrees.fsdp);
  });

  it('a searched GPU plan: Megatron-LM, Megatron-Bridge, MaxText and DeepSpeed, in the engine’s order', async () => {
    const s = stateWith({ hw: 'h100-sxm', fsdp: 8, tp: 8 });
    const search = searchScenarioOf(page, s)!;
    const res = JSON.parse(
      launch.evaluate(JSON.stringify({ ...search, query: { ...(search.query as PlanSearchQuery), keep: 2 } })),
    ) as Evaluation<PlanSearchResult>;
    const plan = res.result!.plans[0]!;
    const { choices } = await launchOf(
      planState(s, plan, { shape: search.mesh!.shape, axis_names: search.mesh!.axis_names ?? [] }),
    );
    expect(frameworks(choices)).toEqual(['megatron', 'megatron-bridge', 'maxtext', 'deepspeed']);
    const bridge = chosenOption(choices.options, 'megatron-bridge')!.result;
    expect(bridge.format).toBe('yaml');
    expect(bridge.text).toContain(`tensor_model_parallel_size: ${plan.degrees.tensor}`);
    expect(chosenOption(choices.options, 'vllm')!.framework).toBe('megatron'); // a choice that does not apply: the first
  });

  it('a serving replica: vLLM on a TPU; vLLM, SGLang and TensorRT-LLM for a searched GPU deployment', async () => {
    const tpu = await launchOf(stateWith({ mode: 'serving' }));
    expect(tpu.sc.query.kind).toBe('serving');
    expect(frameworks(tpu.choices)).toEqual(['vllm']);
    expect(tpu.choices.options[0]!.result.text).toContain('vllm serve');
    const s = stateWith({ mode: 'serving', hw: 'h100-sxm' });
    const sc = servingSearchScenario(s)!;
    const res = JSON.parse(launch.evaluate(JSON.stringify(sc))) as Evaluation<ServingSearchResult>;
    const d = res.result!.deployments[0] ?? (res.result!.frontier[0] as ServingDeployment);
    const gpu = await launchOf(deploymentState(s, d));
    expect(frameworks(gpu.choices)).toEqual(['vllm', 'sglang', 'trtllm']);
    expect(gpu.choices.options[0]!.result.text).toContain(
      `--tensor-parallel-size ${d.degrees.tensor * d.degrees.expert}`,
    );
  });

  it('a plan no framework writes: its problems once, at the page’s own paths; not_applicable left out', () => {
    const bad: Diagnostic = {
      path: '/query/plan/seq_len',
      code: 'out_of_range',
      message: 'too long',
      severity: 'error',
    };
    const na = (f: string): Diagnostic => ({
      path: '/query/framework',
      code: 'not_applicable',
      message: `${f} serves models`,
      severity: 'error',
    });
    const answers: Evaluation<unknown>[] = [
      { ok: false, diagnostics: [bad], engine_version: '0' },
      { ok: false, diagnostics: [na('vllm')], engine_version: '0' },
      { ok: false, diagnostics: [bad], engine_version: '0' },
    ];
    expect(launchChoices(answers)).toEqual({ options: [], diagnostics: [{ ...bad, path: '/query/seq_len' }] });
    const result = { framework: 'maxtext', text: 'x' } as LaunchConfigResult;
    const ok = launchChoices([...answers, { ok: true, result, diagnostics: [], engine_version: '0' }]);
    expect(ok.diagnostics).toEqual([]);
    expect(ok.options.map((o) => o.framework)).toEqual(['maxtext']);
  });

  it('the page’s first-load module has no launch kinds', () => {
    const ev = JSON.parse(
      page.evaluate(
        JSON.stringify(
          launchScenario({ hardware: { preset: 'tpu-v5p' }, query: { kind: 'chip' } } as Scenario, 'maxtext'),
        ),
      ),
    ) as Evaluation<unknown>;
    expect(ev.diagnostics.map((d) => d.code)).toEqual(['unknown_choice']);
  });
});
