// Views for the primitives of Parts 1-3 of the book: the roofline (scaling-book/roofline), a TPU slice
// (scaling-book/tpus) and one collective (scaling-book/sharding).
import { html, svg, type TemplateResult } from 'lit';
import type { ChipResult, CollectiveResult, RooflineResult, TpuTopology as TopologyResult } from '../../engine/types';
import {
  COLOURS,
  fmtBytes,
  fmtBytesPerS,
  fmtCount,
  fmtFlopsPerS,
  fmtSeconds,
  sig,
  tickFormatSI,
} from '../../charts/format';
import { HARDWARE_IDS, hardwarePreset, type State } from '../../state/params';
import { chipScenario, hardwareOf, rooflineCurveOf, rooflineCurveScenarios } from '../../state/scenario';
import { card, need, withValues, type View } from '../view';

const num = (s: State, k: string): number => Number(s.values[k]);
const str = (s: State, k: string): string => String(s.values[k]);
export const TPU_IDS = HARDWARE_IDS.filter((id) => hardwarePreset(id).kind === 'tpu');
export const GPU_IDS = HARDWARE_IDS.filter((id) => hardwarePreset(id).kind === 'gpu');

/** The scenario's hardware part (preset and any overrides) for the state. */
export const hardwareOfState = (s: State): ReturnType<typeof chipScenario>['hardware'] => chipScenario(s).hardware;

// ------------------------------------------------------------------------------------ roofline (scaling-book/roofline)

interface RooflineData {
  chip: ChipResult;
  curve: { intensity: number; attainable: number }[];
  op: RooflineResult;
}

const GFLOP = 1e9;

export const roofline: View<RooflineData> = {
  title: 'Roofline',
  modelFree: true,
  blurb:
    'Attainable FLOP/s of one chip against the arithmetic intensity of an operation (log axes, the book’s chapter 1). Left of the ridge the operation waits for HBM; right of it, for the matrix units.',
  controls: () => [
    { key: 'hw' },
    { key: 'mm', label: 'Precision', choices: ['bf16', 'fp8', 'int8', 'fp4'] },
    { key: 'ai' },
  ], // dtypes: a roofline has no recipe
  async compute(s, ask) {
    const hardware = hardwareOfState(s);
    const opScenario = {
      version: 1,
      hardware,
      query: { kind: 'roofline', flops: num(s, 'ai') * GFLOP, bytes: GFLOP, dtype: str(s, 'mm') },
    };
    const r = await ask([chipScenario(s), opScenario, ...rooflineCurveScenarios(s)]);
    if (!r) return null;
    const curve = rooflineCurveOf(r.slice(2)).points;
    const op = need<RooflineResult>(r[1], 'roofline');
    // The knee of the roof is the engine's ridge point at the engine's peak; the sampled curve would cut the corner.
    curve.push({ intensity: op.critical_intensity_flops_per_byte, attainable: op.peak_flops_per_s });
    curve.sort((a, b) => a.intensity - b.intensity);
    return { chip: need<ChipResult>(r[0], 'chip'), op, curve };
  },
  render(s, d) {
    const op = d.op;
    return html`
      <div class="cards">
        ${card('peak', `Peak (${str(s, 'mm')})`, op.peak_flops_per_s, fmtFlopsPerS(op.peak_flops_per_s))}
        ${card('hbm', 'HBM bandwidth', op.bandwidth_bytes_per_s, fmtBytesPerS(op.bandwidth_bytes_per_s))}
        ${card('ridge', 'Ridge (FLOPs/byte)', op.critical_intensity_flops_per_byte, sig(op.critical_intensity_flops_per_byte))}
        ${card('attainable', 'Attainable', op.attainable_flops_per_s, fmtFlopsPerS(op.attainable_flops_per_s))}
        ${card('bound', 'Bound by', undefined, op.bound, false, true)}
      </div>
      <p class="note">At intensity <b>${sig(op.intensity_flops_per_byte)}</b>, 1 GFLOP needs ${fmtSeconds(op.compute_s)} of math and
        ${fmtSeconds(op.memory_s)} to move its ${fmtBytes(op.bytes_per_chip)}: it takes at least <b>${fmtSeconds(op.lower_bound_s)}</b>.</p>
      <div class="chart"></div>`;
  },
  chart(_s, d, charts, width) {
    const op = {
      name: `intensity ${sig(d.op.intensity_flops_per_byte)}`,
      intensity: d.op.intensity_flops_per_byte,
      attainable: d.op.attainable_flops_per_s,
      bound: d.op.bound,
    };
    return charts.rooflineChart(d.curve, [op], d.op.critical_intensity_flops_per_byte, width) as Element;
  },
};

// --------------------------------------------------------------------------------------- TPU slice (scaling-book/tpus)

interface SliceData {
  topo: TopologyResult;
  gathers: CollectiveResult[];
  hostShape: number[];
  name: string;
}

const AXES = ['X', 'Y', 'Z'];
const SLICE_GATHER_BYTES = 1e9;

function sliceShape(s: State): number[] {
  const dims = hardwareOf(s).ici?.torus_dims ?? 3;
  return [num(s, 'sx'), num(s, 'sy'), num(s, 'sz')].slice(0, dims);
}

/** The slice, layer by layer (Z), each layer an X × Y grid; hosts outlined; wrapped axes drawn as return links. */
function sliceDrawing(shape: number[], wrap: boolean[], host: number[]): TemplateResult {
  const [nx = 1, ny = 1, nz = 1] = shape;
  const layers = Math.min(nz, 8);
  const cell = Math.max(6, Math.min(22, Math.floor(260 / Math.max(nx, ny))));
  const gap = 26;
  const layerW = nx * cell + 16;
  const perRow = Math.max(1, Math.min(layers, Math.floor(700 / (layerW + gap))));
  const rows = Math.ceil(layers / perRow);
  const layerH = ny * cell + 30;
  const W = perRow * (layerW + gap);
  const H = rows * layerH + 6;
  const [hx = 1, hy = 1] = host;
  const items: TemplateResult[] = [];
  for (let z = 0; z < layers; z++) {
    const ox = (z % perRow) * (layerW + gap) + 8;
    const oy = Math.floor(z / perRow) * layerH + 16;
    items.push(svg`<text x=${ox} y=${oy - 5} class="tick">${nz > 1 ? `z = ${z}` : 'slice'}</text>`);
    for (let x = 0; x < nx; x += hx) {
      for (let y = 0; y < ny; y += hy) {
        items.push(
          svg`<rect x=${ox + x * cell - 1} y=${oy + y * cell - 1} width=${Math.min(hx, nx - x) * cell + 2} height=${Math.min(hy, ny - y) * cell + 2} fill="#eef4fa" stroke="#8fb8de" rx="3"></rect>`,
        );
      }
    }
    for (let x = 0; x < nx; x++) {
      for (let y = 0; y < ny; y++) {
        items.push(
          svg`<rect x=${ox + x * cell + 2} y=${oy + y * cell + 2} width=${cell - 4} height=${cell - 4} fill=${COLOURS.compute} rx="1.5"></rect>`,
        );
      }
    }
    if (wrap[0] && nx > 1)
      items.push(
        svg`<path d="M ${ox + (nx - 0.5) * cell} ${oy + ny * cell + 2} q ${(-(nx - 1) * cell) / 2} 12 ${-(nx - 1) * cell} 0" fill="none" stroke=${COLOURS.comms} stroke-width="1.6"></path>`,
      );
    if (wrap[1] && ny > 1)
      items.push(
        svg`<path d="M ${ox + nx * cell + 2} ${oy + (ny - 0.5) * cell} q 10 ${(-(ny - 1) * cell) / 2} 0 ${-(ny - 1) * cell}" fill="none" stroke=${COLOURS.comms} stroke-width="1.6"></path>`,
      );
  }
  return html`<div class="drawing"><svg class="capped" viewBox="0 0 ${W} ${H}" width=${W} role="img" aria-label="Chips of the slice, ${nz > 1 ? 'layer by layer along Z' : 'one grid'}; light boxes are hosts; green arcs are wraparound links">
    ${items}</svg></div>
    <p class="note">Blue squares are chips, light boxes hosts; a green arc marks an axis that wraps around${wrap[2] && nz > 1 ? ' (Z wraps too, from the last layer to the first)' : ''}.${nz > layers ? ` Showing ${layers} of ${nz} layers.` : ''}</p>`;
}

export const tpuSlice: View<SliceData> = {
  title: 'A TPU slice',
  modelFree: true,
  blurb:
    'Chips, hosts and links of a slice of a TPU pod (the book’s chapter 2). Wraparound turns an axis into a ring: fewer hops, and an AllGather along it takes half as long.',
  controls: (s) => [
    { key: 'hw', choices: TPU_IDS },
    ...(['sx', 'sy', 'sz'] as const).slice(0, sliceShape(s).length).map((key) => ({ key, max: 32 })),
  ],
  toExplorer: (s) => withValues(s, { chips: sliceShape(s).reduce((a, b) => a * b, 1) }),
  async compute(s, ask) {
    const shape = sliceShape(s);
    const hardware = hardwareOfState(s);
    const mesh = { shape, axis_names: AXES.slice(0, shape.length) };
    const gathers = shape.map((_, i) => ({
      version: 1,
      hardware,
      mesh,
      query: { kind: 'collective', op: 'all_gather', bytes: SLICE_GATHER_BYTES, axes: [AXES[i]] },
    }));
    const r = await ask([{ version: 1, hardware, mesh, query: { kind: 'topology' } }, ...gathers]);
    if (!r) return null;
    const topo = need<TopologyResult>(r[0], 'slice');
    return {
      topo,
      gathers: shape.map((_, i) => need<CollectiveResult>(r[i + 1], `AllGather along ${AXES[i]}`)),
      hostShape: hardwareOf(s).ici?.host_shape ?? [1, 1, 1],
      name: hardwareOf(s).name,
    };
  },
  render(_s, d) {
    const t = d.topo;
    return html`
      <div class="cards">
        ${card('chips', 'Chips', t.chips, fmtCount(t.chips))}
        ${card('hosts', 'Hosts', t.hosts, fmtCount(t.hosts))}
        ${card('max_hops', 'Most hops between two chips', t.max_hops, String(t.max_hops))}
        ${card('flops', 'bf16 compute', t.peak_bf16_flops_per_s, fmtFlopsPerS(t.peak_bf16_flops_per_s))}
        ${card('hbm', 'HBM in all', t.hbm_capacity_bytes, fmtBytes(t.hbm_capacity_bytes))}
      </div>
      <div class="scroll"><table class="t">
        <thead><tr><th>Axis</th><th class="r">Chips</th><th>Wraps</th><th class="r">AllGather of 1 GB along it</th><th>Regime</th></tr></thead>
        <tbody>${t.shape.map(
          (
            n,
            i,
          ) => html`<tr><td>${AXES[i]}</td><td class="r">${n}</td><td>${t.wraparound[i] ? 'yes (ring)' : 'no (line)'}</td>
          <td class="r" data-axis-time=${AXES[i]}>${fmtSeconds(d.gathers[i]?.time_s)}</td><td>${d.gathers[i]?.regime ?? ''}</td></tr>`,
        )}</tbody>
      </table></div>
      ${sliceDrawing(t.shape, t.wraparound, d.hostShape)}`;
  },
};

// ---------------------------------------------------------------------------------- collective (scaling-book/sharding)

interface CollectiveData {
  main: CollectiveResult;
  sweep: { bytes: number; time: number; regime: string }[];
  kind: 'tpu' | 'gpu';
}

const OP_NAMES: Record<string, string> = {
  all_gather: 'AllGather',
  reduce_scatter: 'ReduceScatter',
  all_reduce: 'AllReduce',
  all_to_all: 'AllToAll',
};
export const opName = (op: string): string => OP_NAMES[op] ?? op;
const SWEEP_BYTES = Array.from({ length: 17 }, (_, i) => 2 ** (10 + 2 * i)); // 1 kB ... 4 TB, ×4 apart

export const collective: View<CollectiveData> = {
  title: 'A collective on one mesh axis',
  modelFree: true,
  blurb:
    'Time of an AllGather, ReduceScatter, AllReduce or AllToAll of an array of V bytes over one axis of chips (the book’s chapter 3 on TPUs, chapter 12 on GPUs). Small arrays pay per-hop latency; large ones, bandwidth.',
  controls: () => [
    { key: 'hw' },
    { key: 'op' },
    { key: 'cbytes' },
    { key: 'tp', label: 'Chips on the axis', max: 1024 },
  ],
  async compute(s, ask) {
    const hardware = hardwareOfState(s);
    const mesh = { shape: [num(s, 'tp')], axis_names: ['X'] };
    const q = (bytes: number) => ({
      version: 1,
      hardware,
      mesh,
      query: { kind: 'collective', op: str(s, 'op'), bytes, axes: ['X'] },
    });
    const r = await ask([q(num(s, 'cbytes')), ...SWEEP_BYTES.map(q)]);
    if (!r) return null;
    const main = need<CollectiveResult>(r[0], opName(str(s, 'op')));
    const sweep = SWEEP_BYTES.map((bytes, i) => ({ bytes, ev: r[i + 1] }))
      .filter((p) => p.ev?.ok)
      .map((p) => ({
        bytes: p.bytes,
        time: (p.ev!.result as CollectiveResult).time_s,
        regime: (p.ev!.result as CollectiveResult).regime,
      }));
    return { main, sweep, kind: hardwareOf(s).kind };
  },
  render(s, d) {
    const m = d.main;
    return html`
      <div class="cards">
        ${card('time', `${opName(str(s, 'op'))} time`, m.time_s, fmtSeconds(m.time_s))}
        ${card('bandwidth_s', 'Bandwidth term', m.bandwidth_s, fmtSeconds(m.bandwidth_s))}
        ${card('latency_s', 'Latency term', m.latency_s, fmtSeconds(m.latency_s))}
        ${card('effective', 'Effective bandwidth', m.effective_bandwidth_bytes_per_s, fmtBytesPerS(m.effective_bandwidth_bytes_per_s))}
        ${card('regime', 'Bound by', undefined, m.regime, false, true)}
      </div>
      <p class="note">${m.devices_in_group} ${d.kind === 'gpu' ? 'GPUs' : 'chips'} on the axis, each holding ${fmtBytes(m.bytes_per_device_shard)} of the ${fmtBytes(num(s, 'cbytes'))} array.</p>
      <div class="chart"></div>`;
  },
  chart(s, d, charts, width) {
    return charts.linesChart(
      [{ name: opName(str(s, 'op')), colour: COLOURS.comms, points: d.sweep.map((p) => ({ x: p.bytes, y: p.time })) }],
      {
        xLabel: 'Array size V (bytes) →',
        yLabel: '↑ Time',
        xFormat: tickFormatSI('B'),
        yFormat: (v) => fmtSeconds(v),
        width,
        marks: [{ x: num(s, 'cbytes'), y: d.main.time_s, label: fmtSeconds(d.main.time_s) }],
      },
    );
  },
};
