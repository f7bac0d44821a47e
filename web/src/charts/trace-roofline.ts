// The profile page's roofline: the chip's bf16 roof (from the engine's answer: its peak, HBM bandwidth and ridge)
// with each priced op of the trace as a point at its intensity and its measured FLOP/s, coloured by class. A point
// far below the roof is time lost; its tip and the table say which op, at which shape.
import * as Plot from '@observablehq/plot';
import type { TraceGroup, TraceResult } from '../engine/trace-types';
import { SCALES, fmtCount, siUnit, tickFormatSI } from './format';
import { withTable } from './table';

interface TracePoint {
  intensity: number;
  achieved: number;
  class: string;
  label: string;
  fraction: number;
}

export function traceRooflineChart(result: TraceResult, width: number): HTMLElement | null {
  const hw = result.hardware;
  const ridge = hw?.critical_intensity_flops_per_byte;
  const points: TracePoint[] = result.ops
    .filter((g: TraceGroup) => g.intensity_flops_per_byte !== undefined && g.achieved_flops_per_s !== undefined)
    .map((g) => ({
      intensity: g.intensity_flops_per_byte!,
      achieved: g.achieved_flops_per_s!,
      class: g.class,
      label: `${g.op ?? g.class} ${g.shape ?? ''}`.trim(),
      fraction: g.achieved_fraction ?? 0,
    }));
  if (!hw || !ridge || points.length === 0) return null;
  const xs = points.map((p) => p.intensity);
  const x0 = Math.min(ridge, ...xs) / 4,
    x1 = Math.max(ridge, ...xs) * 4;
  const roof = [
    { intensity: x0, attainable: x0 * hw.hbm_bandwidth_bytes_per_s },
    { intensity: ridge, attainable: hw.peak_bf16_flops_per_s },
    { intensity: x1, attainable: hw.peak_bf16_flops_per_s },
  ];
  const chart = Plot.plot({
    width,
    height: 300,
    marginLeft: 86,
    marginRight: 20,
    color: { legend: true, type: 'categorical', scheme: 'dark2' },
    style: { fontSize: '11px', background: 'transparent' },
    y: { ...SCALES.attainable, grid: true, ticks: 4, tickFormat: tickFormatSI('FLOP/s') },
    x: { ...SCALES.intensity, grid: true, ticks: 6 },
    marks: [
      Plot.line(roof, { x: 'intensity', y: 'attainable', stroke: '#333', strokeWidth: 2 }),
      Plot.dot(points, { x: 'intensity', y: 'achieved', stroke: 'class', fill: 'class', fillOpacity: 0.35, r: 5 }),
      Plot.tip(
        points,
        Plot.pointer({
          x: 'intensity',
          y: 'achieved',
          title: (d: TracePoint) =>
            `${d.label}\nintensity ${fmtCount(d.intensity)} FLOPs/byte\n${siUnit(d.achieved, 'FLOP/s')} measured, ${fmtCount(100 * d.fraction)}% of its roofline`,
        }),
      ),
    ],
  });
  return withTable(chart, {
    caption: `${hw.name}: each priced op at its measured FLOP/s`,
    columns: ['Op', 'Class', 'Intensity (FLOPs/byte)', 'Measured', 'Of its roofline'],
    rows: points.map((p) => [
      p.label,
      p.class,
      fmtCount(p.intensity),
      siUnit(p.achieved, 'FLOP/s'),
      `${fmtCount(100 * p.fraction)}%`,
    ]),
  });
}
