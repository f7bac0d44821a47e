// Observable Plot charts (loaded lazily, after the first paint): the chip's roofline with the workload's main
// matmuls on it, and step time (or latency) against chip count. Scales, units and colours come from format.ts.
import * as Plot from '@observablehq/plot';
import { COLOURS, SCALES, fmtCount, siUnit, tickFormatSI } from './format';

export interface RooflinePoint {
  intensity: number;
  attainable: number;
}

export interface OpPoint extends RooflinePoint {
  name: string;
  bound: string;
}

export function rooflineChart(curve: RooflinePoint[], ops: OpPoint[], ridge: number | undefined, width: number): SVGSVGElement | HTMLElement {
  const marks: Plot.Markish[] = [
    Plot.line(curve, { x: 'intensity', y: 'attainable', stroke: COLOURS.roofline, strokeWidth: 2 }),
    Plot.dot(ops, { x: 'intensity', y: 'attainable', stroke: 'name', fill: 'name', fillOpacity: 0.35, r: 6, symbol: 'name', strokeWidth: 2 }),
    Plot.tip(ops, Plot.pointer({ x: 'intensity', y: 'attainable', title: (d: OpPoint) => `${d.name}\nintensity ${fmtCount(d.intensity)} FLOPs/byte\n${siUnit(d.attainable, 'FLOP/s')} (${d.bound}-bound)` })),
  ];
  if (ridge !== undefined && Number.isFinite(ridge)) {
    marks.push(Plot.ruleX([ridge], { stroke: COLOURS.pinned, strokeDasharray: '4 3' }));
    marks.push(Plot.text([ridge], { x: (d: number) => d, frameAnchor: 'top', dy: 4, dx: 4, textAnchor: 'start', text: () => `ridge ${fmtCount(ridge)} FLOPs/B`, fontSize: 10, fill: '#555' }));
  }
  return Plot.plot({
    width,
    height: 300,
    marginLeft: 86,
    marginRight: 20,
    color: { legend: true, type: 'categorical', scheme: 'dark2' },
    symbol: { legend: false },
    style: { fontSize: '11px', background: 'transparent' },
    y: { ...SCALES.attainable, grid: true, ticks: 4, tickFormat: tickFormatSI('FLOP/s') },
    x: { ...SCALES.intensity, grid: true, ticks: 6 },
    marks,
  });
}

export interface ScalingDatum {
  chips: number;
  value: number;
  current: boolean;
}

export function scalingChart(points: ScalingDatum[], yLabel: string, yUnitFormat: (v: number) => string, width: number): SVGSVGElement | HTMLElement {
  return Plot.plot({
    width,
    height: 240,
    marginLeft: 86,
    style: { fontSize: '11px', background: 'transparent' },
    x: { ...SCALES.chips, grid: true },
    y: { type: 'log', label: yLabel, grid: true, ticks: 4, tickFormat: yUnitFormat },
    marks: [
      Plot.line(points, { x: 'chips', y: 'value', stroke: COLOURS.compute, strokeWidth: 2 }),
      Plot.dot(points, { x: 'chips', y: 'value', fill: (d: ScalingDatum) => (d.current ? COLOURS.highlight : COLOURS.compute), r: (d: ScalingDatum) => (d.current ? 6 : 4) }),
      Plot.text(points.filter((d) => d.current), { x: 'chips', y: 'value', text: () => 'current', dy: -12, fill: COLOURS.highlight }),
      Plot.tip(points, Plot.pointer({ x: 'chips', y: 'value', title: (d: ScalingDatum) => `${d.chips} chips: ${yUnitFormat(d.value)}` })),
    ],
  });
}
