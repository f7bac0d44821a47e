// An exported chart reads on its own (issue 22): its file has the chart's title and one legend entry per series the
// chart draws, each swatch drawn like the series' marks (the roofline's in the symbols of Plot's own scale), all text
// escaped, the legend rows kept inside the file's width and clear of the plot below them.
import * as Plot from '@observablehq/plot';
import { describe, expect, it } from 'vitest';
import { estimateWidth, framedSvg } from '../src/charts/frame';
import { SCALING, rooflineLegend, scalingLegend, sweepLegend } from '../src/charts/series';
import { symbolPath, type SymbolLike } from '../src/charts/symbol-path';

const PLOT = {
  markup:
    '<svg xmlns="http://www.w3.org/2000/svg" class="plot-x" width="640" height="240" viewBox="0 0 640 240"><circle r="3"/></svg>',
  width: 640,
  height: 240,
};
const entries = (svg: string): string[] =>
  [
    ...svg.matchAll(
      /<g data-legend-entry="" transform="translate\(([\d.]+),(\d+)\)">.*?<text[^>]*>([^<]*)<\/text><\/g>/g,
    ),
  ].map((m) => m[3]!);

describe('chart export', () => {
  it('the file has the title and one legend entry per series, then the plot below them', () => {
    const points = [
      { chips: 64, current: false, fits: false },
      { chips: 128, current: false, fits: true, warning: 'sequences are split' },
      { chips: 256, current: true, fits: true },
      { chips: 512, current: false, fits: true },
    ];
    const legend = scalingLegend(points, 'Step time');
    expect(legend.map((e) => e.label)).toEqual([
      'Step time, fits in HBM',
      'current plan',
      'runs, with a warning',
      'does not fit in HBM',
    ]);
    expect(legend.map((e) => e.swatch)).toEqual([
      { kind: 'line', colour: SCALING.line, dot: true },
      { kind: 'dot', colour: SCALING.current },
      { kind: 'hollow', colour: SCALING.warned },
      { kind: 'hollow', colour: SCALING.misfit },
    ]);
    const f = framedSvg({
      title: 'Step time against chip count',
      legend,
      plot: PLOT,
      css: '.plot-x > g { fill: none }',
    });
    expect(f.text).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" width="640" height="\d+"/);
    expect(f.text).toContain('<title>Step time against chip count</title>');
    expect(f.text).toMatch(/<g data-title=""><text[^>]*>Step time against chip count<\/text><\/g>/);
    expect(entries(f.text)).toEqual(legend.map((e) => e.label));
    expect(f.text).toContain('<![CDATA[\n.plot-x > g { fill: none }\n]]>');
    const plotTop = Number(/<svg x="0" y="(\d+)" width="640" height="240"/.exec(f.text)?.[1]);
    const legendTop = Number(/<g data-legend="" transform="translate\(\d+,(\d+)\)">/.exec(f.text)?.[1]);
    expect(plotTop).toBeGreaterThanOrEqual(legendTop + 20); // at least one legend row above the plot
    expect(f.height).toBeGreaterThanOrEqual(plotTop + 240);
    expect(f.text).toContain(PLOT.markup);
  });

  it('a scaling chart with clean points only has one key; the roofline one per matmul, the curve and the ridge', () => {
    expect(
      scalingLegend(
        [
          { current: false, fits: true },
          { current: false, fits: true },
        ],
        'Latency per token',
      ),
    ).toHaveLength(1);
    expect(
      scalingLegend(
        [
          { current: true, fits: true, warning: 'w' },
          { current: false, fits: false },
        ],
        'Step time',
      ),
    ).toEqual([
      { label: 'Step time', swatch: { kind: 'line', colour: SCALING.line } }, // no clean point: the line alone, no "fits" dot
      { label: 'runs, with a warning', swatch: { kind: 'hollow', colour: SCALING.warned } },
      { label: 'does not fit in HBM', swatch: { kind: 'hollow', colour: SCALING.misfit } },
    ]);
    const ops = ['QKV projection', 'Attention output', 'MLP up', 'MLP down', 'Unembedding'].map((name) => ({
      name,
      colour: '#1b9e77',
      path: 'M0,0Z',
    }));
    const roof = rooflineLegend(ops, true);
    expect(roof.map((e) => e.label)).toEqual([
      'Roofline: attainable FLOP/s per chip',
      ...ops.map((o) => o.name),
      'Ridge point (compute-bound to its right)',
    ]);
    expect(rooflineLegend(ops, false)).toHaveLength(6);
    const sweep = sweepLegend({ colours: ['#440154', '#fde725'], from: 1, to: 512 }, true, true);
    expect(sweep.map((e) => e.label)).toEqual([
      'batch size 1 to 512, one point each',
      'KV caches do not fit in HBM',
      'current batch',
    ]);
    expect(entries(framedSvg({ title: 'Frontier', legend: sweep, plot: PLOT }).text)).toHaveLength(3);
  });

  it('escapes the title and labels as XML', () => {
    const f = framedSvg({
      title: 'A <b> & "c"',
      legend: [{ label: "it's <x>", swatch: { kind: 'ring', colour: '#000' } }],
      plot: PLOT,
    });
    expect(f.text).toContain('A &lt;b&gt; &amp; &quot;c&quot;');
    expect(f.text).toContain('it&apos;s &lt;x&gt;');
    expect(f.text).not.toContain('<b>');
  });

  it('a long title wraps and legend rows stay inside a narrow file', () => {
    const narrow = { ...PLOT, width: 300 };
    const legend = scalingLegend(
      [
        { current: true, fits: true },
        { current: false, fits: true, warning: 'w' },
        { current: false, fits: false },
      ],
      'Latency per token',
    );
    const f = framedSvg({
      title: 'Latency against throughput over the batch (the book’s serving frontier)',
      legend,
      plot: narrow,
    });
    expect(f.width).toBe(300);
    expect([...f.text.matchAll(/<g data-title="">(.*?)<\/g>/g)][0]![1]!.match(/<text/g)!.length).toBeGreaterThan(1);
    const placed = [
      ...f.text.matchAll(
        /<g data-legend-entry="" transform="translate\(([\d.]+),(\d+)\)">.*?<text x="(\d+)"[^>]*>([^<]*)<\/text>/g,
      ),
    ];
    expect(new Set(placed.map((m) => m[2])).size).toBeGreaterThan(1); // more than one row
    for (const m of placed)
      expect(Number(m[1]) + Number(m[3]) + estimateWidth(m[4]!, 12, false)).toBeLessThanOrEqual(300 - 2 * 14);
  });

  it('draws every one of Plot’s point symbols as a closed path (the roofline’s keys)', () => {
    // The filled ones a chart's dots with a fill get (the roofline's), and the stroked ones (open paths).
    const filled = ['circle', 'cross', 'diamond', 'square', 'star', 'triangle', 'wye'];
    const scale = Plot.scale({ symbol: { domain: filled, range: filled } });
    const paths = filled.map((n) => symbolPath(scale.apply(n) as SymbolLike, 25 * Math.PI));
    expect(new Set(paths).size).toBe(filled.length);
    for (const p of paths) expect(p).toMatch(/^M[-\d.]+,[-\d.]+.*Z$/);
    const stroked = Plot.scale({ symbol: { domain: ['a', 'b', 'c'] } });
    for (const n of ['a', 'b', 'c'])
      expect(symbolPath(stroked.apply(n) as SymbolLike, 25 * Math.PI)).toMatch(/^M[-\d.]+,[-\d.]+[LMA]/);
  });
});
