// Roofline points that would overlap are lifted a level each (issue 22: on a phone they piled up at the ridge).
import { describe, expect, it } from 'vitest';
import { stackLevels } from '../src/charts/roof-stack';

describe('stackLevels', () => {
  const domain: [number, number] = [1, 1e7];
  it('leaves points apart where they are and lifts each one that would overlap', () => {
    // 7 decades over 700 px: 100 px a decade; 800, 1000 and 1100 FLOPs/B lie within 14 px of one another.
    expect(stackLevels([800, 1000, 1100, 100000], domain, 700, 14)).toEqual([0, 1, 2, 0]);
  });
  it('reuses a level once the points on it are far enough apart', () => {
    // 2000 is 30 px right of 1000: back on level 0.
    expect(stackLevels([1000, 1100, 2000], domain, 700, 14)).toEqual([0, 1, 0]);
  });
  it('on a narrow chart the same points need more levels', () => {
    const wide = stackLevels([900, 2200, 3100, 4000], domain, 700, 14);
    const phone = stackLevels([900, 2200, 3100, 4000], domain, 200, 14);
    expect(Math.max(...phone)).toBeGreaterThan(Math.max(...wide));
  });
});
