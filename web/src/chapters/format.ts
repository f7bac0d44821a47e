// The number formats a chapter reference may ask for (chapters/README.md, "Numbers"). Display only: the value is
// the engine's; units and prefixes come from the one place for them, src/charts/format.ts.
import { fmtBytes, fmtBytesPerS, fmtFlopsPerS, fmtSeconds, fmtUsd, sig, siUnit } from '../charts/format.ts';

export const FORMATS = [
  'int',
  'fixed0',
  'fixed1',
  'fixed2',
  'fixed3',
  'sig3',
  'percent1',
  'time',
  'bytes',
  'flops',
  'flops_per_s',
  'bytes_per_s',
  'usd',
  'x',
] as const;
export type NumberFormat = (typeof FORMATS)[number];

export function isFormat(s: unknown): s is NumberFormat {
  return typeof s === 'string' && (FORMATS as readonly string[]).includes(s);
}

/** Fixed decimals with thousands separators; never shows "-0". */
function fixed(x: number, decimals: number): string {
  const scale = 10 ** decimals;
  const y = Math.round(x * scale) / scale;
  return (y === 0 ? 0 : y).toLocaleString('en-US', {
    minimumFractionDigits: decimals,
    maximumFractionDigits: decimals,
  });
}

/** A finite number in one of the chapter formats. */
export function formatNumber(x: number, format: NumberFormat): string {
  switch (format) {
    case 'int':
      return fixed(x, 0);
    case 'fixed0':
      return fixed(x, 0);
    case 'fixed1':
      return fixed(x, 1);
    case 'fixed2':
      return fixed(x, 2);
    case 'fixed3':
      return fixed(x, 3);
    case 'sig3':
      return x.toLocaleString('en-US', { maximumSignificantDigits: 3 });
    case 'percent1':
      return `${fixed(x * 100, 1)}%`;
    case 'time':
      return fmtSeconds(x);
    case 'bytes':
      return fmtBytes(x);
    case 'flops':
      return siUnit(x, 'FLOPs');
    case 'flops_per_s':
      return fmtFlopsPerS(x);
    case 'bytes_per_s':
      return fmtBytesPerS(x);
    case 'usd':
      return fmtUsd(x);
    case 'x':
      return `${sig(x, 3)}×`;
  }
}
