// Chart labels never overlap (issue 41 #17: the serving frontier's labels ran into one another): each takes the first
// free place around its point, or is left out while its point keeps its tooltip.
import { describe, expect, it } from 'vitest';
import {
  intersects,
  layoutPointLabels,
  placeLabels,
  type Box,
  type Dot,
  type LabelRequest,
  type PlacedLabel,
} from '../src/charts/labels';
import { estimateWidth } from '../src/charts/frame';
import { sweepDots, sweepLabels, sweepTip, type SweepDatum } from '../src/charts/plots';

const FRAME: Box = { x0: 0, y0: 0, x1: 300, y1: 200 };

/** Every pair of drawn labels that overlap, and every label that covers a point or leaves the frame. */
function problems(placed: readonly (PlacedLabel | null)[], dots: readonly Dot[], frame: Box): string[] {
  const boxes = placed.flatMap((p, i) => (p ? [{ i, box: p.box }] : []));
  const out: string[] = [];
  for (const a of boxes) {
    for (const b of boxes) if (a.i < b.i && intersects(a.box, b.box)) out.push(`labels ${a.i} and ${b.i} overlap`);
    dots.forEach((d, j) => {
      if (intersects(a.box, { x0: d.x - d.r, y0: d.y - d.r, x1: d.x + d.r, y1: d.y + d.r }))
        out.push(`label ${a.i} covers point ${j}`);
    });
    if (a.box.x0 < frame.x0 || a.box.x1 > frame.x1 || a.box.y0 < frame.y0 || a.box.y1 > frame.y1)
      out.push(`label ${a.i} leaves the frame`);
  }
  return out;
}

describe('placeLabels', () => {
  // 60 points 5 px apart along a rising curve: far too close for a 40 px label on each.
  const dots: Dot[] = Array.from({ length: 60 }, (_, i) => ({
    x: 20 + i * 4.5,
    y: 180 - 150 * Math.sqrt(i / 59),
    r: 4,
  }));
  const requests: LabelRequest[] = dots.map((d) => ({
    ...d,
    width: 40,
    height: 13,
    slots: ['right', 'left', 'above', 'below', 'below-right', 'above-left'],
  }));

  it('on a crowded chart no two labels overlap, none covers a point, all stay inside; the rest are left out', () => {
    const placed = placeLabels(requests, FRAME, dots);
    expect(problems(placed, dots, FRAME)).toEqual([]);
    const shown = placed.filter(Boolean).length;
    expect(shown).toBeGreaterThan(3);
    expect(shown).toBeLessThan(dots.length);
  });

  it('is deterministic: the same points get the same labels in the same places', () => {
    expect(placeLabels(requests, FRAME, dots)).toEqual(placeLabels(requests, FRAME, dots));
  });

  it('takes the first free place in the order given, next to its point', () => {
    const [p] = placeLabels([{ x: 100, y: 100, r: 4, width: 40, height: 13, slots: ['left', 'right'] }], FRAME, []);
    expect(p).toMatchObject({ anchor: 'end', x: 93, y: 100 });
    const [q] = placeLabels([{ x: 100, y: 100, r: 4, width: 40, height: 13, slots: ['left', 'right'] }], FRAME, [
      { x: 80, y: 100, r: 4 },
    ]);
    expect(q).toMatchObject({ anchor: 'start', x: 107 });
  });

  it('draws a required label even when every place is taken, and later labels keep clear of it', () => {
    const blocked = { x: 100, y: 100, r: 4, width: 40, height: 13, slots: ['right'] } as const;
    const placed = placeLabels(
      [{ ...blocked }, { ...blocked, required: true }, { ...blocked, slots: ['right', 'left'] }],
      FRAME,
      [],
    );
    expect(placed[0]).not.toBeNull();
    expect(placed[1]).toEqual(placed[0]);
    expect(placed[2]?.anchor).toBe('end');
  });

  it('can fail: labels at the same point in the same place overlap', () => {
    const same = { x: 100, y: 100, r: 4, width: 40, height: 13, slots: ['right'] } as const;
    const forced = placeLabels(
      [
        { ...same, required: true },
        { ...same, required: true },
      ],
      FRAME,
      [],
    );
    expect(problems(forced, [], FRAME)).toEqual(['labels 0 and 1 overlap']);
  });
});

describe('the serving frontier on a phone', () => {
  // Batches 1 to 219 (the largest that fits) at powers of two and between, in a plot of 220 × 120 px: the labels B=1,
  // 4, 16, 64, the largest and the current (B=48) crowd the curve. Latency and throughput as a memory-bound decode has them.
  const batches = [1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 219];
  const sweep: SweepDatum[] = batches.map((batch) => {
    const step = 0.02 + 0.0002 * batch;
    return { batch, latency_per_token_s: step, tokens_per_s_per_chip: batch / step / 8, fits: true };
  });
  const mid = sweep.find((d) => d.batch === 48)!;
  const current = [{ batch: 48, latency: mid.latency_per_token_s, throughput: mid.tokens_per_s_per_chip, fits: true }];
  const frame: Box = { x0: 70, y0: 20, x1: 290, y1: 140 };
  const first = sweep[0]!,
    last = sweep[sweep.length - 1]!;
  const lx = (v: number, lo: number, hi: number): number => Math.log(v / lo) / Math.log(hi / lo);
  const px = (d: { x: number; y: number }): { x: number; y: number } => ({
    x: 84 + 192 * lx(d.x, first.latency_per_token_s, last.latency_per_token_s),
    y: 118 - 76 * lx(d.y, first.tokens_per_s_per_chip, last.tokens_per_s_per_chip),
  });
  const labels = sweepLabels(sweep, current);
  const dots = sweepDots(sweep, current);
  const placed = layoutPointLabels(labels, dots, px, frame, estimateWidth);

  it('no two labels overlap or cover a point, and the current batch is labelled', () => {
    expect(labels.map((l) => l.text)).toEqual([
      'current B=48',
      'largest that fits: B=219',
      'B=1',
      'B=4',
      'B=16',
      'B=64',
    ]);
    expect(
      problems(
        placed,
        dots.map((d) => ({ ...px(d), r: d.r })),
        frame,
      ),
    ).toEqual([]);
    expect(placed[0]).not.toBeNull();
  });

  it('every point keeps its tooltip, which names its batch as its label did (a label left out loses nothing)', () => {
    expect(placed.filter((p) => p === null).length).toBeGreaterThan(0); // the case this test is about
    for (const d of sweep)
      expect(sweepTip(d)).toMatch(new RegExp(`^batch ${d.batch}\\n.+ per token\\n.+ tokens/s per chip$`));
    labels.forEach((l, i) => {
      const batch = Number(/B=(\d+)/.exec(l.text)![1]);
      if (!placed[i]) expect(sweepTip(sweep.find((d) => d.batch === batch)!)).toContain(`batch ${batch}`);
    });
  });
});
