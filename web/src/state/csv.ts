// The one CSV writer of the page's downloads (RFC 4180): a file is blocks of records (the inputs, then the results),
// each block under its own header and after an empty record. Every record has the widest block's number of fields
// (padded with empty ones: the RFC wants the same count on every line), a field holding a comma, a semicolon (the
// separator of spreadsheets in locales whose decimal mark is a comma), a double quote or a line break is quoted with
// its quotes doubled, and records end with CRLF. Text is kept as it is (UTF-8), but for one guard: a spreadsheet runs
// a field that starts with = + - @ (after any spaces, which some trim) or a tab as a formula (OWASP "CSV
// Injection"), and a pasted config.json or a shared link can put such text in a label, so a text field that starts
// so and is not a number is written after a single quote, which spreadsheets show as text.

export type Cell = string | number | boolean | null | undefined;

export interface CsvBlock {
  header: readonly string[];
  rows: readonly (readonly Cell[])[];
}

/** One field: numbers and booleans as JavaScript writes them, null and undefined empty, text quoted when it must be. */
export function csvCell(v: Cell): string {
  let text = v === null || v === undefined ? '' : String(v);
  if (typeof v === 'string' && /^[\s\u00a0]*[=+\-@]|^[\t\r]/.test(text) && !Number.isFinite(Number(text)))
    text = `'${text}`;
  return /[",;\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The blocks one after another, an empty record between two, every record padded to the same field count. */
export function csvText(blocks: readonly CsvBlock[]): string {
  const width = Math.max(1, ...blocks.flatMap((b) => [b.header.length, ...b.rows.map((r) => r.length)]));
  const record = (cells: readonly Cell[]): string =>
    Array.from({ length: width }, (_, i) => csvCell(cells[i])).join(',');
  const lines = blocks.flatMap((b, i) => [...(i > 0 ? [record([])] : []), record(b.header), ...b.rows.map(record)]);
  return lines.map((l) => `${l}\r\n`).join('');
}

/** The download's type: CSV in UTF-8 (RFC 4180 names the charset parameter). */
export const CSV_TYPE = 'text/csv;charset=utf-8';

/** What a downloaded CSV file starts with: the UTF-8 byte-order mark, without which Excel reads the file as the
 * system's code page and mangles µs, × and — (pandas and Python's utf-8-sig codec drop it). */
export const CSV_FILE_START = '\uFEFF';
