// The SI unit a chip field's or a parameter's key names (the chip fields a link overrides, the inputs of a download,
// the dimension an input box reads). A result's units are the schema's (result-units.ts, generated).

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
  if (/_per_s$/.test(key)) return ''; // a rate of something the key does not name (a result's: the schema's unit)
  if (/_s$/.test(key)) return 's';
  return '';
}
