// The engine's diagnostics in words, each naming the control behind its JSON path when the parameter table has one
// (the controls also show a control's errors at the control itself).
import { html, nothing, type TemplateResult } from 'lit';
import type { Diagnostic } from '../engine/types';
import { PARAMS, type Param } from '../state/params';

/** The control behind a diagnostic's JSON path, if the parameter table has one. */
export function paramAt(path: string): Param | undefined {
  if (path === '' || path === '/query') return undefined;
  return PARAMS.find((x) => x.path === path || x.path.startsWith(path + ' ') || x.path.startsWith(path + '/'));
}

function label(path: string): string {
  if (path === '' || path === '/query') return '';
  if (path.startsWith('/query/calibration/')) return `Calibration profile ${path.slice('/query/calibration'.length)}: `;
  const p = paramAt(path);
  if (p) return `${p.label}: `;
  if (path.startsWith('/model/hf_config')) return `config.json ${path.slice('/model/hf_config'.length) || ''}: `;
  if (path.startsWith('/mesh')) return 'Mesh: ';
  if (path.startsWith('/query/parallelism')) return 'Parallelism: ';
  if (path.startsWith('/hardware')) return 'Hardware: ';
  if (path.startsWith('/model')) return 'Model: ';
  return `${path}: `;
}

export function diagnosticsList(diags: readonly Diagnostic[], what: string): TemplateResult | typeof nothing {
  if (!diags.length) return nothing;
  const unavailable = diags.some((d) => d.code === 'unknown_choice' && d.path === '/query/kind');
  return html`
    <div class="diagnostics" role="status" data-diagnostics=${what}>
      ${unavailable ? html`<p><strong>Not available yet:</strong> this engine build cannot answer the ${what} query. The rest of the page still works.</p>` : nothing}
      <ul>
        ${diags.map(
          (d) => html`<li class=${d.severity === 'warning' ? 'warn' : 'err'} data-code=${d.code} data-path=${d.path}>
          <span class="sev">${d.severity === 'warning' ? 'Warning' : 'Problem'}</span> ${label(d.path)}${d.message}</li>`,
        )}
      </ul>
    </div>`;
}
