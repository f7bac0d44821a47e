// Views for training (scaling-book/training, scaling-book/applied-training): the MLP training roofline (the book's
// figure in scaling-book/training), the LLaMA-3 70B training planner, and a pipeline schedule. Plans come from
// src/state/scenario.ts, meshes from the engine (plan_mesh).
import { html, svg, nothing, type TemplateResult } from 'lit';
import { cssProps } from '../../charts/css-props';
import type {
  MlpRooflineResult,
  ModelResult,
  PlanSearchResult,
  SearchedPlan,
  Threshold,
  TrainingStepResult,
} from '../../engine/types';
import { COLOURS, COMMS_COLOURS, fmtBytes, fmtCount, fmtPercent, fmtSeconds, fmtUsd, sig } from '../../charts/format';
import { bars } from '../../charts/bars';
import { AXIS_NAMES, type MeshPlan } from '../../state/plan-mesh';
import { describePlan, STRATEGY_LABEL } from '../../ui/mesh-words';
import { applyPlan, type SearchedMesh } from '../../state/plans';
import { modelPreset, type State } from '../../state/params';
import { hardwareOf, mainScenario, meshAsked, modelScenario, planSearchScenario } from '../../state/scenario';
import { COMMS_LABELS, costNoteWords, goodputWords, thresholdTitle } from '../../ui/words';
import {
  card,
  need,
  warningBox,
  warnings,
  WidgetProblem,
  withValues,
  type Ask,
  type View,
  type ViewContext,
} from '../view';
import { hardwareOfState, TPU_IDS } from './basics';
import { SCHEMA_ENUMS } from '../../engine/schema-choices';

const num = (s: State, k: string): number => Number(s.values[k]);
const str = (s: State, k: string): string => String(s.values[k]);

function trainingState(s: State): State {
  return s.values['mode'] === 'training' ? s : withValues(s, { mode: 'training' });
}

/** The engine's mesh for the state's degrees, or a WidgetProblem saying why there is none (null: replaced). */
async function planFor(s: State, ask: Ask): Promise<MeshPlan | null> {
  const m = await meshAsked(s, ask);
  if (m && !m.ok) throw new WidgetProblem([m.problem]);
  return m?.plan ?? null;
}

// -------------------------------------------------------------------- training-roofline figure (scaling-book/training)

type MlpPoint = MlpRooflineResult['points'][number];

interface MlpData {
  r: MlpRooflineResult;
  here: MlpRooflineResult;
  shape: number[];
  d: number;
  f: number;
  current: MlpPoint;
}

const MLP_BATCHES = Array.from({ length: 33 }, (_, i) => Math.round(2 ** (12 + i / 2))); // 4k ... 268M tokens

export const trainingRoofline: View<MlpData> = {
  title: 'When is training compute-bound? (FSDP × TP)',
  blurb:
    'The book’s training roofline (chapter 5): one MLP block, forward pass per layer, on all chips of a slice split between FSDP and TP. Communication hides behind the math only above a batch that the engine finds; from some TP degree on, never.',
  toExplorer: (s) => withValues(s, { chips: num(s, 'cube') }),
  controls: () => [
    { key: 'hw', choices: TPU_IDS },
    { key: 'cube' },
    { key: 'tp', label: 'TP degree (FSDP takes the rest)', max: 4096 },
    { key: 'batch', label: 'Batch (tokens)' },
    { key: 'd_model', label: 'D (d_model)' },
    { key: 'ff_ratio', label: 'F / D' },
  ],
  fallback(s, key) {
    const m = modelPreset(str(s, 'model'));
    return key === 'd_model' ? m.d_model : key === 'ff_ratio' ? m.d_ff / m.d_model : undefined;
  },
  async compute(s, ask) {
    const chips = num(s, 'cube');
    const tp = num(s, 'tp');
    if (chips % tp !== 0)
      throw new WidgetProblem([`TP ${tp} does not divide the ${chips} chips: choose a TP degree that divides them.`]);
    // The slice: the most cube-like shape the chip allows for this many chips (the engine's plan_mesh lays it out).
    const slice = await planFor(
      withValues(s, { mode: 'training', dp: chips, fsdp: 1, tp: 1, pp: 1, ep: 1, cp: 1, slices: 1, layout: '' }),
      ask,
    );
    if (!slice) return null;
    // D and F as the engine re-shapes the model by the D and F/D rows (docs/api.md "Re-shaping a model").
    const shaped = await ask([modelScenario(s)]);
    if (!shaped) return null;
    const m = need<ModelResult>(shaped[0], 'Model').model;
    const q = (batches: number[]) => ({
      version: 1,
      hardware: hardwareOfState(s),
      mesh: { shape: slice.shape },
      query: { kind: 'mlp_roofline', d_model: m.d_model, d_ff: m.d_ff, fsdp: chips / tp, tp, batches },
    });
    // The curve, and the reader's batch on its own (X_opt is for that batch).
    const r = await ask([q(MLP_BATCHES), q([num(s, 'batch')])]);
    if (!r) return null;
    const here = need<MlpRooflineResult>(r[1], 'MLP roofline');
    return {
      r: need<MlpRooflineResult>(r[0], 'MLP roofline'),
      here,
      shape: slice.shape,
      d: m.d_model,
      f: m.d_ff,
      current: here.points[0]!,
    };
  },
  render(s, d) {
    const r = d.r;
    const c = d.current;
    const cross = r.comms_bound_at_every_batch ? 'never' : `${fmtCount(r.comms_bound_below_batch)} tokens`;
    return html`
      <div class="cards">
        ${card('cross', 'Compute-bound above', r.comms_bound_at_every_batch ? undefined : r.comms_bound_below_batch, cross, r.comms_bound_at_every_batch)}
        ${card('compute_s', 'Math at this batch', c.compute_s, fmtSeconds(c.compute_s))}
        ${card('fsdp_s', 'FSDP comms', c.fsdp_s, fmtSeconds(c.fsdp_s))}
        ${card('tp_s', 'TP comms', c.tp_s, fmtSeconds(c.tp_s))}
        ${card('bound', 'At this batch, bound by', undefined, c.bound, c.bound !== 'compute', true)}
        ${d.here.fsdp_optimal_degree !== undefined ? card('xopt', 'Best FSDP degree X_opt', d.here.fsdp_optimal_degree, fmtCount(d.here.fsdp_optimal_degree)) : nothing}
      </div>
      <p class="note">${fmtCount(r.chips)} chips as ${d.shape.join('×')}: FSDP ${fmtCount(r.fsdp)} over ${r.fsdp_axes} mesh axes, TP ${r.tp} over ${r.tp_axes}; D = ${fmtCount(d.d)}, F = ${fmtCount(d.f)}; batch ${fmtCount(num(s, 'batch'))} tokens.</p>
      <div class="chart"></div>`;
  },
  chart(s, d, charts, width) {
    const pts = d.r.points;
    const line = (name: string, colour: string, f: (p: MlpPoint) => number, emphasis = true) => ({
      name,
      colour,
      emphasis,
      points: pts.map((p) => ({ x: p.batch, y: f(p) })),
    });
    return charts.linesChart(
      [
        line('compute', COLOURS.compute, (p) => p.compute_s),
        line('communication (max)', COLOURS.highlight, (p) => p.comms_s),
        line('FSDP', COLOURS.comms, (p) => p.fsdp_s, false),
        line('TP', COLOURS.memory, (p) => p.tp_s, false),
      ],
      {
        xLabel: 'Batch (tokens) →',
        yLabel: '↑ Time per layer',
        xFormat: (v) => fmtCount(v),
        yFormat: (v) => fmtSeconds(v),
        width,
        rules: d.r.comms_bound_at_every_batch
          ? []
          : [{ x: d.r.comms_bound_below_batch, label: `compute-bound above ${fmtCount(d.r.comms_bound_below_batch)}` }],
        marks: [{ x: num(s, 'batch'), y: d.current.compute_s, label: 'your batch' }],
      },
    );
  },
};

// ----------------------------------------------------------------------------- planner (scaling-book/applied-training)

interface PlannerData {
  r: TrainingStepResult;
  plan: MeshPlan;
  warnings: string[];
  hwKind: 'tpu' | 'gpu';
}

function degreesText(deg: Record<string, number>): string {
  const parts = SCHEMA_ENUMS.Strategy.filter((k) => (deg[k] ?? 1) > 1).map((k) => `${STRATEGY_LABEL[k]} ${deg[k]}`);
  return parts.join(' × ') || 'one chip';
}

function thresholdsList(ts: Threshold[], binding: string): TemplateResult {
  return html`<ul class="thr">${ts.map(
    (t) => html`<li data-threshold=${t.name}><span class=${t.ok ? 'ok' : 'bad'}>${t.ok ? '✓' : '✗'}</span>
    ${thresholdTitle(t.name).replace(/^./, (c) => c.toLowerCase())}${t.name === binding ? html` <b>(binding)</b>` : nothing}: ${t.reason}</li>`,
  )}</ul>`;
}

/** What the plan search ran on (applyPlan needs the searched mesh to lay a TPU plan out exactly). */
interface SearchRun {
  r: PlanSearchResult;
  mesh: SearchedMesh;
}

async function suggest(s: State, ctx: ViewContext): Promise<void> {
  const sc = planSearchScenario(s, await meshAsked(s, ctx.ask));
  if (!sc?.mesh) {
    ctx.local['search'] = 'A plan search needs a mesh the chip can hold; fix the degrees first.';
    ctx.refresh();
    return;
  }
  ctx.local['search'] = 'running';
  ctx.refresh();
  const r = await ctx.ask([sc]);
  if (!r) return;
  try {
    const run: SearchRun = {
      r: need<PlanSearchResult>(r[0], 'plan search'),
      mesh: { shape: sc.mesh.shape, axis_names: sc.mesh.axis_names ?? AXIS_NAMES.slice(0, sc.mesh.shape.length) },
    };
    ctx.local['search'] = run;
  } catch (e) {
    ctx.local['search'] = e instanceof WidgetProblem ? e.lines.join('; ') : String(e);
  }
  ctx.refresh();
}

function usePlan(s: State, p: SearchedPlan, run: SearchRun, ctx: ViewContext): void {
  const a = applyPlan(s, p, run.mesh);
  if (!a.ok) {
    ctx.local['search'] = a.problems.join(' ');
    ctx.refresh();
    return;
  }
  ctx.set(a.state.values);
}

function renderSearch(s: State, d: PlannerData, ctx: ViewContext): TemplateResult {
  const st = ctx.local['search'];
  if (st === undefined) {
    return html`<p class="note"><button type="button" data-suggest @click=${() => void suggest(s, ctx)}>Suggest the best plan for these ${fmtCount(d.plan.chips)} chips</button>
      The engine tries every split of the mesh (ZeRO stage, microbatches, remat) and ranks what fits by step time.</p>`;
  }
  if (st === 'running')
    return html`<p class="note" role="status"><span class="spinner" aria-hidden="true"></span>Searching…</p>`;
  if (typeof st === 'string') return html`<div class="problems" role="alert">${st}</div>`;
  const run = st as SearchRun;
  const r = run.r;
  return html`<p class="note">${fmtCount(r.evaluated)} plans evaluated, ${fmtCount(r.valid)} valid, ${fmtCount(r.fitting)} fit in HBM. Best:</p>
    <div class="scroll"><table class="t" data-suggestions>
      <thead><tr><th>Plan</th><th class="r">Step</th><th class="r">MFU</th><th class="r">To train</th><th class="r">Cost</th><th></th></tr></thead>
      <tbody>${r.plans.slice(0, 3).map(
        (
          p,
        ) => html`<tr data-step=${p.step_s}><td>${degreesText(p.degrees)}, ZeRO-${p.parallelism.zero_stage ?? '–'}, ${p.parallelism.microbatches ?? 1} microbatch${(p.parallelism.microbatches ?? 1) > 1 ? 'es' : ''}, remat ${p.remat}${p.fits ? '' : ' (does not fit)'}</td>
        <td class="r">${fmtSeconds(p.step_s)}</td><td class="r">${fmtPercent(p.mfu_frac)}</td><td class="r">${fmtSeconds(p.train_time_s)}</td><td class="r">${fmtUsd(p.train_usd)}</td>
        <td><button type="button" data-use-plan @click=${() => usePlan(s, p, run, ctx)}>Use</button></td></tr>`,
      )}</tbody>
    </table></div>`;
}

/** Under 'Time to train' and 'Cost', the engine's time once chips fail (issue 38); a warning when the job never finishes.
 * Widgets ask at the book's fidelity, whose answer instead says what its time to train leaves out. */
function goodputNote(r: TrainingStepResult): TemplateResult | typeof nothing {
  const g = r.goodput;
  if (!g) return r.cost.note ? html`<p class="note" data-cost-note>${costNoteWords(r.cost.note)}</p>` : nothing;
  return html`<p class=${g.finishes ? 'note' : 'problems warn'} data-goodput=${String(g.goodput_frac)}>${goodputWords(g)}</p>`;
}

export const trainingPlanner: View<PlannerData> = {
  title: 'Training planner',
  blurb:
    'A training run of the model on a mesh of chips (the book’s chapter 6: LLaMA-3 70B on TPU v5p): pick the degrees and the batch; the engine gives the step, the days and the dollars, and which of the book’s thresholds binds.',
  normalise: trainingState,
  controls: () => [{ key: 'hw' }, { key: 'fsdp' }, { key: 'tp' }, { key: 'pp' }, { key: 'dp' }, { key: 'batch' }],
  async compute(s, ask) {
    const plan = await planFor(s, ask);
    if (!plan) return null;
    const r = await ask([mainScenario(s, plan)]);
    if (!r) return null;
    return {
      r: need<TrainingStepResult>(r[0], 'training step'),
      plan,
      warnings: warnings(r[0]),
      hwKind: hardwareOf(s).kind,
    };
  },
  render(s, d, ctx) {
    const r = d.r;
    const t = r.time;
    const comms = Object.entries(t.comms).filter(([, v]) => v > 0);
    const rows = [
      {
        label: 'compute',
        emphasis: t.critical.startsWith('compute'),
        segments: [
          { label: 'compute', value: t.compute_s, colour: COLOURS.compute },
          { label: 'pipeline bubble', value: t.bubble_s, colour: COLOURS.bubble },
        ],
      },
      ...comms.map(([k, v], i) => {
        const name = COMMS_LABELS[k] ?? k;
        return {
          label: `${name} comms`,
          emphasis: t.critical === k.replace('_s', ''),
          segments: [{ label: `${name} comms`, value: v, colour: COMMS_COLOURS[i % COMMS_COLOURS.length]! }],
        };
      }),
      { label: 'HBM', segments: [{ label: 'HBM', value: t.hbm_total_s, colour: COLOURS.memory }] },
    ];
    const fits = r.memory.fits;
    return html`
      ${warningBox(d.warnings)}
      <div class="cards">
        ${card('chips', 'Chips', r.degrees.chips, fmtCount(r.degrees.chips))}
        ${card('step_s', 'Step time', t.step_s, fmtSeconds(t.step_s))}
        ${card('mfu_frac', 'MFU', r.mfu_frac, fmtPercent(r.mfu_frac))}
        ${card('train_time_s', 'Time to train', r.cost.train_time_s, fmtSeconds(r.cost.train_time_s))}
        ${card('train_usd', 'Cost', r.cost.train_usd, fmtUsd(r.cost.train_usd))}
        ${card('memory_bytes', 'Memory per chip', r.memory.total_bytes, `${fmtBytes(r.memory.total_bytes)}${fits ? '' : ' (does not fit)'}`, !fits)}
      </div>
      ${goodputNote(r)}
      <p class="note">${describePlan(d.plan)}; ${fmtCount(num(s, 'batch'))} tokens per step, ${fmtCount(r.cost.train_tokens)} tokens in all; ${t.bound}-bound (${t.critical}).</p>
      ${bars(rows, [{ value: t.step_s, label: `step ${fmtSeconds(t.step_s)}`, colour: COLOURS.highlight }], (v) => fmtSeconds(v), 'Time per step by resource')}
      ${thresholdsList(r.thresholds, r.binding)}
      ${renderSearch(s, d, ctx)}`;
  },
};

// ------------------------------------------------------------------------------------------------ pipeline

type PipelineTimeline = NonNullable<TrainingStepResult['pipeline_timeline']>;
type PipelinePass = NonNullable<PipelineTimeline['passes']>[number];

interface PipelineData {
  r: TrainingStepResult;
  plan: MeshPlan;
  warnings: string[];
  timeline: PipelineTimeline;
}

const PASS_WORDS: Record<PipelinePass['pass'], string> = {
  forward: 'forward',
  backward: 'backward',
  input_grad: 'backward, input gradients',
  weight_grad: 'weight gradients (deferred)',
};

/** The engine's timeline of the step's schedule (training_step's pipeline_timeline), drawn stage by stage. */
function timeline(t: PipelineTimeline): TemplateResult {
  if (!t.laid_out || !t.passes) return html`<p class="note">(The schedule is not drawn: ${t.not_laid_out}.)</p>`;
  const S = t.stages;
  const span = t.span_s ?? 0;
  const W = 700;
  const L = 58;
  const rowH = Math.max(7, Math.min(22, Math.floor(300 / S)));
  const H = S * rowH + 26;
  const x = (time: number): number => L + (time / span) * (W - L - 6);
  const colour = (o: PipelinePass): string => {
    if (o.pass === 'forward') return o.chunk % 2 ? '#5b93c7' : COLOURS.compute;
    if (o.pass === 'weight_grad') return o.chunk % 2 ? COLOURS.kv : COLOURS.memory;
    return o.chunk % 2 ? COLOURS.comms2 : COLOURS.comms;
  };
  const split = t.passes.some((o) => o.pass === 'weight_grad');
  const chunked = t.chunks_per_stage > 1;
  const played = t.bubble_s ?? 0;
  const differs = Math.abs(played - t.step_bubble_s) > 0.005 * span;
  return html`<div class="drawing"><svg viewBox="0 0 ${W} ${H}" role="img" aria-label="Pipeline timeline: ${S} stages, ${t.microbatches} microbatches, ${t.schedule}; idle time is the bubble, ${fmtPercent(t.bubble_frac ?? 0)} of the span">
    ${Array.from(
      { length: S },
      (_, s) => svg`<rect x=${L} y=${s * rowH + 2} width=${W - L - 6} height=${rowH - 3} fill="#ececea"></rect>
      <text x=${L - 6} y=${s * rowH + rowH / 2 + 3} text-anchor="end" class="tick">stage ${s + 1}</text>`,
    )}
    ${t.passes.map((o) => {
      const w = x(o.end_s) - x(o.start_s);
      return svg`<rect x=${x(o.start_s)} y=${o.stage * rowH + 2} width=${Math.max(0.5, w - 0.6)} height=${rowH - 3} fill=${colour(o)}><title>${PASS_WORDS[o.pass]} of microbatch ${o.microbatch + 1}${chunked ? `, chunk ${o.chunk + 1}` : ''}: ${fmtSeconds(o.start_s)} to ${fmtSeconds(o.end_s)}</title></rect>
        ${w > 13 && rowH >= 12 ? svg`<text x=${x(o.start_s) + w / 2} y=${o.stage * rowH + rowH / 2 + 3} text-anchor="middle" font-size="9" fill="#fff">${o.microbatch + 1}</text>` : nothing}`;
    })}
    <text x=${L} y=${H - 6} class="tick">time →</text>
  </svg></div>
  <div class="legend"><span><i style=${cssProps({ background: COLOURS.compute })}></i>forward</span><span><i style=${cssProps({ background: COLOURS.comms })}></i>${split ? 'backward (its input gradients alone where the weight gradients wait)' : 'backward'}</span>${split ? html`<span><i style=${cssProps({ background: COLOURS.memory })}></i>weight gradients, deferred into the bubble</span>` : nothing}<span><i style=${cssProps({ background: '#ececea' })}></i>idle: the bubble</span>${chunked ? html`<span>lighter shades: ${t.schedule.startsWith('dualpipe') ? (t.schedule === 'dualpipe' ? 'microbatches entering at the last stage' : 'the way back up the V') : 'odd model chunks'}</span>` : nothing}</div>
  ${differs ? html`<p class="note">Played in this order at these pass times, the passes leave ${fmtSeconds(played)} idle; the step prices the schedule’s closed form, ${fmtSeconds(t.step_bubble_s)}, exact when a weight-gradient pass takes as long as a forward one.</p>` : nothing}`;
}

export const pipeline: View<PipelineData> = {
  title: 'Pipeline schedule and its bubble',
  blurb:
    'Stages each hold a block of layers; microbatches flow through them. While the pipeline fills and drains, stages wait: the bubble. The engine plays each schedule in its published order and prices every pass: the drawing, the bubble and every time are the engine’s.',
  normalise: trainingState,
  controls: () => [
    { key: 'pp', max: 64 },
    { key: 'mb', max: 256 },
    { key: 'sched' },
    { key: 'vstages', label: 'Chunks per stage (interleaved)', max: 8 },
    { key: 'zero' },
  ],
  async compute(s, ask) {
    if (num(s, 'pp') < 2) throw new WidgetProblem(['Set at least two pipeline stages.']);
    const plan = await planFor(s, ask);
    if (!plan) return null;
    const sc = mainScenario(s, plan);
    const r = await ask([{ ...sc, query: { ...sc.query, pipeline_timeline: true } }]);
    if (!r) return null;
    const res = need<TrainingStepResult>(r[0], 'training step');
    if (!res.pipeline_timeline) throw new WidgetProblem(['The engine gave no pipeline timeline.']);
    return { r: res, plan, warnings: warnings(r[0]), timeline: res.pipeline_timeline };
  },
  render(_s, d) {
    const t = d.r.time;
    return html`
      ${warningBox(d.warnings)}
      <div class="cards">
        ${card('bubble_frac', 'Bubble (engine)', t.bubble_frac, fmtPercent(t.bubble_frac))}
        ${card('bubble_s', 'Bubble time per step', t.bubble_s, fmtSeconds(t.bubble_s))}
        ${card('step_s', 'Step time', t.step_s, fmtSeconds(t.step_s))}
        ${card('inflight', 'Microbatches in flight', d.r.memory.in_flight_microbatches, sig(d.r.memory.in_flight_microbatches))}
        ${card('activations', 'Activations per chip', d.r.memory.activations_bytes, fmtBytes(d.r.memory.activations_bytes))}
      </div>
      <p class="note">${describePlan(d.plan)}; ${d.timeline.stages} stages, ${d.timeline.microbatches} microbatches, schedule ${d.timeline.schedule}${d.timeline.chunks_per_stage > 1 ? ` with ${d.timeline.chunks_per_stage} chunks per stage` : ''}.</p>
      ${timeline(d.timeline)}`;
  },
};
