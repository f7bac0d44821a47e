// The SI unit a key names (docs/api.md: the unit is in every key of the engine's answers, and in the chip fields a
// link overrides): for CSV columns and the inputs of a download.

export function unitOf(key: string): string {
  if (/_flops_per_s$/.test(key)) return 'FLOP/s';
  if (/_bytes_per_s(_|$)/.test(key)) return 'B/s';
  if (/_flops_per_byte$/.test(key)) return 'FLOP/B';
  if (/_usd_per_hour$|^usd_per_hour$/.test(key)) return 'USD/h';
  if (/^usd_per_million_/.test(key)) return 'USD';
  if (/_usd$/.test(key)) return 'USD';
  if (/_bytes$/.test(key)) return 'B';
  if (/_flops$/.test(key)) return 'FLOP';
  if (/_frac$|_fraction$/.test(key)) return 'fraction';
  if (/_per_s$/.test(key)) return '1/s';
  if (/_s$/.test(key)) return 's';
  return '';
}
