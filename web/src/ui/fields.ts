// The controls of a parameter-table row, for the explorer and the widgets alike: a labelled slider with a text field
// beside it (both keyboard-usable), a select, or a checkbox. A slider moves between stops — powers of two for a
// log2 row, the degrees a model can split into for a parallelism row (the engine's plan_mesh answer, state/plan-mesh.ts) — and announces the real
// value with its unit (aria-valuetext), never its position. The text field takes what people type: 16M, 8k, 4Ki,
// 1.5e6 (state/numbers.ts).
import { html, nothing, type TemplateResult } from 'lit';
import { live } from 'lit/directives/live.js';
import { PRESETS, type Param, type Value } from '../state/params';
import { readNumber } from '../state/numbers';
import { fmtBytes, fmtCount, fromSlider, sig, toSlider } from '../charts/format';

export type OnValue = (key: string, value: Value, ev: Event) => void;

/** Stops of a log2 row: the powers of two in its range. */
export function log2Stops(p: Param): number[] {
  const out: number[] = [];
  for (let v = 2 ** Math.ceil(Math.log2(p.min ?? 1)); v <= (p.max ?? 1); v *= 2) out.push(v);
  return out;
}

/** The index of the stop nearest to `v` (in log space: 5000 sits between 4096 and 8192 by ratio). */
export function nearestStop(stops: readonly number[], v: number): number {
  let best = 0;
  for (let i = 1; i < stops.length; i++) {
    if (Math.abs(Math.log(stops[i]! / v)) < Math.abs(Math.log(stops[best]! / v))) best = i;
  }
  return best;
}

/** What a screen reader says for a value: "4,194,304 tokens (4.19M)", "0.8 of peak", "64 chips". */
export function valueText(p: Param, v: number): string {
  if (!Number.isFinite(v)) return 'not set';
  const exact = Number.isInteger(v) ? v.toLocaleString('en-US') : sig(v);
  const words = Math.abs(v) >= 1e4 ? ` (${p.unit === 'bytes' ? fmtBytes(v) : fmtCount(v)})` : '';
  return `${exact}${p.unit ? ` ${p.unit}` : ''}${words}`;
}

/** A value as its text field shows it: whole digits up to ten of them, else an exponent (15T tokens: "1.5e13"). */
export function fieldText(v: number): string {
  if (!Number.isFinite(v)) return '';
  const plain = String(v);
  return plain.length <= 10 ? plain : v.toExponential().replace('e+', 'e');
}

/** Large values in words beside the label ("= 4.19M"), so the exact number in the field stays readable. */
function readable(p: Param, v: number): TemplateResult | typeof nothing {
  if (!Number.isFinite(v) || Math.abs(v) < 1e4) return nothing;
  return html` <span class="hint">= ${p.unit === 'bytes' ? fmtBytes(v) : fmtCount(v)}</span>`;
}

export interface NumberFieldOptions {
  /** Element id of the slider (the text field gets `${id}-num`). */
  id: string;
  value: number;
  /** Slider stops (sorted); default: powers of two for log2 rows, the row's own step otherwise. */
  stops?: readonly number[] | null;
  disabled?: boolean;
  /** Why the control is disabled or what it does, read after the label. */
  describedBy?: string;
  /** Badges after the label, buttons after the field. */
  badges?: TemplateResult | typeof nothing;
  after?: TemplateResult | typeof nothing;
  /** The field's text instead of `value` (an unset row whose default is not a number). */
  text?: string;
  /** The engine's errors about this field, shown under it (and a value to offer instead, if any). */
  problem?: TemplateResult | typeof nothing;
  onValue: OnValue;
}

export function numberField(p: Param, o: NumberFieldOptions): TemplateResult {
  const stops = o.stops !== undefined ? o.stops : p.scale === 'log2' ? log2Stops(p) : null;
  const v = o.value;
  let range: TemplateResult;
  if (stops && stops.length) {
    const at = nearestStop(stops, v);
    range = html`<input type="range" id=${o.id} data-key=${p.key} min="0" max=${stops.length - 1} step="1" .value=${live(String(at))}
      aria-valuetext=${o.text ?? valueText(p, v)} aria-describedby=${o.describedBy ?? nothing} ?disabled=${o.disabled || stops.length < 2}
      @input=${(e: Event) => o.onValue(p.key, stops[Number((e.target as HTMLInputElement).value)] ?? v, e)} />`;
  } else {
    const lo = toSlider(p.min ?? 0, p.scale);
    const hi = toSlider(p.max ?? 100, p.scale);
    const step = p.scale === 'log10' ? 0.01 : (p.step ?? 1);
    range = html`<input type="range" id=${o.id} data-key=${p.key} min=${lo} max=${hi} step=${step} .value=${live(String(Math.min(hi, Math.max(lo, toSlider(v, p.scale)))))}
      aria-valuetext=${o.text ?? valueText(p, v)} aria-describedby=${o.describedBy ?? nothing} ?disabled=${o.disabled}
      @input=${(e: Event) => o.onValue(p.key, fromSlider(Number((e.target as HTMLInputElement).value), p.scale, p.type === 'int'), e)} />`;
  }
  return html`<div class="ctl" title=${p.help}>
    <label for=${o.id}>${p.label}${p.unit && !p.label.toLowerCase().includes(p.unit) ? html` <span class="unit">(${p.unit})</span>` : nothing}${readable(p, v)}${o.badges ?? nothing}</label>
    <div class="pair">
      ${range}
      <input type="text" inputmode="decimal" spellcheck="false" autocomplete="off" class="num" id="${o.id}-num" data-key=${p.key}
        aria-label="${p.label} value${p.unit ? ` (${p.unit})` : ''}" .value=${live(o.text ?? fieldText(v))} ?disabled=${o.disabled}
        @change=${(e: Event) => {
          const el = e.target as HTMLInputElement;
          const r = readNumber(p, el.value);
          el.setCustomValidity(typeof r === 'string' ? r : '');
          el.reportValidity();
          if (typeof r === 'number') o.onValue(p.key, r, e);
        }} />
      ${o.after ?? nothing}
    </div>
    ${o.problem ?? nothing}
  </div>`;
}

/** Words for an enum choice: chip and model names from the engine's presets, else the choice with spaces. */
export function choiceLabel(p: Param, c: string, words?: Readonly<Record<string, string>>): string {
  if (words?.[c]) return words[c]!;
  if (p.key === 'hw') return PRESETS.hardware.find((h) => h.id === c)?.name ?? c;
  if (p.key === 'model' || p.key === 'draft') return PRESETS.models.find((m) => m.id === c)?.name ?? c;
  if (p.key === 'sbk') return PRESETS.serving_backends?.find((b) => b.id === c)?.name ?? c;
  return c.replace(/_/g, ' ');
}

/** The weights-dtype choice a model is published in, said so: "fp8 (as published)". */
export const publishedDtypeWords = (published: string): Record<string, string> => ({
  [published]: `${published} (as published)`,
});

/** `unsetLabel`: a first option that leaves the row unset (null), for a row whose default is the engine's. */
export function enumField(
  p: Param,
  id: string,
  value: Value,
  onValue: OnValue,
  words?: Readonly<Record<string, string>>,
  unsetLabel?: string,
): TemplateResult {
  const choices = p.choices ?? [];
  return html`<div class="ctl" title=${p.help}>
    <label for=${id}>${p.label}</label>
    <select id=${id} data-key=${p.key} @change=${(e: Event) => {
      const v = (e.target as HTMLSelectElement).value;
      onValue(p.key, unsetLabel !== undefined && v === '' ? null : v, e);
    }}>
      ${unsetLabel !== undefined ? html`<option value="" ?selected=${value === null}>${unsetLabel}</option>` : nothing}
      ${choices.map((c) => html`<option value=${c} ?selected=${c === value}>${choiceLabel(p, c, words)}</option>`)}
      ${typeof value === 'string' && !choices.includes(value) ? html`<option value=${value} selected>${choiceLabel(p, value, words)}</option>` : nothing}
    </select>
  </div>`;
}

export function boolField(p: Param, id: string, value: Value, onValue: OnValue): TemplateResult {
  return html`<div class="ctl check" title=${p.help}>
    <input type="checkbox" id=${id} data-key=${p.key} .checked=${live(value === true)} @change=${(e: Event) => onValue(p.key, (e.target as HTMLInputElement).checked, e)} />
    <label for=${id}>${p.label}</label>
  </div>`;
}
