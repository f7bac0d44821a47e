// The goodput chart's data (src/charts/goodput.ts): the engine's goodput.scaling as two series over chips, the chip
// count on screen marked, and the note in the engine's own number.
import { describe, expect, it } from 'vitest';
import type { GoodputResult } from '../src/engine/types';
import { goodputData, goodputLegend, goodputNote, goodputRows } from '../src/charts/goodput';

/** The fields the chart reads, from an engine-shaped answer (the rest does not matter here). */
function answer(scaling: GoodputResult['scaling'], at: number | null): GoodputResult {
  return { scaling, chips_at_shortest_wall_time: at } as GoodputResult;
}

const SCALING: GoodputResult['scaling'] = [
  { chips: 128, useful_time_s: 1600, wall_time_s: 1700, goodput_frac: 0.94 },
  { chips: 256, useful_time_s: 800, wall_time_s: 900, goodput_frac: 0.89 },
  { chips: 512, useful_time_s: 400, wall_time_s: null, goodput_frac: 0 },
];

describe('goodput chart data', () => {
  it('maps each scaling point to a failure-free and, when the job finishes, a with-failures point', () => {
    const d = goodputData(answer(SCALING, 300), 256);
    expect(d.filter((p) => p.series === 'useful').map((p) => [p.chips, p.time_s])).toEqual([
      [128, 1600],
      [256, 800],
      [512, 400],
    ]);
    expect(d.filter((p) => p.series === 'wall').map((p) => [p.chips, p.time_s])).toEqual([
      [128, 1700],
      [256, 900],
    ]); // 512 never finishes
    expect(d.filter((p) => p.current).map((p) => [p.series, p.chips])).toEqual([
      ['useful', 256],
      ['wall', 256],
    ]);
  });

  it('tables every point, a job that never finishes said so', () => {
    expect(goodputRows(answer(SCALING, 300), 256)).toEqual([
      ['128', '26.7 min', '28.3 min', '94%'],
      ['256 (current)', '13.3 min', '15 min', '89%'],
      ['512', '6.67 min', 'never finishes', '0%'],
    ]);
  });

  it('says where adding chips stops paying in the engine’s number, or that it has not', () => {
    expect(goodputNote(answer(SCALING, 552840.05))).toBe(
      'Past 553k chips, failures cost more time than the chips save.',
    );
    expect(goodputNote(answer(SCALING, null))).toMatch(/still shortens the run at 1,024 times these chips/);
    expect(
      goodputNote(
        answer(
          SCALING.map((p) => ({ ...p, wall_time_s: null })),
          2048,
        ),
      ),
    ).toMatch(/none of these sizes/);
  });

  it('keys the series it draws and the current chip count', () => {
    expect(goodputLegend(goodputData(answer(SCALING, null), 256)).map((e) => e.label)).toEqual([
      'Failure-free: time to train',
      'With failures: time to train',
      'current chip count',
    ]);
    expect(
      goodputLegend(
        goodputData(
          answer(
            SCALING.map((p) => ({ ...p, wall_time_s: null })),
            1,
          ),
          1000,
        ),
      ).map((e) => e.label),
    ).toEqual(['Failure-free: time to train']);
  });
});
