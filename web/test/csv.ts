// Test helper: reads back the CSV the page writes.
import { expect } from 'vitest';

/** A tiny RFC 4180 reader (quoted fields, doubled quotes, CRLF records), to read back what the writer wrote. */
export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let field = '';
  let record: string[] = [];
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') ((field += '"'), i++);
      else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') (record.push(field), (field = ''));
    else if (ch === '\r' && text[i + 1] === '\n') {
      record.push(field);
      records.push(record);
      ((field = ''), (record = []), i++);
    } else field += ch;
  }
  expect(field).toBe(''); // the text ends with CRLF
  return records;
}
