// The one place for display units, scales and colours. The engine speaks SI base units (seconds, bytes, FLOPs,
// dollars); everything here is presentation only.

const SI = [
  { p: 1e24, s: 'Y' },
  { p: 1e21, s: 'Z' },
  { p: 1e18, s: 'E' },
  { p: 1e15, s: 'P' },
  { p: 1e12, s: 'T' },
  { p: 1e9, s: 'G' },
  { p: 1e6, s: 'M' },
  { p: 1e3, s: 'k' },
] as const;

// Number formatting runs hundreds of times per slider move: Intl.NumberFormat objects are built once per number of
// decimals (Number.prototype.toLocaleString builds one per call, which cost ~10 ms per move in Chromium).
const formatters = new Map<string, Intl.NumberFormat>();
function decimalsFormat(min: number, max: number): Intl.NumberFormat {
  const key = `${min},${max}`;
  let f = formatters.get(key);
  if (!f) {
    f = new Intl.NumberFormat('en-US', { minimumFractionDigits: min, maximumFractionDigits: max });
    formatters.set(key, f);
  }
  return f;
}

/** Three significant figures, no exponent noise: 1.23, 12.3, 123, 1,235 (whole numbers from 1,000 up). */
export function sig(x: number, digits = 3): string {
  if (!Number.isFinite(x)) return '—';
  if (x === 0) return '0';
  const a = Math.abs(x);
  if (a >= 1e4 || a < 1e-3)
    return x
      .toPrecision(digits)
      .replace(/\.?0+e/, 'e')
      .replace('e+', 'e');
  const decimals = Math.max(0, digits - 1 - Math.floor(Math.log10(a)));
  return decimalsFormat(0, decimals).format(x);
}

/** SI prefix: 4.59e14 FLOP/s -> "459 TFLOP/s"; unit '' gives "70.6 G". */
export function siUnit(x: number | undefined, unit: string, digits = 3): string {
  if (x === undefined || !Number.isFinite(x)) return '—';
  const a = Math.abs(x);
  for (const { p, s } of SI) if (a >= p * 0.9995) return `${sig(x / p, digits)} ${s}${unit}`;
  return `${sig(x, digits)}${unit ? ' ' + unit : ''}`;
}

export const fmtBytes = (b: number | undefined): string => siUnit(b, 'B');
export const fmtFlops = (f: number | undefined): string => siUnit(f, 'FLOP');
export const fmtFlopsPerS = (f: number | undefined): string => siUnit(f, 'FLOP/s');
export const fmtBytesPerS = (f: number | undefined): string => siUnit(f, 'B/s');

/** Counts in words people use for parameters and tokens: 70.6B, 4.19M. */
export function fmtCount(x: number | undefined): string {
  if (x === undefined || !Number.isFinite(x)) return '—';
  const a = Math.abs(x);
  if (a >= 1e12) return `${sig(x / 1e12)}T`;
  if (a >= 1e9) return `${sig(x / 1e9)}B`;
  if (a >= 1e6) return `${sig(x / 1e6)}M`;
  if (a >= 1e4) return `${sig(x / 1e3)}k`;
  return sig(x);
}

export function fmtSeconds(s: number | undefined): string {
  if (s === undefined || !Number.isFinite(s)) return '—';
  const a = Math.abs(s);
  if (a === 0) return '0 s';
  if (a < 1e-6) return `${sig(s * 1e9)} ns`;
  if (a < 1e-3) return `${sig(s * 1e6)} µs`;
  if (a < 1) return `${sig(s * 1e3)} ms`;
  if (a < 120) return `${sig(s)} s`;
  if (a < 7200) return `${sig(s / 60)} min`;
  if (a < 2 * 86400) return `${sig(s / 3600)} h`;
  if (a < 2 * 365.25 * 86400) return `${sig(s / 86400)} days`;
  return `${sig(s / (365.25 * 86400))} years`;
}

/** Axis ticks in seconds: like fmtSeconds, but whole seconds up to an hour (a tick at 200 s reads "200 s", not "3.33 min"). */
export function fmtSecondsTick(s: number): string {
  const a = Math.abs(s);
  if (a >= 1 && a < 3600) return `${sig(s)} s`;
  return fmtSeconds(s);
}

export function fmtPercent(f: number | undefined): string {
  if (f === undefined || !Number.isFinite(f)) return '—';
  return `${sig(f * 100)}%`;
}

export function fmtUsd(x: number | undefined): string {
  if (x === undefined || !Number.isFinite(x)) return '—';
  const a = Math.abs(x);
  if (a >= 1e9) return `$${sig(x / 1e9)}B`;
  if (a >= 1e6) return `$${sig(x / 1e6)}M`;
  if (a >= 1e4) return `$${sig(x / 1e3)}k`;
  if (a >= 1) return `$${decimalsFormat(2, 2).format(x)}`;
  return `$${sig(x)}`;
}

export function fmtRate(x: number | undefined, unit: string): string {
  return x === undefined || !Number.isFinite(x) ? '—' : `${fmtCount(x)} ${unit}`;
}

/** Relative change for the compare view: "+12.3%" / "−4%" / "same". */
export function fmtDelta(now: number | undefined, pinned: number | undefined): string {
  if (now === undefined || pinned === undefined || !Number.isFinite(now) || !Number.isFinite(pinned)) return '';
  if (pinned === 0) return now === 0 ? 'same' : '';
  const d = (now - pinned) / Math.abs(pinned);
  if (Math.abs(d) < 5e-4) return 'same';
  return `${d > 0 ? '+' : '−'}${sig(Math.abs(d) * 100)}%`;
}

/** Slider positions: log2 and log10 sliders move in exponent space. */
export function toSlider(value: number, scale: 'linear' | 'log2' | 'log10' | undefined): number {
  if (scale === 'log2') return Math.log2(Math.max(value, Number.MIN_VALUE));
  if (scale === 'log10') return Math.log10(Math.max(value, Number.MIN_VALUE));
  return value;
}

export function fromSlider(pos: number, scale: 'linear' | 'log2' | 'log10' | undefined, isInt: boolean): number {
  let v = scale === 'log2' ? 2 ** pos : scale === 'log10' ? 10 ** pos : pos;
  if (scale === 'log10') v = Number(v.toPrecision(isInt ? 15 : 3));
  return isInt ? Math.round(v) : v;
}

/** Colours: distinct in hue and lightness (they survive greyscale printing); every bar also carries a label. */
export const COLOURS = {
  compute: '#1f6fb2',
  bubble: '#8fb8de',
  memory: '#e08a1e',
  kv: '#f3c27a',
  comms: '#2a9d5b',
  comms2: '#63c187',
  comms3: '#a5dbb6',
  comms4: '#0f5e33',
  comms5: '#4d7d5f',
  comms6: '#c9eed5',
  comms7: '#1d4030',
  params: '#5b4b9a',
  master: '#8c7ec4',
  grads: '#b7aee0',
  optimizer: '#c0392b',
  activations: '#e8a09a',
  other: '#7f8c8d',
  hbmLine: '#111111',
  roofline: '#333333',
  highlight: '#d62728',
  pinned: '#767676',
  /** Configurations that do not fit or cannot run: hollow, grey, labelled. */
  invalid: '#6b6b6b',
} as const;

export const COMMS_COLOURS = [
  COLOURS.comms,
  COLOURS.comms2,
  COLOURS.comms4,
  COLOURS.comms3,
  COLOURS.comms5,
  COLOURS.comms6,
  COLOURS.comms7,
];

/** Plot scale settings shared by the charts: log axes where the book uses them. */
export const SCALES = {
  intensity: { type: 'log' as const, label: 'Arithmetic intensity (FLOPs/byte) →' },
  attainable: { type: 'log' as const, label: '↑ Attainable FLOP/s per chip' },
  chips: { type: 'log' as const, base: 2, label: 'Chips →' },
  time: { type: 'log' as const, label: '↑ Step time (s)' },
};

export function tickFormatSI(unit: string): (x: number) => string {
  return (x: number) => siUnit(x, unit, 2);
}
