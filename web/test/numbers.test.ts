// Number fields take what people type: 16M, 8k, 4Ki, 1.5e6 (issue 11), and say what they expected otherwise.
import { describe, expect, it } from 'vitest';
import { binaryReading, dimensionOf, parseAmount, parseQuantity, readNumber } from '../src/state/numbers';
import { param } from '../src/state/params';

describe('parseAmount', () => {
  it.each([
    ['16M', 16e6],
    ['8k', 8000],
    ['8K', 8000],
    ['4Ki', 4096],
    ['1.5e6', 1.5e6],
    ['2 Gi', 2 ** 31],
    ['1,048,576', 1048576],
    ['15T', 15e12],
    ['0.5', 0.5],
    ['  42 ', 42],
    ['1_000', 1000],
    ['3Mi', 3 * 2 ** 20],
    ['.25', 0.25],
    ['7e-3', 0.007],
  ])('%s is %d', (text, n) => expect(parseAmount(text)).toBe(n));

  it.each(['', '16MB', 'abc', '1e999', '4 kilo', '1,2', 'M', '--4', '0x10', 'Infinity', 'NaN'])(
    '%s is not a number',
    (text) => {
      expect(parseAmount(text)).toBeNaN();
    },
  );
});

describe('readNumber', () => {
  it('accepts the suffixes for whole-number rows within range', () => {
    expect(readNumber(param('batch'), '16M')).toBe(16e6);
    expect(readNumber(param('seq'), '8k')).toBe(8000);
    expect(readNumber(param('seq'), '4Ki')).toBe(4096);
    expect(readNumber(param('train_tokens'), '1.5e13')).toBe(1.5e13);
  });

  it('says what it expected, with the value it read', () => {
    expect(readNumber(param('seq'), '4096.5')).toMatch(/whole number.*4096\.5/);
    expect(readNumber(param('tp'), '1Mi')).toMatch(/from 1 to 512.*1048576/);
    expect(readNumber(param('tp'), 'four')).toMatch(/16M, 8k, 4Ki and 1\.5e6 work too/);
  });
});

describe('a field with a unit takes it, with any prefix (issue 20: "50 ms" was ignored)', () => {
  it.each([
    ['50 ms', 's', 0.05],
    ['50ms', 's', 0.05],
    ['2 s', 's', 2],
    ['500 us', 's', 5e-4],
    ['500 µs', 's', 5e-4],
    ['1.5 min', 's', 90],
    ['1 h', 's', 3600],
    ['0.25', 's', 0.25],
    ['80 GB', 'B', 80e9],
    ['96 GiB', 'B', 96 * 2 ** 30],
    ['16G', 'B', 16e9],
    ['3.35 TB/s', 'B/s', 3.35e12],
    ['4.5e10 B/s', 'B/s', 4.5e10],
    ['989 TFLOP/s', 'FLOP/s', 989e12],
    ['2 PFLOPS', 'FLOP/s', 2e15],
  ] as const)('%s (%s) is %d', (text, dimension, n) => expect(parseQuantity(text, dimension)).toBeCloseTo(n, 12));

  it.each([
    ['50 m', 's'],
    ['50 kmin', 's'],
    ['2 ms', 'B'],
    ['80 GB', 's'],
    ['80 mB', 'B'],
    ['3 TB', 'B/s'],
    ['ms', 's'],
    ['50 ms', ''],
  ] as const)('%s is not a %s', (text, dimension) => expect(parseQuantity(text, dimension)).toBeNaN());

  it('a row or chip field says which unit it is in', () => {
    expect(dimensionOf('s')).toBe('s');
    expect(dimensionOf('hbm_capacity_bytes')).toBe('B');
    expect(dimensionOf('hbm_bytes_per_s')).toBe('B/s');
    expect(dimensionOf('scale_up.launch_latency_s')).toBe('s');
    expect(dimensionOf('peak_flops_per_s.bf16')).toBe('FLOP/s');
    expect(dimensionOf('tokens')).toBe('');
  });

  it('the latency target reads milliseconds, and says so when the text is not a time', () => {
    expect(readNumber(param('slat'), '50 ms')).toBeCloseTo(0.05, 12);
    expect(readNumber(param('sttft'), '2 s')).toBe(2);
    expect(readNumber(param('slat'), 'fast')).toMatch(/from 0\.0001 to 10 s \(50 ms, 2 s, 1\.5e-3 work too\)/);
    expect(readNumber(param('slat'), '20 s')).toMatch(/from 0\.0001 to 10 s: 20 s is 20/);
  });
});

describe('binaryReading', () => {
  it('offers the binary suffix a decimal one may have meant (issue 20: "16M" → 16Mi)', () => {
    expect(binaryReading(16e6)).toEqual({ value: 16 * 2 ** 20, text: '16Mi' });
    expect(binaryReading(4000)).toEqual({ value: 4096, text: '4Ki' });
    expect(binaryReading(2e9)).toEqual({ value: 2 * 2 ** 30, text: '2Gi' });
    expect(binaryReading(16_777_216)).toBeNull(); // already binary: nothing to offer
    expect(binaryReading(0)).toBeNull();
    expect(binaryReading(1500)).toBeNull(); // 1.5k has no whole binary reading
  });
});
