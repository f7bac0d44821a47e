// A widget's controls, from rows of the parameter table, drawn by the same fields as the explorer's (src/ui/fields.ts).
// A widget may narrow a row (fewer choices, a smaller range, its own label) without changing what the key means in
// the URL.
import type { TemplateResult } from 'lit';
import type { Param, Value } from '../state/params';
import { boolField, enumField, numberField, type OnValue } from '../ui/fields';
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
  /** The choice an unset enum row shows (the weights' dtype: the one the model is published in). */
  shown?: string;
  /** Slider stops, when the view knows them (e.g. the degrees a model splits into). */
  stops?: readonly number[];
}

export type { OnValue };

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

/** One control for a spec; `fallback` is shown for rows whose default is "the preset's value" (null). */
export function renderControl(spec: ControlSpec, value: Value, on: OnValue, fallback = NaN): TemplateResult {
  const p = controlParam(spec);
  const id = `w-${p.key}`;
  if (p.type === 'enum') return enumField(p, id, value ?? spec.shown ?? null, on, spec.optionLabels);
  if (p.type === 'bool') return boolField(p, id, value, on);
  return numberField(p, {
    id,
    value: typeof value === 'number' ? value : fallback,
    ...(spec.stops ? { stops: spec.stops } : {}),
    onValue: on,
  });
}
