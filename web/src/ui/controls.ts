// <ss-controls>: the explorer's controls, every one a row of the parameter table (state/params.ts). The question
// comes first (workload, chip, model, chips), then parallelism and the run; what a reader changes less often (model
// shape, schedules, precision details, efficiency, chip fields, a calibration profile) folds away under "More", opened
// by itself when a link sets one of those values. Changes go up as `ss-set` events; the explorer owns the state.
import { LitElement, html, nothing, type TemplateResult } from 'lit';
import { guard } from 'lit/directives/guard.js';
import type { Calibration, Diagnostic, PlanMeshResult } from '../engine/types';
import {
  PARAMS,
  PRESETS,
  hardwareFields,
  hardwarePreset,
  inMode,
  param,
  type Param,
  type State,
  type Value,
} from '../state/params';
import { describePlan, nodesTimesGpus } from './mesh-words';
import { activeLayout, baseModel, weightsDtype } from '../state/scenario';
import { balancingParam, chipsFixed, chipsStops, degreeStops, type MeshOutcome } from '../state/plan-mesh';
import { hfAnswer } from '../state/hf';
import type { AskProfile } from '../state/profile';
import { binaryReading, dimensionOf, examplesOf, parseQuantity } from '../state/numbers';
import { fmtBytes, fmtFlopsPerS, fmtSeconds, fmtUsd, siUnit } from '../charts/format';
import { boolField, enumField, numberField, publishedDtypeWords } from './fields';
import { diagnosticsList, paramAt } from './diagnostics';
import { pasteBox } from './paste';

/** What a control asks for: new values, or one chip field (null: back to the preset). */
export interface SetDetail {
  values?: Record<string, Value>;
  hwField?: { path: string; value: number | boolean | null };
  /** A pasted config.json (text as pasted), or null to go back to the preset. */
  hfText?: string | null;
  /** Move to the nearest plan that fits (the engine's nearest_fit). */
  fit?: true;
  ev?: Event;
}

export type SetEvent = CustomEvent<SetDetail>;

const GROUPS: readonly { id: string; title: string; folded?: boolean }[] = [
  { id: 'workload', title: 'The question' },
  { id: 'mesh', title: 'Parallelism' },
  { id: 'training', title: 'Training run' },
  { id: 'serving', title: 'Serving' },
  { id: 'model', title: 'Model shape', folded: true },
  { id: 'efficiency', title: 'Efficiency (fraction of peak)', folded: true },
];
/** Rows shown in the first group although the table files them elsewhere (the question a reader asks first). */
const QUESTION_KEYS = ['mode', 'hw', 'model'];

/** A chip field's value in readable units, from the unit in its name (display only). */
function fieldHint(path: string, v: number): string {
  if (path.startsWith('peak_flops_per_s.') || path.endsWith('_flops_per_s')) return fmtFlopsPerS(v);
  if (path.endsWith('_bytes_per_s') || path.endsWith('_bytes_per_s_per_chip') || path.endsWith('_bytes_per_s_per_gpu'))
    return `${fmtBytes(v)}/s`;
  if (path.endsWith('_bytes')) return fmtBytes(v);
  if (path.endsWith('_hz')) return siUnit(v, 'Hz');
  if (path.endsWith('_s')) return fmtSeconds(v);
  if (path.startsWith('price_usd')) return `${fmtUsd(v)} per chip-hour`;
  return '';
}

export class SsControls extends LitElement {
  static override properties = {
    state: { attribute: false },
    engineDefaults: { attribute: false },
    degreeProblem: { attribute: false },
    hfProblem: { attribute: false },
    calibration: { attribute: false },
    calibrationDiagnostics: { attribute: false },
    ask: { attribute: false },
    fieldDiagnostics: { attribute: false },
    planMesh: { attribute: false },
    mesh: { attribute: false },
  };

  state!: State;
  /** The values the engine used for the rows left unset, by key (ui/results.ts engineDefaults). */
  engineDefaults: Readonly<Record<string, number | string>> = {};
  /** Why a fixed chip count did not split (from the explorer's rebalancing). */
  degreeProblem = '';
  /** Why the pasted config.json text was not used (not JSON): shown under its box. */
  hfProblem = '';
  /** The engine's word on the calibration profile behind the numbers on screen, and its diagnostics about a loaded one. */
  calibration: Calibration | undefined;
  /** The engine at once (the profile loader asks it to choose from a calibrate result). */
  ask: AskProfile = () => null;
  calibrationDiagnostics: readonly Diagnostic[] = [];
  /** The engine's errors about the state on screen: each is also shown at the control its path names. */
  fieldDiagnostics: readonly Diagnostic[] = [];
  /** The engine's plan_mesh answer for this state (the sliders' stops, the balancing degree) and the mesh it gave. */
  planMesh: PlanMeshResult | undefined;
  mesh: MeshOutcome | undefined;
  private opened = new Set<string>();
  /**
   * Each chip's sources, for the chip fields' titles: a chunk of its own (6 KB gzipped), fetched when the folded
   * chip fields are first shown, so that it is no part of the first load.
   */
  private chipSources: Readonly<Record<string, Readonly<Record<string, string>>>> | undefined;
  private chipSourcesAsked = false;

  private loadChipSources(): void {
    if (this.chipSourcesAsked) return;
    this.chipSourcesAsked = true;
    void import('virtual:scalescope-chip-sources').then((m) => {
      this.chipSources = m.default;
      this.requestUpdate();
    });
  }

  protected override createRenderRoot(): this {
    return this; // inside the explorer's shadow root: its styles apply
  }

  private set(detail: SetDetail): void {
    this.dispatchEvent(new CustomEvent<SetDetail>('ss-set', { detail, bubbles: true }));
  }

  private readonly onValue = (key: string, value: Value, ev: Event): void => this.set({ values: { [key]: value }, ev });

  /** A row with `showIf` is shown (and sent) only while its condition holds; GPU clusters have no slices. */
  private shown(p: Param): boolean {
    const v = this.state.values;
    if (p.hidden || !inMode(p, String(v['mode']))) return false;
    if (p.showIf && v[p.showIf.key] !== p.showIf.value) return false;
    if (p.key === 'chips') return false; // drawn by chipsControl
    if (hardwarePreset(String(v['hw'])).kind === 'gpu' && (p.key === 'slices' || p.key === 'dcn')) return false;
    return true;
  }

  private rowsOf(group: string, advanced: boolean): Param[] {
    return PARAMS.filter((p) => {
      const inGroup =
        group === 'workload'
          ? QUESTION_KEYS.includes(p.key) || (p.group === 'workload' && !QUESTION_KEYS.includes(p.key))
          : p.group === group && !QUESTION_KEYS.includes(p.key);
      return inGroup && !!p.advanced === advanced && this.shown(p);
    });
  }

  /** The value a model-shape row shows while it is unset: the model's own (preset or pasted config), before any resize. */
  private presetValue(key: string): number | undefined {
    const m = baseModel(this.state);
    const map: Record<string, number | undefined> = {
      layers: m.layers,
      d_model: m.d_model,
      ff_ratio: Number((m.d_ff / m.d_model).toFixed(3)),
      heads: m.heads,
      kv_heads: m.kv_heads,
      vocab: m.vocab,
      experts: m.experts,
      active: m.active_experts,
    };
    return map[key];
  }

  /** The engine's errors at this control, in place, with the binary reading of a decimal value to try ("16Mi?"). */
  private fieldProblem(p: Param, value: number): TemplateResult | typeof nothing {
    const errors = this.fieldDiagnostics.filter((d) => d.severity !== 'warning' && paramAt(d.path)?.key === p.key);
    if (!errors.length) return nothing;
    const alt = binaryReading(value);
    const offer =
      alt && (p.max === undefined || alt.value <= p.max)
        ? html` <button type="button" data-try-value=${alt.value} @click=${(e: Event) => this.set({ values: { [p.key]: alt.value }, ev: e })}>Try ${alt.text} = ${alt.value.toLocaleString('en-US')}?</button>`
        : nothing;
    return html`<p class="notice-inline field-problem" role="alert" data-field-problem=${p.key}>${errors.map((d) => d.message).join(' ')}${offer}</p>`;
  }

  private numberControl(p: Param): TemplateResult {
    const raw = this.state.values[p.key];
    const fromModel = p.group === 'model';
    const unset = raw === null;
    // Unset rows show what the engine will use: the model's value, the TP degree (the experts' TP), else the value the engine answered with.
    const answered = this.engineDefaults[p.key];
    // (an answered fraction to three digits: the field shows 0.0000197 for the engine's 1.9732816719714506e-5)
    const engineValue = fromModel
      ? this.presetValue(p.key)
      : p.key === 'etp'
        ? Number(this.state.values['tp'])
        : typeof answered === 'number'
          ? Number.isInteger(answered)
            ? answered
            : Number(answered.toPrecision(3))
          : undefined;
    const value = typeof raw === 'number' ? raw : (engineValue ?? Number(p.default ?? p.min ?? 0));
    const derived =
      p.degree !== undefined &&
      chipsFixed(this.state) &&
      this.planMesh?.balancing === p.degree &&
      inMode(p, String(this.state.values['mode']));
    const id = `c-${p.key}`;
    const badges = html`${!unset && p.default === null ? html`<span class="badge">overridden</span>` : unset && !fromModel ? html` <span class="unit">engine default</span>` : nothing}${derived ? html` <span class="badge">= chips ÷ the other degrees</span>` : nothing}`;
    return numberField(p, {
      id,
      value,
      stops: p.degree ? (degreeStops(p, this.state, this.planMesh) ?? undefined) : undefined,
      disabled: derived,
      describedBy: `${id}-help`,
      badges,
      text: unset ? p.unsetText : undefined,
      problem: this.fieldProblem(p, value),
      after:
        !unset && p.default === null
          ? html`<button type="button" class="reset" title=${fromModel ? 'Back to the model’s value' : 'Back to the engine’s default'} aria-label="Reset ${p.label} to the ${fromModel ? 'model’s value' : 'default'}" @click=${(e: Event) => this.set({ values: { [p.key]: null }, ev: e })}>↺</button>`
          : nothing,
      onValue: this.onValue,
    }) as TemplateResult;
  }

  private control(p: Param): TemplateResult {
    const id = `c-${p.key}`;
    const v = this.state.values[p.key] ?? null;
    const help = html`<span id="${id}-help" class="help">${p.help}</span>`;
    if (p.type === 'enum') {
      if (p.key === 'model' && this.state.values['hf']) return this.modelSelect(p);
      if (p.key === 'wdt') return v === null ? this.publishedDtypeSelect(p, id) : enumField(p, id, v, this.onValue);
      // An engine-defaulted choice: a first option goes back to the engine's default, naming the one it used (or the row's words for unset).
      if (p.default === null)
        return enumField(
          p,
          id,
          v,
          this.onValue,
          undefined,
          p.unsetText ?? `${this.engineDefaults[p.key] ?? '…'} (engine default)`,
        );
      return html`${enumField(p, id, v, this.onValue)}`;
    }
    if (p.type === 'bool') return boolField(p, id, v, this.onValue);
    return html`${this.numberControl(p)}${help}`;
  }

  /** The weights' dtype while unset: the one the model is published in, said so (DeepSeek-V3: fp8). */
  private publishedDtypeSelect(p: Param, id: string): TemplateResult {
    const published = weightsDtype(this.state);
    return enumField(p, id, published, this.onValue, publishedDtypeWords(published));
  }

  /** The model select while a pasted config.json is the model: its name first, the presets to go back to. */
  private modelSelect(p: Param): TemplateResult {
    const a = hfAnswer(this.state);
    const name = a?.model?.name ?? 'pasted config.json';
    return html`<div class="ctl" title=${p.help}>
      <label for="c-model">${p.label}</label>
      <select id="c-model" data-key="model" @change=${(e: Event) => {
        const id = (e.target as HTMLSelectElement).value;
        if (id !== 'hf') this.set({ values: { model: id }, hfText: null, ev: e });
      }}>
        <option value="hf" selected>Pasted: ${name}</option>
        ${PRESETS.models.map((m) => html`<option value=${m.id}>${m.name}</option>`)}
      </select>
    </div>`;
  }

  private chipsControl(): TemplateResult {
    const s = this.state;
    const fixed = chipsFixed(s);
    const mesh = this.mesh ?? { ok: false, problem: '' };
    const chips = fixed ? Number(s.values['chips']) : mesh.ok ? mesh.plan.chips : (this.planMesh?.chips ?? NaN);
    const hw = hardwarePreset(String(s.values['hw']));
    const bal = balancingParam(s, this.planMesh);
    const p: Param = {
      ...param('chips'),
      help: fixed
        ? `Fixed: ${bal.label} takes the chips the other degrees leave.`
        : `Moving it fixes the count; ${bal.label} takes what the other degrees leave.`,
    };
    return html`
      ${numberField(p, {
        id: 'c-chips',
        value: chips,
        stops: chipsStops(this.planMesh) ?? undefined,
        describedBy: 'c-chips-help',
        badges: fixed ? html` <span class="badge">fixed</span>` : nothing,
        onValue: (_k, v, ev) => this.set({ values: { chips: v }, ev }),
      })}
      <div class="ctl check" title="Keep the chip count while TP, PP, EP or CP move; ${bal.label} takes the rest">
        <input type="checkbox" id="c-chips-fixed" data-key="chips-fixed" .checked=${fixed} ?disabled=${!fixed && !Number.isFinite(chips)}
          @change=${(e: Event) => this.set({ values: { chips: (e.target as HTMLInputElement).checked ? chips : null }, ev: e })} />
        <label for="c-chips-fixed">${Number.isFinite(chips) ? `Keep ${chips} chips` : 'Keep the chip count'} when TP, PP, EP or CP move</label>
      </div>
      <span id="c-chips-help" class="help" data-mesh-help>${mesh.ok ? (hw.kind === 'gpu' ? `${nodesTimesGpus(hw, mesh.plan.chips)} · ` : '') + describePlan(mesh.plan) : mesh.problem}${activeLayout(s) ? html` <span class="badge" title="the exact mesh of an applied plan; moving a degree returns to the page’s own layout">plan’s layout</span>` : nothing}</span>
      ${this.degreeProblem ? html`<p class="notice-inline" role="status" data-degree-problem>${this.degreeProblem}</p>` : nothing}`;
  }

  private hfPaste(): TemplateResult {
    const a = hfAnswer(this.state);
    const on = Boolean(this.state.values['hf']);
    return html`<details class="more hf" ?open=${on} data-hf>
      <summary>Paste a Hugging Face config.json${on ? html` <span class="badge">in use</span>` : nothing}</summary>
      <p class="help">Llama, Mistral, Mixtral, Qwen, Gemma or DeepSeek: the engine reads the file (keys it does not know are named below).</p>
      ${pasteBox({
        id: 'c-hf',
        label: 'config.json text',
        placeholder: '{"model_type": "llama", "hidden_size": 8192, …}',
        value: on ? String(this.state.values['hf']) : '',
        useText: 'Use this model',
        clearText: on ? 'Back to the preset' : null,
        host: this,
        onUse: (text, ev) => this.set({ hfText: text, ev }),
        onClear: (ev) => this.set({ hfText: null, ev }),
      })}
      ${this.hfProblem ? html`<p class="notice-inline field-problem" role="alert" data-hf-problem>${this.hfProblem}</p>` : nothing}
      ${on && !a ? html`<p class="help" role="status" data-hf-reading>Reading the config.json…</p>` : nothing}
      ${a ? diagnosticsList(a.diagnostics, 'hf_config') : nothing}
      ${
        a?.ok && a.model
          ? html`<p class="help" data-hf-model>Read as ${a.model.name}: L ${a.model.layers} · D ${a.model.d_model} · F ${a.model.d_ff} · N ${a.model.heads} · K ${a.model.kv_heads} · H ${a.model.head_dim} · V ${a.model.vocab}${a.model.experts ? ` · E ${a.model.experts}, k ${a.model.active_experts}` : ''}.</p>
        ${a.model.not_modelled.length ? html`<ul class="help">${a.model.not_modelled.map((n) => html`<li>${n}</li>`)}</ul>` : nothing}`
          : nothing
      }
    </details>`;
  }

  private hardwareFields(): TemplateResult {
    const hw = hardwarePreset(String(this.state.values['hw']));
    const n = Object.keys(this.state.hw).length;
    const open = n > 0 || this.opened.has('hw');
    if (open) this.loadChipSources();
    const toggled = (e: Event): void => {
      this.remember('hw', e);
      if ((e.target as HTMLDetailsElement).open) this.loadChipSources();
    };
    return html`<details class="hwfields more" ?open=${open} @toggle=${toggled}>
      <summary>Chip fields${n ? html` <span class="badge">${n} overridden</span>` : nothing}</summary>
      ${hardwareFields(hw, this.chipSources?.[hw.id]).map((f) => {
        const over = this.state.hw[f.path];
        const id = `hw-${f.path.replaceAll('.', '-')}`;
        const value = over ?? f.value;
        if (typeof f.value === 'boolean') {
          return html`<div class="ctl check ${over !== undefined ? 'overridden' : ''}" title=${f.source ?? ''}>
            <input type="checkbox" id=${id} .checked=${value === true} @change=${(e: Event) => this.set({ hwField: { path: f.path, value: (e.target as HTMLInputElement).checked }, ev: e })} />
            <label for=${id}>${f.path}</label>${over !== undefined ? html`<span class="badge">overridden</span>` : nothing}</div>`;
        }
        return html`<div class="ctl hwf ${over !== undefined ? 'overridden' : ''}" title=${f.source ? `source: ${f.source}` : ''}>
          <label for=${id}>${f.path}</label>
          <div class="pair">
            <input type="text" inputmode="decimal" spellcheck="false" class="num wide" id=${id} data-hw=${f.path} .value=${String(value)}
              @change=${(e: Event) => {
                const el = e.target as HTMLInputElement;
                const dimension = dimensionOf(f.path);
                const v = parseQuantity(el.value, dimension);
                const ok = Number.isFinite(v) && v > 0;
                el.setCustomValidity(ok ? '' : `Enter a positive number (${examplesOf(dimension)} work too)`);
                el.reportValidity();
                if (ok) this.set({ hwField: { path: f.path, value: v }, ev: e });
              }} />
            ${over !== undefined ? html`<span class="badge">overridden</span><button type="button" class="reset" aria-label="Reset ${f.path}" @click=${(e: Event) => this.set({ hwField: { path: f.path, value: null }, ev: e })}>↺</button>` : nothing}
          </div><span class="help">${fieldHint(f.path, Number(value))}</span></div>`;
      })}
    </details>`;
  }

  private remember(id: string, e: Event): void {
    if ((e.target as HTMLDetailsElement).open) this.opened.add(id);
    else this.opened.delete(id);
  }

  /** Folded rows open by themselves when one differs from its default (a shared link shows what it changed). */
  private more(
    id: string,
    rows: Param[],
    extra: TemplateResult | typeof nothing = nothing,
  ): TemplateResult | typeof nothing {
    if (!rows.length && extra === nothing) return nothing;
    const changed = rows.some((p) => this.state.values[p.key] !== p.default);
    const names = rows
      .slice(0, 4)
      .map((p) => p.label.replace(/ \(.*\)$/, ''))
      .join(', ');
    return html`<details class="more" data-more=${id} ?open=${changed || this.opened.has(id)} @toggle=${(e: Event) => this.remember(id, e)}>
      <summary>More: ${names}${rows.length > 4 ? ', …' : ''}${changed ? html` <span class="badge">changed</span>` : nothing}</summary>
      ${rows.map((p) => this.control(p))}
      ${extra}
    </details>`;
  }

  private group(g: { id: string; title: string; folded?: boolean }): TemplateResult | typeof nothing {
    const mode = String(this.state.values['mode']);
    if ((g.id === 'training' || g.id === 'serving') && g.id !== mode) return nothing;
    const main = this.rowsOf(g.id, false);
    const advanced = this.rowsOf(g.id, true);
    if (g.folded) {
      return html`<fieldset class="group" data-group=${g.id}><legend>${g.title}</legend>
        ${this.more(g.id, [...main, ...advanced], g.id === 'model' ? this.hfPaste() : nothing)}
        ${g.id === 'efficiency' ? html`${this.hardwareFields()}<ss-profile-loader .state=${this.state} .calibration=${this.calibration} .diagnostics=${this.calibrationDiagnostics} .ask=${this.ask}></ss-profile-loader>` : nothing}</fieldset>`;
    }
    return html`<fieldset class="group" data-group=${g.id}><legend>${g.title}</legend>
      ${main.map((p) => this.control(p))}
      ${g.id === 'workload' ? this.chipsControl() : nothing}
      ${this.more(g.id, advanced)}
    </fieldset>`;
  }

  /** What a group shows depends on: its rows, the mode, chip, model, pasted config, chips and the rebalancing note. */
  /** The errors that could show at a field, as one value for the groups' guards. */
  private get fieldErrorsText(): string {
    return this.fieldDiagnostics
      .filter((d) => d.severity !== 'warning')
      .map((d) => `${d.path} ${d.message}`)
      .join('\n');
  }

  private groupDeps(g: string): unknown[] {
    const v = this.state.values;
    const deps: unknown[] = [
      g,
      v['mode'],
      v['hw'],
      v['model'],
      v['hf'],
      v['chips'],
      v['seq'],
      v['sched'],
      v['vstages'],
      v['etp'],
      this.degreeProblem,
      this.hfProblem,
      this.fieldErrorsText,
      this.planMesh,
      this.mesh,
    ];
    for (const p of PARAMS)
      if (p.group === g || (g === 'workload' && QUESTION_KEYS.includes(p.key)) || p.degree) deps.push(v[p.key]);
    if (g === 'model' || g === 'mesh')
      for (const k of ['layers', 'd_model', 'ff_ratio', 'heads', 'kv_heads', 'experts', 'size']) deps.push(v[k]);
    if (g === 'efficiency') {
      const p = this.calibration?.profile;
      deps.push(
        JSON.stringify(this.state.hw),
        p?.id,
        p?.source,
        p?.family_fallback,
        JSON.stringify(this.calibrationDiagnostics),
        this.chipSources,
      );
    }
    if (g === 'serving' || g === 'training') deps.push(JSON.stringify(this.engineDefaults));
    return deps;
  }

  override render(): TemplateResult {
    return html`<form class="controls" aria-label="Scenario" @submit=${(e: Event) => e.preventDefault()}>
      ${GROUPS.map((g) => guard(this.groupDeps(g.id), () => this.group(g)))}
    </form>`;
  }
}

customElements.define('ss-controls', SsControls);
