// Number fields take what people type: 16M, 8k, 4Ki, 1.5e6 (issue 11), and say what they expected otherwise.
import { describe, expect, it } from 'vitest';
import { parseAmount, readNumber } from '../src/state/numbers';
import { param } from '../src/state/params';

describe('parseAmount', () => {
  it.each([
    ['16M', 16e6], ['8k', 8000], ['8K', 8000], ['4Ki', 4096], ['1.5e6', 1.5e6], ['2 Gi', 2 ** 31], ['1,048,576', 1048576],
    ['15T', 15e12], ['0.5', 0.5], ['  42 ', 42], ['1_000', 1000], ['3Mi', 3 * 2 ** 20], ['.25', 0.25], ['7e-3', 0.007],
  ])('%s is %d', (text, n) => expect(parseAmount(text)).toBe(n));

  it.each(['', '16MB', 'abc', '1e999', '4 kilo', '1,2', 'M', '--4', '0x10', 'Infinity', 'NaN'])('%s is not a number', (text) => {
    expect(parseAmount(text)).toBeNaN();
  });
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
