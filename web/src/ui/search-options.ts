// The plan search's own question, folded under "Search options" by the button: what "best" means and the
// constraints (docs/api.md `plan_search`: objective, max_tensor, must_fit, memory_headroom_frac, include_warnings).
// Each is a row of the parameter table (pobj, pmaxtp, pfit, phead, pwarn), so a link reproduces the search.
import { html, nothing, type TemplateResult } from 'lit';
import { param, type State } from '../state/params';
import { boolField, enumField, numberField, type OnValue } from './fields';

const OBJECTIVE_WORDS: Readonly<Record<string, string>> = {
  step_time: 'fastest step',
  cost_to_train: 'cheapest to train',
  tokens_per_usd: 'most tokens per dollar',
};

/** TP caps offered: powers of two (a TP degree is one in practice); "any" leaves it to the model's heads. */
const TP_CAPS = [1, 2, 4, 8, 16, 32, 64];

/** How many constraints differ from the engine's defaults (shown on the closed disclosure). */
export function constraintsSet(s: State): number {
  return ['pobj', 'pmaxtp', 'pfit', 'phead', 'pwarn'].filter((k) => s.values[k] !== param(k).default).length;
}

export function searchOptions(s: State, onValue: OnValue): TemplateResult {
  const v = s.values;
  const maxTp = param('pmaxtp');
  const n = constraintsSet(s);
  return html`<details class="more search-options" data-search-options ?open=${n > 0}>
    <summary>Search options${n ? ` (${n} set)` : ''}</summary>
    <div class="search-question" role="group" aria-label="What the plan search looks for">
      ${enumField(param('pobj'), 'ss-pobj', v['pobj'] ?? null, onValue, OBJECTIVE_WORDS)}
      <div class="ctl" title=${maxTp.help}>
        <label for="ss-pmaxtp">${maxTp.label}</label>
        <select id="ss-pmaxtp" data-key="pmaxtp" @change=${(e: Event) => {
          const raw = (e.target as HTMLSelectElement).value;
          onValue('pmaxtp', raw === '' ? null : Number(raw), e);
        }}>
          <option value="" ?selected=${v['pmaxtp'] === null}>any</option>
          ${TP_CAPS.map((c) => html`<option value=${c} ?selected=${v['pmaxtp'] === c}>${c}</option>`)}
          ${typeof v['pmaxtp'] === 'number' && !TP_CAPS.includes(v['pmaxtp']) ? html`<option value=${v['pmaxtp']} selected>${v['pmaxtp']}</option>` : nothing}
        </select>
      </div>
      ${numberField(param('phead'), { id: 'ss-phead', value: Number(v['phead']), onValue })}
      <div>${boolField(param('pfit'), 'ss-pfit', v['pfit'] ?? null, onValue)}${boolField(param('pwarn'), 'ss-pwarn', v['pwarn'] ?? null, onValue)}</div>
    </div>
  </details>`;
}
