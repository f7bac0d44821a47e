// What the explorer's panels show, computed once per answer: the engine's evaluations for a state, whether the plan
// on screen can run and fits (the headline is greyed and labelled when not), the headline metrics (with the book's
// ideal beside a calibrated estimate when the engine gives both), and the pinned comparison's own evaluation. Only
// engine fields are read; nothing here computes physics.
import type {
  ChipResult,
  Diagnostic,
  Evaluation,
  FidelityInfo,
  GoodputResult,
  IdealNumbers,
  ServingResult,
  TrainingStepResult,
  TransformerResult,
} from '../engine/types';
import type { MeshOutcome } from '../state/plan-mesh';
import type { PlanMeshResult } from '../engine/types';
import type { RooflineCurve, ScalingPoint } from '../state/scenario';
import type { State } from '../state/params';
import { chipsText } from '../state/serving-search';
import { fmtBytes, fmtPercent, fmtRate, fmtSeconds, fmtUsd } from '../charts/format';

export type Planned = TrainingStepResult | ServingResult;

/** A state's planner answer (and the mesh it ran on). */
export interface PlanAnswer {
  state: State;
  mesh: MeshOutcome;
  main: Evaluation<Planned> | null;
}

export interface Results extends PlanAnswer {
  /** The engine's plan_mesh answer for the state: its sliders' stops, a fixed chip count's balancing degree. */
  planMesh: PlanMeshResult | undefined;
  transformer: Evaluation<TransformerResult> | null;
  chip: Evaluation<ChipResult> | null;
  /** The pinned comparison's answer (and its chip, for prices), when one is pinned. */
  pinned: (PlanAnswer & { chip: Evaluation<ChipResult> | null }) | null;
  /** The roofline's curve for the chip (asked once per chip). */
  curve: RooflineCurve;
  /** The last charts' batch in: while a slider moves it may be for an earlier state than the numbers. */
  charts: ChartsAnswer | null;
  engineMs: number;
  /** Scenarios in the last batches and how many the page's cache answered. */
  scenarios: number;
  cached: number;
  /** 'primary': the numbers of `state` came in; 'secondary': a charts' batch did. */
  stage: 'primary' | 'secondary';
}

/** What the charts draw beyond the numbers: the scaling points and, at the book's fidelity, the serving replica. */
export interface ChartsAnswer {
  state: State;
  scaling: { point: ScalingPoint; ev: Evaluation<Planned> }[];
  /** Serving with the charts at the book's fidelity: the replica at it, whose sweep the frontier draws. */
  bookServing?: ServingResult;
}

export const isServing = (s: State): boolean => s.values['mode'] === 'serving';

export function trainingOf(a: PlanAnswer): TrainingStepResult | undefined {
  return !isServing(a.state) && a.main?.ok ? (a.main.result as TrainingStepResult) : undefined;
}

export function servingOf(a: PlanAnswer): ServingResult | undefined {
  return isServing(a.state) && a.main?.ok ? (a.main.result as ServingResult) : undefined;
}

/**
 * The values the engine used for the rows left unset, by row key, for each control to show its own: the KV context
 * a decode step reads, the goodput settings (failure rate, checkpoint mode, host replacement) its defaults filled in.
 */
export function engineDefaults(a: PlanAnswer | undefined): Record<string, number | string> {
  const out: Record<string, number | string> = {};
  const kv = a && (servingOf(a) as { kv_context_len?: number } | undefined)?.kv_context_len;
  if (kv !== undefined) out['kvctx'] = kv;
  const g = a && trainingOf(a)?.goodput;
  if (g)
    Object.assign(out, {
      fail: g.settings.failures_per_chip_hour,
      ckpt_mode: g.checkpoint.mode,
      replace: g.restart.replace_s,
    });
  return out;
}

/** Can the plan run, does it fit, does it warn? With a sentence for the headline. */
export interface PlanStatus {
  kind: 'ok' | 'warning' | 'no-fit' | 'cannot-run';
  text: string;
}

const firstError = (d: Diagnostic[]): Diagnostic | undefined => d.find((x) => x.severity !== 'warning');

export function planStatus(a: PlanAnswer): PlanStatus {
  if (!a.mesh.ok) return { kind: 'cannot-run', text: `Cannot run: ${a.mesh.problem}` };
  if (!a.main) return { kind: 'cannot-run', text: 'Cannot run: no answer from the engine.' };
  if (!a.main.ok)
    return {
      kind: 'cannot-run',
      text: `Cannot run: ${firstError(a.main.diagnostics)?.message ?? 'the engine rejected this plan'}.`,
    };
  const t = trainingOf(a);
  const s = servingOf(a);
  if (t && !t.memory.fits)
    return {
      kind: 'no-fit',
      text: `Does not fit: needs ${fmtBytes(t.memory.total_bytes)} per chip of ${fmtBytes(t.memory.hbm_capacity_bytes)} HBM.`,
    };
  if (s && !s.memory.fits)
    return {
      kind: 'no-fit',
      text:
        s.memory.budget_bytes < s.memory.hbm_capacity_bytes
          ? `Does not fit: the replica needs ${fmtBytes(s.memory.total_bytes)} of the ${fmtBytes(s.memory.budget_bytes)} its engine’s memory budget gives (of ${fmtBytes(s.memory.hbm_capacity_bytes)} HBM).`
          : `Does not fit: the replica needs ${fmtBytes(s.memory.total_bytes)} of ${fmtBytes(s.memory.hbm_capacity_bytes)} HBM.`,
    };
  const warnings = a.main.diagnostics.filter((d) => d.severity === 'warning');
  if (warnings.length)
    return {
      kind: 'warning',
      text: `Runs, with ${warnings.length === 1 ? 'a warning' : `${warnings.length} warnings`}: ${warnings[0]!.message}.`,
    };
  return { kind: 'ok', text: 'Fits in HBM; no warnings.' };
}

/** A plan worth comparing or drawing as an ordinary point: it runs and fits. */
export const valid = (st: PlanStatus): boolean => st.kind === 'ok' || st.kind === 'warning';

export interface Metric {
  id: string;
  label: string;
  value: number | undefined;
  text: string;
  /** For compare: is a larger value better? (null: neither) */
  higherBetter: boolean | null;
  /** The book's ideal for the same number, when the result is calibrated and carries it. */
  ideal?: { value: number; text: string; label?: string };
}

/** The result's fidelity fields (absent before the engine has them: then every number is the book's). */
export function fidelityOf(a: PlanAnswer): FidelityInfo {
  return (a.main?.ok ? (a.main.result as FidelityInfo) : undefined) ?? {};
}

type IdealKey = keyof IdealNumbers;
/** The headline numbers a deployment replaces; each is also a key of the ideal (the book's bound). */
type DeploymentNumber =
  'latency_per_token_s' | 'tokens_per_s' | 'tokens_per_s_per_chip' | 'usd_per_million_output_tokens';

function metric(
  id: string,
  label: string,
  value: number | undefined,
  text: (v: number | undefined) => string,
  higherBetter: boolean | null,
  f: FidelityInfo,
  ideal?: IdealKey,
): Metric {
  const m: Metric = { id, label, value, text: text(value), higherBetter };
  const iv = ideal && f.fidelity === 'calibrated' ? f.ideal?.[ideal] : undefined;
  if (typeof iv === 'number') m.ideal = { value: iv, text: text(iv) };
  return m;
}

/**
 * The book's memory is a count, not a bound: its activations and buffers differ from the calibrated step's (issue
 * 22: 80.1 GB by the book where the page said 74.2 GB fits), so it is named so, and says when it is over HBM.
 */
function bookMemory(m: Metric, hbmBytes: number | undefined): Metric {
  if (!m.ideal) return m;
  const over = hbmBytes !== undefined && m.ideal.value > hbmBytes ? ' (over HBM)' : '';
  return { ...m, ideal: { ...m.ideal, label: 'book’s count', text: m.ideal.text + over } };
}

/**
 * A number of the engine's goodput block (issue 38), none without the block (the book's fidelity). The engine leaves a
 * job that never finishes without times: the metric says "never" rather than a number.
 */
function withFailures(
  g: GoodputResult | undefined,
  id: 'wall_time_s' | 'wall_usd',
  label: string,
  text: (v: number | undefined) => string,
): Metric[] {
  if (!g) return [];
  const value = g.finishes ? (g[id] ?? undefined) : undefined;
  return [{ id, label, value, text: value === undefined ? 'never' : text(value), higherBetter: false }];
}

export function metricsOf(a: PlanAnswer, chip: ChipResult | undefined): Metric[] {
  const chips = a.mesh.ok ? a.mesh.plan.chips : undefined;
  const f = fidelityOf(a);
  const out: Metric[] = [
    { id: 'chips', label: 'Chips', value: chips, text: chips === undefined ? '—' : String(chips), higherBetter: null },
  ];
  const s = servingOf(a);
  if (isServing(a.state)) {
    // With a deployment in the query (an applied serving-search row), its replicas and prefill servers are counted as
    // the search's table counts them (core/planners/serving_deployment.h); else the one replica on screen.
    const dep = s?.deployment;
    const idealDep = f.fidelity === 'calibrated' ? f.ideal?.deployment : undefined;
    const price = chip?.price_usd_per_chip_hour;
    const deployedChips = dep?.total_chips ?? chips;
    const perHour = price !== undefined && deployedChips !== undefined ? price * deployedChips : undefined;
    if (dep)
      out[0] = {
        ...out[0]!,
        label: `Chips (${chipsText(dep)})`,
        value: dep.total_chips,
        text: String(dep.total_chips),
      };
    // The deployment's keys are the replica's own, so one key names the value and its ideal.
    const withDep = (
      key: DeploymentNumber,
      label: string,
      replica: number | undefined,
      text: (v: number | undefined) => string,
      higherBetter: boolean,
    ): Metric => {
      if (!dep) return metric(key, label, replica, text, higherBetter, f, key);
      const m: Metric = { id: key, label, value: dep[key], text: text(dep[key]), higherBetter };
      if (idealDep) m.ideal = { value: idealDep[key], text: text(idealDep[key]) };
      return m;
    };
    out.push(
      metric('ttft_s', 'Time to first token', s?.time_to_first_token_s, fmtSeconds, false, f, 'time_to_first_token_s'),
      withDep('latency_per_token_s', 'Latency per token', s?.latency_per_token_s, fmtSeconds, false),
      ...(s?.speculative
        ? [
            metric(
              'spec_latency_per_token_s',
              'Latency per token, speculative',
              s.speculative.latency_per_token_s,
              fmtSeconds,
              false,
              f,
            ),
          ]
        : []),
      withDep('tokens_per_s', 'Tokens/s', s?.tokens_per_s, (v) => fmtRate(v, 'tok/s'), true),
      withDep('tokens_per_s_per_chip', 'Tokens/s per chip', s?.tokens_per_s_per_chip, (v) => fmtRate(v, 'tok/s'), true),
      // Not 'memory_bytes': a replica's memory is not training's per-chip memory, and the comparison must not pair them.
      metric('replica_memory_bytes', 'Memory (replica)', s?.memory?.total_bytes, fmtBytes, false, f),
      metric('usd_per_hour', 'Cost per hour', perHour, fmtUsd, false, f),
      withDep(
        'usd_per_million_output_tokens',
        '$ per 1M output tokens',
        s?.usd_per_million_output_tokens,
        fmtUsd,
        false,
      ),
      metric(
        'usd_per_million_input_tokens',
        '$ per 1M input tokens',
        s?.usd_per_million_input_tokens,
        fmtUsd,
        false,
        f,
      ),
    );
    return out;
  }
  const t = trainingOf(a);
  // Dollars per million tokens from the engine's own rate and price (a change of units, not a model).
  const usdPerMTok =
    t?.cost?.usd_per_hour !== undefined && t.tokens_per_s
      ? (t.cost.usd_per_hour / 3600 / t.tokens_per_s) * 1e6
      : undefined;
  out.push(
    metric('step_s', 'Step time', t?.time?.step_s, fmtSeconds, false, f, 'step_s'),
    metric('mfu_frac', 'MFU', t?.mfu_frac, fmtPercent, true, f, 'mfu_frac'),
    metric('tokens_per_s', 'Tokens/s', t?.tokens_per_s, (v) => fmtRate(v, 'tok/s'), true, f, 'tokens_per_s'),
    metric('train_time_s', 'Time to train', t?.cost?.train_time_s, fmtSeconds, false, f, 'train_time_s'),
    ...withFailures(t?.goodput, 'wall_time_s', 'Time to train, with failures', fmtSeconds),
    bookMemory(
      metric('memory_bytes', 'Memory per chip', t?.memory?.total_bytes, fmtBytes, false, f, 'total_bytes'),
      t?.memory?.hbm_capacity_bytes,
    ),
    metric('usd_per_hour', 'Cost per hour', t?.cost?.usd_per_hour, fmtUsd, false, f),
    metric('train_usd', 'Cost of the run', t?.cost?.train_usd, fmtUsd, false, f, 'train_usd'),
    ...withFailures(t?.goodput, 'wall_usd', 'Cost with failures', fmtUsd),
    metric('usd_per_million_tokens', '$ per 1M tokens', usdPerMTok, fmtUsd, false, f),
  );
  return out;
}

/** The efficiency knobs all at the book's 1.0 (every chip at peak): the numbers are an ideal bound. */
export function atBookEfficiency(s: State): boolean {
  return ['eff_flops', 'eff_hbm', 'eff_net'].every((k) => Number(s.values[k]) === 1);
}
