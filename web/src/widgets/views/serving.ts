// Views for inference (scaling-book/inference and scaling-book/applied-inference: latency breakdown and the
// latency–throughput frontier) and GPU networks (scaling-book/gpus: a collective at each level of the fat tree).
import { html, nothing } from 'lit';
import type {
  CollectiveResult as GpuCollective,
  GpuTopology,
  ServingResult,
  ServingSweepPoint,
} from '../../engine/types';
import { COLOURS, COMMS_COLOURS, fmtBytes, fmtBytesPerS, fmtCount, fmtSeconds, fmtUsd, sig } from '../../charts/format';
import { bars } from '../../charts/bars';
import { describePlan } from '../../ui/mesh-words';
import { degreeStops, planMeshResult, type MeshPlan } from '../../state/plan-mesh';
import { MODEL_IDS, type State } from '../../state/params';
import { mainScenario, meshOf, planMeshScenario, weightsDtype } from '../../state/scenario';
import { publishedDtypeWords } from '../../ui/fields';
import { controlParam, type ControlSpec } from '../controls';
import { card, need, warningBox, warnings, WidgetProblem, withValues, type View } from '../view';
import { GPU_IDS, hardwareOfState, opName } from './basics';

const num = (s: State, k: string): number => Number(s.values[k]);
const str = (s: State, k: string): string => String(s.values[k]);

// ------------------------------------------------------------------------------------------------ serving

interface ServingData {
  r: ServingResult;
  others: ServingSweepPoint[];
  plan: MeshPlan;
  warnings: string[];
  /** Where the TP slider stops, and for which model (the engine's plan_mesh answer). */
  tpStops: { model: string; stops: number[] | null };
}

const TP_CONTROL: ControlSpec = { key: 'tp', label: 'Chips (TP)', max: 256 };
const modelKey = (s: State): string => `${str(s, 'model')} ${str(s, 'hf')}`;

/** KV context lengths of the faint reference curves (the book's figures show several). */
const REFERENCE_CONTEXTS = [1024, 4096, 16384, 65536];
const CONTEXT_COLOURS = ['#9ecae1', '#6baed6', '#3182bd', '#08519c'];

export const serving: View<ServingData> = {
  title: 'Serving: latency and throughput',
  blurb:
    'One serving replica decoding a batch (the book’s chapters 7 and 8): where a decode step’s time goes, and how latency per token trades against throughput per chip as the batch grows (the curve), at the chosen context and at other contexts (faint).',
  normalise: (s) => (s.values['mode'] === 'serving' ? s : withValues(s, { mode: 'serving' })),
  controls: (s, d) => {
    // TP stops at the degrees the engine says the model splits into, its heads and d_ff (LLaMA-2 13B: 1, 2, 4, 8), as
    // the explorer's slider does: 16 would be a problem box where the widget's bars were (issue 22).
    const stops = d?.tpStops.model === modelKey(s) ? d.tpStops.stops : null;
    return [
      { key: 'model', choices: MODEL_IDS },
      { ...TP_CONTROL, ...(stops ? { stops } : {}) },
      { key: 'sbatch', max: 4096 },
      { key: 'prompt', label: 'Context (prompt tokens)', max: 131072 },
      { key: 'wdt', shown: weightsDtype(s), optionLabels: publishedDtypeWords(weightsDtype(s)) },
      { key: 'kvdt' },
    ];
  },
  async compute(s, ask) {
    const question = await ask([planMeshScenario(s, undefined, { stops: true })]);
    if (!question) return null;
    const m = meshOf(s, question[0]);
    if (!m.ok) throw new WidgetProblem([m.problem]);
    const tp = controlParam(TP_CONTROL);
    const tpStops = {
      model: modelKey(s),
      stops: degreeStops(tp, s, planMeshResult(question[0]))?.filter((v) => v <= (tp.max ?? Infinity)) ?? null,
    };
    const main = mainScenario(s, m.plan) as unknown as { query: Record<string, unknown> };
    const reference = { ...main, query: { ...main.query, sweep: { contexts: REFERENCE_CONTEXTS } } };
    const r = await ask([main, reference]);
    if (!r) return null;
    const res = need<ServingResult>(r[0], 'serving');
    const others = r[1]?.ok ? (r[1].result as ServingResult).sweep : [];
    return { r: res, others, plan: m.plan, warnings: warnings(r[0]), tpStops };
  },
  render(s, d) {
    const r = d.r;
    const dec = r.decode;
    const rows = [
      {
        label: 'weights load',
        segments: [{ label: 'weights', value: dec.param_load_s, colour: COLOURS.params }],
        emphasis: dec.bound === 'memory',
      },
      {
        label: 'KV cache load',
        segments: [{ label: 'KV cache', value: dec.kv_load_s, colour: COLOURS.kv }],
        emphasis: dec.bound === 'memory',
      },
      {
        label: 'FLOPs',
        segments: [{ label: 'FLOPs', value: dec.flops_s, colour: COLOURS.compute }],
        emphasis: dec.bound === 'compute',
      },
      {
        label: 'communication',
        segments: [{ label: 'communication', value: dec.comms_s, colour: COMMS_COLOURS[0]! }],
        emphasis: dec.bound === 'communication',
      },
      ...(dec.overhead_s > 0
        ? [
            {
              label: 'overhead',
              segments: [{ label: 'overhead (launches, per step)', value: dec.overhead_s, colour: COLOURS.other }],
            },
          ]
        : []),
    ];
    return html`
      ${warningBox(d.warnings)}
      <div class="cards">
        ${card('latency_per_token_s', 'Latency per token', r.latency_per_token_s, fmtSeconds(r.latency_per_token_s))}
        ${card('tokens_per_s_per_chip', 'Tokens/s per chip', r.tokens_per_s_per_chip, sig(r.tokens_per_s_per_chip))}
        ${card('ttft_s', 'Time to first token', r.time_to_first_token_s, fmtSeconds(r.time_to_first_token_s))}
        ${card('max_batch', 'Largest batch that fits', r.memory.max_batch, fmtCount(r.memory.max_batch), r.memory.max_batch < num(s, 'sbatch'))}
        ${card('usd_per_million_output_tokens', 'Per million output tokens', r.usd_per_million_output_tokens, fmtUsd(r.usd_per_million_output_tokens))}
        ${card('memory_bytes', 'Memory (all chips)', r.memory.total_bytes, `${fmtBytes(r.memory.total_bytes)}${r.memory.fits ? '' : ' (does not fit)'}`, !r.memory.fits)}
      </div>
      <p class="note">${describePlan(d.plan)}; batch ${num(s, 'sbatch')}, decode reads ${fmtCount(r.kv_context_len)} tokens of KV cache; the step is ${dec.bound}-bound.</p>
      ${bars(rows, [{ value: dec.step_s, label: `step ${fmtSeconds(dec.step_s)}`, colour: COLOURS.highlight }], (v) => fmtSeconds(v), 'Decode step: time per resource')}
      <div class="chart"></div>`;
  },
  chart(s, d, charts, width) {
    const ctx = d.r.kv_context_len;
    const series = REFERENCE_CONTEXTS.map((c, i) => ({
      name: `context ${fmtCount(c)}`,
      colour: CONTEXT_COLOURS[i]!,
      emphasis: false,
      points: d.others
        .filter((p) => p.context === c && p.fits)
        .map((p) => ({ x: p.tokens_per_s_per_chip, y: p.latency_per_token_s })),
    })).filter((x) => x.points.length > 1);
    series.push({
      name: `this context (${fmtCount(ctx)})`,
      colour: COLOURS.highlight,
      emphasis: true,
      points: d.r.sweep.filter((p) => p.fits).map((p) => ({ x: p.tokens_per_s_per_chip, y: p.latency_per_token_s })),
    });
    return charts.linesChart(series, {
      xLabel: 'Throughput (tokens/s per chip) →',
      yLabel: '↑ Latency per token',
      xFormat: (v) => fmtCount(v),
      yFormat: (v) => fmtSeconds(v),
      width,
      height: 280,
      marks: [{ x: d.r.tokens_per_s_per_chip, y: d.r.latency_per_token_s, label: `batch ${num(s, 'sbatch')}` }],
    });
  },
};

// ------------------------------------------------------------------------------------------------ GPU fat tree

type Level = GpuTopology['levels'][number];

interface GpuData {
  levels: Level[];
  times: GpuCollective[];
}

const LEVEL_NAMES: Record<string, string> = { scale_up: 'NVLink domain', leaf: 'leaf switches', spine: 'spine' };

export const gpuCollectives: View<GpuData> = {
  title: 'A collective at each level of a GPU cluster',
  modelFree: true,
  blurb:
    'GPUs in a node share an NVLink switch; nodes hang off leaf switches, leaves off spines (the book’s chapter 12). The same collective over all GPUs below each level: bandwidth per GPU drops as the group leaves the node.',
  controls: () => [
    { key: 'hw', choices: GPU_IDS },
    { key: 'op' },
    { key: 'cbytes' },
    { key: 'gpus' },
    { key: 'sharp' },
  ],
  toExplorer: (s) => withValues(s, { chips: num(s, 'gpus') }),
  async compute(s, ask) {
    const hardware = hardwareOfState(s);
    const t = await ask([{ version: 1, hardware, query: { kind: 'topology', gpus: num(s, 'gpus') } }]);
    if (!t) return null;
    const levels = need<{ levels: Level[] }>(t[0], 'cluster').levels;
    const q = (n: number) => ({
      version: 1,
      hardware,
      mesh: { shape: [n], axis_names: ['X'] },
      query: {
        kind: 'collective',
        op: str(s, 'op'),
        bytes: num(s, 'cbytes'),
        axes: ['X'],
        in_network_reduction: s.values['sharp'] === true,
      },
    });
    const r = await ask(levels.map((l) => q(l.gpus_per_parent)));
    if (!r) return null;
    return {
      levels,
      times: levels.map((l, i) => need<GpuCollective>(r[i], `${opName(str(s, 'op'))} over ${l.gpus_per_parent} GPUs`)),
    };
  },
  render(s, d) {
    const rows = d.levels.map((l, i) => {
      const c = d.times[i]!;
      return {
        label: `${fmtCount(l.gpus_per_parent)} GPUs`,
        note: LEVEL_NAMES[l.name] ?? l.name,
        segments: [
          { label: 'bandwidth', value: c.bandwidth_s, colour: COLOURS.comms },
          { label: 'latency', value: c.latency_s, colour: COLOURS.comms3 },
        ],
      };
    });
    return html`
      <div class="cards">
        ${d.levels.map((l, i) => card(`level_${l.name}`, `${LEVEL_NAMES[l.name] ?? l.name} (${fmtCount(l.gpus_per_parent)} GPUs)`, d.times[i]!.time_s, fmtSeconds(d.times[i]!.time_s)))}
      </div>
      ${bars(rows, [], (v) => fmtSeconds(v), `${opName(str(s, 'op'))} of ${fmtBytes(num(s, 'cbytes'))} over all GPUs below each level`)}
      <div class="scroll"><table class="t">
        <thead><tr><th>Level</th><th class="r">GPUs below</th><th class="r">Egress per child</th><th class="r">Effective bandwidth</th><th>Regime</th></tr></thead>
        <tbody>${d.levels.map(
          (l, i) => html`<tr><td>${LEVEL_NAMES[l.name] ?? l.name}</td><td class="r">${fmtCount(l.gpus_per_parent)}</td>
          <td class="r">${fmtBytesPerS(l.child_egress_unidir_bytes_per_s)}</td><td class="r">${fmtBytesPerS(d.times[i]!.effective_bandwidth_bytes_per_s)}</td><td>${d.times[i]!.regime}</td></tr>`,
        )}</tbody>
      </table></div>
      ${s.values['sharp'] === true ? html`<p class="note">With in-network reduction the switches sum the data, which matters for AllReduce.</p>` : nothing}`;
  },
};
