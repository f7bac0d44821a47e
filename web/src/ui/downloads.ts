// "Download JSON" and "Download CSV" buttons, the same for every result the page lets a reader take away (the main
// answer, the plan search's and the serving search's lists): the texts are made on click, from the builders given.
import { html, type TemplateResult } from 'lit';
import { download } from '../charts/export';
import { CSV_FILE_START, CSV_TYPE } from '../state/csv';

export interface Downloads {
  /** File name without extension, e.g. "scalescope-plans". */
  name: string;
  /** Prefix of the buttons' data-download ("plans-" gives "plans-json" and "plans-csv"; '' gives "json" and "csv"). */
  id: string;
  /** What the files hold, for the buttons' accessible names ("Download CSV of the ranked plans"): a page has several. */
  what: string;
  json: () => string;
  /** Null: no CSV for this answer (it has no result); the button is disabled. */
  csv: (() => string) | null;
}

export function downloadButtons(d: Downloads): TemplateResult {
  const save = (text: string, type: string, ext: string): void =>
    download(new Blob([text], { type }), `${d.name}.${ext}`);
  return html`<button type="button" data-download=${`${d.id}json`} aria-label="Download JSON of ${d.what}" @click=${() => save(d.json(), 'application/json', 'json')}>Download JSON</button>
    <button type="button" data-download=${`${d.id}csv`} aria-label="Download CSV of ${d.what}" ?disabled=${!d.csv} @click=${() => d.csv && save(CSV_FILE_START + d.csv(), CSV_TYPE, 'csv')}>Download CSV</button>`;
}
