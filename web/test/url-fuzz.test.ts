// The URL codec against 20,000 generated query strings (issue 12): decoding never throws, never yields a value the
// parameter table would not accept, says what it dropped in bounded plain text, and what it keeps round-trips.
import { describe, expect, it } from 'vitest';
import { PARAMS, hardwareFields, hardwarePreset, type Param, type State } from '../src/state/params';
import { decodeState, encodeState, parseValue } from '../src/state/url';
import { pinnedOf } from '../src/state/pin';

/** A small deterministic PRNG (mulberry32), so a failure names a reproducible case. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const NASTY = [
  '',
  '0',
  '-0',
  '-1',
  '1e999',
  'NaN',
  'Infinity',
  '0x10',
  '1.5',
  '4096',
  '1e-300',
  '<script>',
  '%',
  '%E0%A4%A',
  '%00',
  '\u0000',
  '\u{1F600}',
  '\uD800',
  'true',
  'false',
  '1',
  ' ',
  '+',
  '&',
  '=',
  '__proto__',
  'constructor',
  'a'.repeat(300),
  'fsdp4.tensor4',
  '{"a":1}',
  'v=1&tp=8',
];

function randomValue(r: () => number, p: Param | undefined): string {
  const x = r();
  if (x < 0.35 || !p) return NASTY[Math.floor(r() * NASTY.length)]!;
  if (p.type === 'enum') return p.choices![Math.floor(r() * p.choices!.length)]!;
  if (p.type === 'bool') return r() < 0.5 ? '1' : '0';
  if (p.type === 'text') return p.examples?.[0] ?? '';
  const lo = p.min ?? 0;
  const hi = p.max ?? 1e6;
  const v = lo + (hi - lo) * r() ** 3 * (r() < 0.1 ? 10 : 1);
  return String(p.type === 'int' ? Math.round(v) : v);
}

/** Percent-encoded like a browser would, or raw where the text cannot be encoded (a lone surrogate). */
const encode = (t: string): string => {
  try {
    return encodeURIComponent(t);
  } catch {
    return t;
  }
};

function randomQuery(r: () => number): string {
  const keys = [
    ...PARAMS.map((p) => p.key),
    'v',
    'hw.hbm_bandwidth_bytes_per_s',
    'hw.nope',
    'hw.__proto__',
    '<b>',
    'x',
  ];
  const n = Math.floor(r() * 12);
  const parts: string[] = [];
  if (r() < 0.9) parts.push(`v=${r() < 0.95 ? 1 : Math.floor(r() * 5)}`);
  for (let i = 0; i < n; i++) {
    const key = keys[Math.floor(r() * keys.length)]!;
    const raw = randomValue(
      r,
      PARAMS.find((p) => p.key === key),
    );
    parts.push(r() < 0.8 ? `${encode(key)}=${encode(raw)}` : `${key}=${raw}`);
  }
  return parts.join('&');
}

/** Every value of a decoded state is one the table accepts (what the page will send to the engine). */
function expectValid(s: State): void {
  expect(Object.getPrototypeOf(s.values)).toBe(Object.prototype);
  for (const p of PARAMS) {
    const v = s.values[p.key];
    if (v === p.default) continue;
    expect(v === null ? undefined : parseValue(p, typeof v === 'boolean' ? (v ? '1' : '0') : String(v)), p.key).toEqual(
      v,
    );
  }
  const fields = hardwareFields(hardwarePreset(String(s.values['hw'])));
  for (const [path, v] of Object.entries(s.hw)) {
    const f = fields.find((x) => x.path === path);
    expect(f, path).toBeDefined();
    expect(typeof v).toBe(typeof f!.value);
    if (typeof v === 'number') expect(Number.isFinite(v) && v > 0).toBe(true);
  }
}

describe('URL codec fuzz', () => {
  it('20,000 generated links: no throw, only valid values, bounded notices, a stable round trip', () => {
    const r = rng(20251201);
    for (let i = 0; i < 20000; i++) {
      const q = randomQuery(r);
      let d;
      try {
        d = decodeState(q);
      } catch (e) {
        throw new Error(`decodeState threw on case ${i}: ${q}: ${String(e)}`);
      }
      expectValid(d.state);
      for (const n of d.notices) {
        expect(typeof n).toBe('string');
        expect(n.length).toBeLessThan(400);
        expect(n).not.toMatch(/[\u0000-\u001f]/);
      }
      const again = decodeState(encodeState(d.state));
      expect(again.notices, `case ${i}: ${q}`).toEqual([]);
      expect(again.state).toEqual(d.state);
      expect(() => pinnedOf(d.state)).not.toThrow();
    }
  });
});
