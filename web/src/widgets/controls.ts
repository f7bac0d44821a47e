// A widget's controls, from rows of the parameter table: a labelled slider with a numeric input beside it (both
// keyboard-usable), a select or a checkbox. A widget may narrow a row (fewer choices, a smaller range, its own
// label) without changing what the key means in the URL.
import { html, nothing, type TemplateResult } from 'lit';
import { PRESETS, type Param, type Value } from '../state/params';
import { fmtBytes, fmtCount, fromSlider, toSlider } from '../charts/format';
import { WIDGET_TABLE } from './params';

export interface ControlSpec {
  key: string;
  label?: string;
  choices?: readonly string[];
  min?: number;
  max?: number;
  help?: string;
  /** Words for enum choices (default: the choice with spaces). */
  optionLabels?: Readonly<Record<string, string>>;
}

export type OnValue = (key: string, value: Value, ev: Event) => void;

/** The table row with the widget's narrowing applied. */
export function controlParam(spec: ControlSpec): Param {
  const row = WIDGET_TABLE.byKey.get(spec.key);
  if (!row) throw new Error(`no parameter '${spec.key}'`);
  return {
    ...row,
    label: spec.label ?? row.label,
    help: spec.help ?? row.help,
    ...(spec.choices ? { choices: spec.choices } : {}),
    ...(spec.min !== undefined ? { min: spec.min } : {}),
    ...(spec.max !== undefined ? { max: spec.max } : {}),
  };
}

function optionLabel(p: Param, c: string, words?: Readonly<Record<string, string>>): string {
  if (words?.[c]) return words[c]!;
  if (p.key === 'hw') return PRESETS.hardware.find((h) => h.id === c)?.name ?? c;
  if (p.key === 'model') return PRESETS.models.find((m) => m.id === c)?.name ?? c;
  return c.replace(/_/g, ' ');
}

/** Is `text` a value the row accepts? Returns the number, or a sentence saying what is expected. */
export function readNumber(p: Param, text: string): number | string {
  const n = Number(text);
  const whole = p.type === 'int';
  const ok = text.trim() !== '' && Number.isFinite(n) && (!whole || Number.isInteger(n)) && n >= (p.min ?? -Infinity) && n <= (p.max ?? Infinity);
  return ok ? n : `Enter ${whole ? 'a whole number' : 'a number'} from ${p.min} to ${p.max}`;
}

/** Large values in words beside the label ("= 1.07 GB"), so the exact number in the input stays readable. */
function readable(p: Param, v: number): TemplateResult | typeof nothing {
  if (!Number.isFinite(v) || Math.abs(v) < 1e4) return nothing;
  return html` <span class="hint">= ${p.unit === 'bytes' ? fmtBytes(v) : fmtCount(v)}</span>`;
}

function numberControl(p: Param, value: Value, fallback: number, on: OnValue): TemplateResult {
  const v = typeof value === 'number' ? value : fallback;
  const id = `w-${p.key}`;
  const pos = toSlider(v, p.scale);
  const lo = toSlider(p.min ?? 0, p.scale);
  const hi = toSlider(p.max ?? 100, p.scale);
  const step = p.scale === 'log2' ? 1 : p.scale === 'log10' ? 0.01 : (p.step ?? 1);
  return html`<div class="ctl" title=${p.help}>
    <label for=${id}>${p.label}${p.unit ? html` <span class="unit">(${p.unit})</span>` : nothing}${readable(p, v)}</label>
    <div class="pair">
      <input type="range" id=${id} data-key=${p.key} min=${lo} max=${hi} step=${step} .value=${String(Math.min(hi, Math.max(lo, pos)))}
        @input=${(e: Event) => on(p.key, fromSlider(Number((e.target as HTMLInputElement).value), p.scale, p.type === 'int'), e)} />
      <input type="number" class="num" data-key=${p.key} aria-label="${p.label} value" min=${p.min ?? ''} max=${p.max ?? ''} step="any" .value=${String(v)}
        @change=${(e: Event) => {
          const el = e.target as HTMLInputElement;
          const r = readNumber(p, el.value);
          el.setCustomValidity(typeof r === 'string' ? r : '');
          el.reportValidity();
          if (typeof r === 'number') on(p.key, r, e);
        }} />
    </div>
  </div>`;
}

/** One control for a spec; `fallback` is shown for rows whose default is "the preset's value" (null). */
export function renderControl(spec: ControlSpec, value: Value, on: OnValue, fallback = NaN): TemplateResult {
  const p = controlParam(spec);
  const id = `w-${p.key}`;
  if (p.type === 'enum') {
    const choices = p.choices ?? [];
    return html`<div class="ctl" title=${p.help}>
      <label for=${id}>${p.label}</label>
      <select id=${id} data-key=${p.key} @change=${(e: Event) => on(p.key, (e.target as HTMLSelectElement).value, e)}>
        ${choices.map((c) => html`<option value=${c} ?selected=${c === value}>${optionLabel(p, c, spec.optionLabels)}</option>`)}
        ${typeof value === 'string' && !choices.includes(value) ? html`<option value=${value} selected>${optionLabel(p, value)}</option>` : nothing}
      </select>
    </div>`;
  }
  if (p.type === 'bool') {
    return html`<div class="ctl check" title=${p.help}>
      <input type="checkbox" id=${id} data-key=${p.key} .checked=${value === true} @change=${(e: Event) => on(p.key, (e.target as HTMLInputElement).checked, e)} />
      <label for=${id}>${p.label}</label>
    </div>`;
  }
  return numberControl(p, value, fallback, on);
}
