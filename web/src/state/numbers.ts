// What a reader may type in a number field: plain numbers, exponents and the suffixes people write for sizes —
// "16M", "8k", "1.5e6", "4Ki", "2 Gi", "1,048,576". Decimal suffixes (k M G T P) are powers of 1000, binary ones
// (Ki Mi Gi Ti Pi) powers of 1024, as in SI and IEC. One reader for the explorer and the widgets.
import type { Param } from './params';

const SUFFIX: Readonly<Record<string, number>> = {
  '': 1, k: 1e3, K: 1e3, M: 1e6, G: 1e9, T: 1e12, P: 1e15,
  Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40, Pi: 2 ** 50,
};
const NUMBER_RE = /^([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d{1,3})?)\s*(Ki|Mi|Gi|Ti|Pi|k|K|M|G|T|P)?$/;

/** The number a text stands for, or NaN: "16M" = 16e6, "4Ki" = 4096, "1.5e6", "1,048,576" (commas between digits). */
export function parseAmount(text: string): number {
  const t = text.trim().replace(/(\d),(?=\d{3}(?:\D|$))/g, '$1').replace(/_/g, '');
  const m = NUMBER_RE.exec(t);
  if (!m) return NaN;
  const n = Number(m[1]) * SUFFIX[m[2] ?? '']! + 0; // -0 is 0
  return Number.isFinite(n) ? n : NaN;
}

/** Is `text` a value the row accepts? The number, or a sentence saying what is expected. */
export function readNumber(p: Param, text: string): number | string {
  const n = parseAmount(text);
  const whole = p.type === 'int';
  const range = `from ${p.min} to ${p.max}`;
  if (!Number.isFinite(n)) return `Enter ${whole ? 'a whole number' : 'a number'} ${range} (16M, 8k, 4Ki and 1.5e6 work too)`;
  if (whole && !Number.isInteger(n)) return `Enter a whole number ${range}: ${text.trim()} is ${n}`;
  if ((p.min !== undefined && n < p.min) || (p.max !== undefined && n > p.max)) return `Enter a value ${range}: ${text.trim()} is ${n}`;
  return n;
}
