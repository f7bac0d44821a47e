import { describe, expect, it } from 'vitest';
import {
  sig,
  fmtSecondsTick,
  fmtBytes,
  fmtCount,
  fmtDelta,
  fmtFlopsPerS,
  fmtPercent,
  fmtSeconds,
  fmtUsd,
  fromSlider,
  toSlider,
} from '../src/charts/format';

describe('display units', () => {
  it('formats SI quantities', () => {
    expect(fmtFlopsPerS(4.59e14)).toBe('459 TFLOP/s');
    expect(fmtBytes(96e9)).toBe('96 GB');
    expect(fmtBytes(327680)).toBe('328 kB');
    expect(fmtCount(70553706496)).toBe('70.6B');
    expect(fmtPercent(0.7527)).toBe('75.3%');
    expect(fmtUsd(268.8)).toBe('$268.80');
    expect(fmtUsd(21937420)).toBe('$21.9M');
    expect(fmtSeconds(82.15)).toBe('82.2 s');
    expect(fmtSeconds(0.0107)).toBe('10.7 ms');
    expect(fmtSeconds(293804741)).toBe('9.31 years');
    expect(fmtSeconds(undefined)).toBe('—');
    expect(fmtSeconds(NaN)).toBe('—');
  });

  it('rounds to significant figures with grouping (cached formatters give the same text every time)', () => {
    for (let i = 0; i < 2; i++) {
      expect(sig(1234.5)).toBe('1,235');
      expect(sig(0.0123456)).toBe('0.0123');
      expect(sig(12.3456)).toBe('12.3');
      expect(sig(-4.5678)).toBe('-4.57');
      expect(sig(123456)).toBe('1.23e5');
      expect(sig(0)).toBe('0');
      expect(sig(Infinity)).toBe('—');
      expect(fmtUsd(1234.5)).toBe('$1,234.50');
    }
  });

  it('keeps axis ticks in seconds up to an hour', () => {
    expect(fmtSecondsTick(200)).toBe('200 s');
    expect(fmtSecondsTick(0.02)).toBe('20 ms');
    expect(fmtSecondsTick(7200)).toBe('2 h');
  });

  it('formats deltas', () => {
    expect(fmtDelta(110, 100)).toBe('+10%');
    expect(fmtDelta(50, 100)).toBe('−50%');
    expect(fmtDelta(100, 100)).toBe('same');
    expect(fmtDelta(undefined, 100)).toBe('');
  });

  it('maps log sliders both ways', () => {
    expect(toSlider(64, 'log2')).toBe(6);
    expect(fromSlider(6, 'log2', true)).toBe(64);
    expect(fromSlider(toSlider(4096, 'log2'), 'log2', true)).toBe(4096);
    expect(fromSlider(0, 'log10', false)).toBe(1);
    expect(fromSlider(2, 'linear', true)).toBe(2);
  });
});
