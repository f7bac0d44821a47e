// What produced a download's numbers, so that the file reads on its own: the chip, the model, the fidelity and the
// calibration profile the engine used (from the scenario sent and the engine's answer), then every parameter of the
// state that differs from its default, with the label and unit of its row in the one parameter table (params.ts),
// and the chip fields the state overrides. Rows of the other mode (a training control under a serving answer) and
// rows whose switch is off are left out: they did not shape the scenario.
import type { FidelityInfo, Scenario } from '../engine/types';
import { BASE_TABLE, HW_OVERRIDE_PREFIX, hardwarePreset, inMode, modelPreset, type Param, type State } from './params';
import { hfPreset } from './hf';
import { changedParams } from './url';
import { unitOf } from './units';
import type { CsvBlock } from './csv';

export interface InputRow {
  /** The URL key (`tp`, `hw.hbm.capacity_bytes`), or `engine.*` for what the engine used. */
  key: string;
  label: string;
  value: string | number | boolean;
  unit: string;
}

const applies = (p: Param, s: State): boolean =>
  inMode(p, String(s.values['mode'])) && (!p.showIf || s.values[p.showIf.key] === p.showIf.value);

/** The engine's choices behind an answer: its chip and model (as the scenario names them), fidelity and profile. */
function engineRows(state: State, scenario: Scenario, used: FidelityInfo): InputRow[] {
  const chip = hardwarePreset(scenario.hardware.preset);
  const preset = scenario.model && 'preset' in scenario.model ? scenario.model.preset : null;
  // A pasted config.json is named as the engine read it (if it has yet).
  const model = preset
    ? `${modelPreset(preset).name} (${preset})`
    : `${hfPreset(state)?.name ?? 'a model'} (pasted config.json)`;
  const fidelity = used.fidelity ?? 'book'; // an engine without both fidelities computes the book's numbers
  const profile = used.calibration?.profile;
  return [
    { key: 'engine.chip', label: 'Chip', value: `${chip.name} (${chip.id})`, unit: '' },
    { key: 'engine.model', label: 'Model', value: model, unit: '' },
    { key: 'engine.fidelity', label: 'Fidelity', value: fidelity, unit: '' },
    {
      key: 'engine.calibration_profile',
      label: profile?.family_fallback ? 'Calibration profile (the chip family’s)' : 'Calibration profile',
      value: profile ? profile.id : 'none',
      unit: '',
    },
  ];
}

/** The inputs of an answer: what the engine used, then the state's values that differ from the table's defaults. */
export function inputRows(state: State, scenario: Scenario, used: FidelityInfo): InputRow[] {
  const params = changedParams(state, BASE_TABLE)
    .filter((p) => applies(p, state))
    .map((p): InputRow => ({
      key: p.key,
      label: p.label,
      value: state.values[p.key] as string | number | boolean,
      unit: p.unit,
    }));
  const fields = Object.keys(state.hw)
    .sort()
    .map((path): InputRow => ({
      key: HW_OVERRIDE_PREFIX + path,
      label: `Chip field ${path} (overridden)`,
      value: state.hw[path]!,
      unit: unitOf(path.split('.').at(-1) ?? ''),
    }));
  return [...engineRows(state, scenario, used), ...params, ...fields];
}

/** The inputs as the first block of a CSV download. */
export function inputsBlock(rows: readonly InputRow[]): CsvBlock {
  return { header: ['input', 'label', 'value', 'unit'], rows: rows.map((r) => [r.key, r.label, r.value, r.unit]) };
}
