// What a reader may type in a number field: plain numbers, exponents and the suffixes people write for sizes —
// "16M", "8k", "1.5e6", "4Ki", "2 Gi", "1,048,576". Decimal suffixes (k M G T P) are powers of 1000, binary ones
// (Ki Mi Gi Ti Pi) powers of 1024, as in SI and IEC. A field with a unit takes it too, with any prefix: a time
// "50 ms", "2 s", "1.5 min"; a size "80 GB", "96 GiB"; a bandwidth "3.35 TB/s"; a rate "989 TFLOP/s" (issue 20:
// "50 ms" was silently ignored). One reader for the explorer and the widgets.
import type { Param } from './params';
import { unitOf } from './units';

const SUFFIX: Readonly<Record<string, number>> = {
  '': 1,
  k: 1e3,
  K: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
  P: 1e15,
  Ki: 2 ** 10,
  Mi: 2 ** 20,
  Gi: 2 ** 30,
  Ti: 2 ** 40,
  Pi: 2 ** 50,
};
// Below one: only before a unit ("50 ms"), never alone ("50m" could be metres or mega).
const SMALL: Readonly<Record<string, number>> = { m: 1e-3, u: 1e-6, µ: 1e-6, μ: 1e-6, n: 1e-9 };
const NUMBER = '([-+]?(?:\\d+\\.?\\d*|\\.\\d+)(?:[eE][-+]?\\d{1,3})?)';
const NUMBER_RE = new RegExp(`^${NUMBER}\\s*(Ki|Mi|Gi|Ti|Pi|k|K|M|G|T|P)?$`);

/** The SI unit of a field: what may follow the number. */
export type Dimension = 's' | 'B' | 'B/s' | 'FLOP/s' | '';
// The unit words of each dimension, and what each is in SI (min and h are seconds too).
const UNITS: Readonly<Record<Exclude<Dimension, ''>, Readonly<Record<string, number>>>> = {
  s: { s: 1, min: 60, h: 3600 },
  B: { B: 1 },
  'B/s': { 'B/s': 1 },
  'FLOP/s': { 'FLOP/s': 1, FLOPS: 1, 'FLOPs/s': 1 },
};

function clean(text: string): string {
  return text
    .trim()
    .replace(/(\d),(?=\d{3}(?:\D|$))/g, '$1')
    .replace(/_/g, '');
}

/** The number a text stands for, or NaN: "16M" = 16e6, "4Ki" = 4096, "1.5e6", "1,048,576" (commas between digits). */
export function parseAmount(text: string): number {
  const m = NUMBER_RE.exec(clean(text));
  if (!m) return NaN;
  const n = Number(m[1]) * SUFFIX[m[2] ?? '']! + 0; // -0 is 0
  return Number.isFinite(n) ? n : NaN;
}

/** The amount with an optional unit of `dimension` after it ("50 ms" = 0.05 for 's'), in SI; NaN when not one. */
export function parseQuantity(text: string, dimension: Dimension): number {
  const plain = parseAmount(text);
  if (!Number.isNaN(plain) || dimension === '') return plain;
  const m = new RegExp(`^${NUMBER}\\s*(.+)$`).exec(clean(text));
  if (!m) return NaN;
  const rest = m[2]!.trim();
  for (const [word, si] of Object.entries(UNITS[dimension])) {
    if (!rest.endsWith(word)) continue;
    const prefix = rest.slice(0, rest.length - word.length).trim();
    // Any decimal or binary prefix before a unit; the ones below one before seconds only; none before min or h.
    const scale =
      prefix === ''
        ? 1
        : word === 'min' || word === 'h'
          ? undefined
          : (SUFFIX[prefix] ?? (word === 's' ? SMALL[prefix] : undefined));
    if (scale === undefined) continue;
    const n = Number(m[1]) * scale * si + 0;
    return Number.isFinite(n) ? n : NaN;
  }
  return NaN;
}

/** A row's dimension from its unit ('s'), or a chip field's from the unit its name carries (state/units.ts):
 * a nested field (`scale_up.launch_latency_s`) by its own name, a map per dtype (`peak_flops_per_s.bf16`) by the map's. */
export function dimensionOf(unitOrField: string): Dimension {
  if (unitOrField === 's') return 's';
  const parts = unitOrField.split('.');
  const own = unitOf(parts.at(-1) ?? '');
  const unit = own || unitOf(parts.at(-2) ?? '');
  return unit === 's' || unit === 'B' || unit === 'B/s' || unit === 'FLOP/s' ? unit : '';
}

const EXAMPLES: Readonly<Record<Dimension, string>> = {
  s: '50 ms, 2 s, 1.5e-3',
  B: '80 GB, 96 GiB, 8e10',
  'B/s': '3.35 TB/s, 4.5e10',
  'FLOP/s': '989 TFLOP/s, 1.97e14',
  '': '16M, 8k, 4Ki and 1.5e6',
};

/** How to write a value of `dimension`, for a field's message. */
export function examplesOf(dimension: Dimension): string {
  return EXAMPLES[dimension];
}

/** Is `text` a value the row accepts? The number, or a sentence saying what is expected. */
export function readNumber(p: Param, text: string): number | string {
  const dimension = dimensionOf(p.unit);
  const n = parseQuantity(text, dimension);
  const whole = p.type === 'int';
  const range = `from ${p.min} to ${p.max}${dimension ? ` ${p.unit}` : ''}`;
  if (!Number.isFinite(n))
    return `Enter ${whole ? 'a whole number' : 'a number'} ${range} (${examplesOf(dimension)} work too)`;
  if (whole && !Number.isInteger(n)) return `Enter a whole number ${range}: ${text.trim()} is ${n}`;
  if ((p.min !== undefined && n < p.min) || (p.max !== undefined && n > p.max))
    return `Enter a value ${range}: ${text.trim()} is ${n}`;
  return n;
}

const BINARY = ['Ki', 'Mi', 'Gi', 'Ti', 'Pi'] as const;

/**
 * The binary reading of a value a decimal suffix could have written: 16,000,000 ("16M") → 16Mi = 16,777,216; null
 * when the value is not a whole number of thousands. Offered beside a field the engine refused (issue 20: "16M" is
 * not a whole number of 4096-token sequences, while 16Mi is); the engine still decides whether it is valid.
 */
export function binaryReading(value: number): { value: number; text: string } | null {
  for (let k = BINARY.length; k >= 1; k--) {
    const a = value / 1000 ** k;
    if (Number.isInteger(a) && a > 0) return { value: a * 1024 ** k, text: `${a}${BINARY[k - 1]}` };
  }
  return null;
}
