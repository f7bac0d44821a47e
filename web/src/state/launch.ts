// A plan as a framework's launch configuration (docs/api.md "Framework launch configs"): the launch_config scenarios
// the page asks of the launch engine (src/engine/launch-client.ts) for a searched plan, a serving deployment or the
// replica on screen, and which frameworks the page offers for it. The page keeps none of the engine's rules about
// frameworks (which launch training, which serve, which run on TPUs): it asks every framework the schema names
// and offers those that write the plan; the rest answer not_applicable.
import type {
  Diagnostic,
  Evaluation,
  Framework,
  LaunchConfigQuery,
  LaunchConfigResult,
  Scenario,
  SearchedPlanCore,
  ServingDeployment,
} from '../engine/types';
import type { State } from './params';
import { applyPlan, type SearchedMesh } from './plans';
import { applyDeployment } from './serving-search';
import { mainScenario, meshAsked } from './scenario';
import { SCHEMA_ENUMS } from '../engine/schema-choices';

/** Every framework the engine writes (the schema's enum, common.schema.json#/$defs/Framework). */
export const FRAMEWORKS: readonly Framework[] = SCHEMA_ENUMS.Framework;

/** Asks the engine (the launch worker) a batch of scenarios; null when a newer request replaced this one. */
export type LaunchAsk = (scenarios: Scenario[]) => Promise<Evaluation<unknown>[] | null>;

/** The state a searched plan runs as (what its Apply sets), or why the page cannot hold it. */
export function planState(state: State, plan: SearchedPlanCore, mesh: SearchedMesh): State | string {
  const a = applyPlan(state, plan, mesh);
  return a.ok ? a.state : a.problems.join(' ');
}

/** The state a serving deployment runs as (what its Apply sets), or why the page cannot hold it. */
export function deploymentState(state: State, d: ServingDeployment): State | string {
  const a = applyDeployment(state, d);
  return a.ok ? a.state : a.problems.join(' ');
}

/**
 * The training_step or serving scenario a state runs, as the page sends it for its numbers (mainScenario; a
 * benchmark's load left out: it prices, it does not launch), on the state's mesh: an applied plan's own layout, else
 * the engine's plan_mesh answer. A string says why there is none; null, that a newer request replaced this one.
 */
export async function runScenario(state: State, ask: LaunchAsk): Promise<Scenario | string | null> {
  const mesh = await meshAsked(state, ask);
  if (!mesh) return null;
  return mesh.ok ? mainScenario(state, mesh.plan, { load: false }) : mesh.problem;
}

/**
 * The launch_config scenario of a training_step or serving scenario: its hardware, model and mesh, and its query as
 * the plan, without a calibration profile (it prices; the engine takes and ignores it, and it can be large).
 */
export function launchScenario(sc: Scenario, framework: Framework): Scenario {
  const { calibration: _profile, ...plan } = sc.query as Scenario['query'] & { calibration?: unknown };
  void _profile;
  const query: LaunchConfigQuery = { kind: 'launch_config', framework, plan: plan as LaunchConfigQuery['plan'] };
  const out: Scenario = { version: sc.version ?? 1, hardware: sc.hardware, query };
  if (sc.model) out.model = sc.model;
  if (sc.mesh) out.mesh = sc.mesh;
  return out;
}

/** A framework that writes the plan, with its answer. */
export interface LaunchOption {
  framework: Framework;
  result: LaunchConfigResult;
  /** The answer's warnings. */
  diagnostics: Diagnostic[];
}

/** The frameworks the page offers for a plan, and, when none writes it, why (the plan's own problems). */
export interface LaunchChoices {
  options: LaunchOption[];
  diagnostics: Diagnostic[];
}

/** A launch answer's diagnostic at the plan's place in the page's own scenario (/query/plan/x -> /query/x), so it names the control behind it. */
const atPlan = (d: Diagnostic): Diagnostic => ({ ...d, path: d.path.replace(/^\/query\/plan(?=\/|$)/, '/query') });

/**
 * The engine's answers to launchScenario for each of FRAMEWORKS, in order: the frameworks that wrote the plan; and
 * when none did, the answers' diagnostics but the not_applicable ones (each problem once: every framework meets
 * the same plan).
 */
export function launchChoices(answers: readonly Evaluation<unknown>[]): LaunchChoices {
  const options: LaunchOption[] = [];
  for (const ev of answers)
    if (ev.ok && ev.result)
      options.push({
        framework: (ev.result as LaunchConfigResult).framework,
        result: ev.result as LaunchConfigResult,
        diagnostics: ev.diagnostics.map(atPlan),
      });
  if (options.length) return { options, diagnostics: [] };
  const seen = new Set<string>();
  const diagnostics = answers
    .flatMap((ev) => ev.diagnostics)
    .filter((d) => d.code !== 'not_applicable' || d.path !== '/query/framework')
    .map(atPlan)
    .filter((d) => {
      const key = `${d.path} ${d.code} ${d.message}`;
      return !seen.has(key) && seen.add(key) !== undefined;
    });
  return { options, diagnostics };
}

/** The option shown: the reader's last choice when it applies, else the engine's first. */
export function chosenOption(options: readonly LaunchOption[], preferred: Framework | null): LaunchOption | undefined {
  return options.find((o) => o.framework === preferred) ?? options[0];
}
