// URL <-> state, driven by the parameter table. The query string carries only non-default values and `v=1`.
// Decoding never throws: anything malformed or hostile is dropped with a plain-words notice and the parameter
// keeps its default. Notices are shown as text (Lit bindings escape), never as markup.
import {
  BASE_TABLE,
  HW_OVERRIDE_PREFIX,
  URL_VERSION,
  defaultState,
  hardwareFields,
  hardwarePreset,
  type Param,
  type ParamTable,
  type State,
  type Value,
} from './params';

/** The longest link the page reads (a pasted config.json and a pinned comparison fit; GitHub Pages serves 8 kB URLs). */
export const MAX_QUERY_LENGTH = 8192;
const MAX_KEYS = 200;
const INT_RE = /^-?\d{1,16}$/;
const FLOAT_RE = /^[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d{1,3})?$/;
const KEY_RE = /^[a-z][a-z0-9_]*(?:\.[a-z0-9_]+){0,3}$/;

export interface Decoded {
  state: State;
  notices: string[];
}

/** Shortens untrusted text for a notice; the notice is rendered as text, this only keeps it readable. */
function quote(s: string): string {
  const clean = s.replace(/[\u0000-\u001f\u007f]/g, '?');
  return `“${clean.length > 40 ? clean.slice(0, 40) + '…' : clean}”`;
}

export function formatValue(p: Param, v: Value): string {
  if (typeof v === 'boolean') return v ? '1' : '0';
  if (typeof v === 'number') return String(v);
  return String(v);
}

/** Parses one URL value for a parameter; returns undefined when it is not acceptable. */
export function parseValue(p: Param, raw: string): Value | undefined {
  switch (p.type) {
    case 'int': {
      if (!INT_RE.test(raw)) return undefined;
      const n = Number(raw) + 0; // -0 is 0 (the engine would answer -0 times)
      return inRange(p, n) ? n : undefined;
    }
    case 'float': {
      if (!FLOAT_RE.test(raw)) return undefined;
      const n = Number(raw) + 0;
      return Number.isFinite(n) && inRange(p, n) ? n : undefined;
    }
    case 'enum':
      return p.choices?.includes(raw) ? raw : undefined;
    case 'bool':
      return raw === '1' || raw === 'true' ? true : raw === '0' || raw === 'false' ? false : undefined;
    case 'text':
      return raw.length <= (p.maxLength ?? 200) && p.pattern?.test(raw) === true ? raw : undefined;
  }
}

function inRange(p: Param, n: number): boolean {
  return (p.min === undefined || n >= p.min) && (p.max === undefined || n <= p.max);
}

/** The table's rows whose value in the state differs from their default (what a link carries), in table order. */
export function changedParams(state: State, table: ParamTable = BASE_TABLE): Param[] {
  return table.params.filter((p) => {
    const v = state.values[p.key];
    return v !== undefined && v !== null && v !== p.default;
  });
}

/** The query string of a state: `v=1` and the values that differ from the table's defaults. */
export function encodeState(state: State, table: ParamTable = BASE_TABLE): string {
  const q = new URLSearchParams();
  q.set('v', String(URL_VERSION));
  for (const p of changedParams(state, table)) q.set(p.key, formatValue(p, state.values[p.key]!));
  for (const path of Object.keys(state.hw).sort()) {
    const v = state.hw[path];
    if (v !== undefined) q.set(HW_OVERRIDE_PREFIX + path, typeof v === 'boolean' ? (v ? '1' : '0') : String(v));
  }
  return q.toString();
}

/** "one of a, b, c"; a long list (the model presets) names its first few and points at the menu, so a notice stays short. */
function choiceWords(p: Param): string {
  const choices = p.choices ?? [];
  if (choices.length <= 8) return `one of ${choices.join(', ')}`;
  return `one of the ${choices.length} in the ${p.label} menu (${choices.slice(0, 4).join(', ')}, …)`;
}

/** Old URL versions would migrate here; version 1 is the first. */
function migrate(version: number, q: URLSearchParams): URLSearchParams | null {
  return version === URL_VERSION ? q : null;
}

export function decodeState(search: string, table: ParamTable = BASE_TABLE): Decoded {
  const state = defaultState(table);
  const notices: string[] = [];
  let text = search.startsWith('?') ? search.slice(1) : search;
  if (text === '') return { state, notices };
  if (text.length > MAX_QUERY_LENGTH) {
    return { state, notices: [`The link is too long (${text.length} characters); showing the defaults.`] };
  }
  let q: URLSearchParams;
  try {
    // URLSearchParams never throws on content, but a lone surrogate or % sequence is decoded leniently: check.
    decodeURIComponent(text.replace(/\+/g, ' '));
    q = new URLSearchParams(text);
  } catch {
    return { state, notices: ['The link is not a valid query string; showing the defaults.'] };
  }
  const keys = [...q.keys()];
  if (keys.length > MAX_KEYS) return { state, notices: ['The link has too many parameters; showing the defaults.'] };
  const vRaw = q.get('v');
  if (vRaw === null) {
    notices.push('The link has no version (v=1); reading it as version 1.');
  } else if (!INT_RE.test(vRaw)) {
    return { state, notices: [`The link’s version ${quote(vRaw)} is not a number; showing the defaults.`] };
  } else {
    const migrated = migrate(Number(vRaw), q);
    if (!migrated)
      return {
        state,
        notices: [`The link is from version ${quote(vRaw)}, which this page does not know; showing the defaults.`],
      };
    q = migrated;
  }
  const seen = new Set<string>();
  // Read the hardware preset first: overrides are checked against its fields.
  const ordered = [...q.entries()].sort(([a], [b]) => Number(b === 'hw') - Number(a === 'hw'));
  for (const [key, raw] of ordered) {
    if (key === 'v') continue;
    if (seen.has(key)) {
      notices.push(`The parameter ${quote(key)} appears twice; the first value is used.`);
      continue;
    }
    seen.add(key);
    if (!KEY_RE.test(key)) {
      notices.push(`Ignored an unknown parameter ${quote(key)}.`);
      continue;
    }
    if (key.startsWith(HW_OVERRIDE_PREFIX)) {
      const path = key.slice(HW_OVERRIDE_PREFIX.length);
      const hw = hardwarePreset(String(state.values['hw']));
      const field = hardwareFields(hw).find((f) => f.path === path);
      if (!field) {
        notices.push(`Ignored ${quote(key)}: ${hw.name} has no such field.`);
        continue;
      }
      if (typeof field.value === 'boolean') {
        if (raw === '1' || raw === '0') state.hw[path] = raw === '1';
        else notices.push(`Ignored ${quote(key)}: expected 0 or 1, got ${quote(raw)}.`);
        continue;
      }
      const n = FLOAT_RE.test(raw) ? Number(raw) : NaN;
      if (Number.isFinite(n) && n > 0 && n < 1e30) state.hw[path] = n;
      else notices.push(`Ignored ${quote(key)}: expected a positive number, got ${quote(raw)}.`);
      continue;
    }
    const p = table.byKey.get(key);
    if (!p) {
      notices.push(`Ignored an unknown parameter ${quote(key)}.`);
      continue;
    }
    const v = parseValue(p, raw);
    if (v === undefined) {
      const range =
        p.type === 'enum'
          ? choiceWords(p)
          : p.type === 'bool'
            ? '0 or 1'
            : p.type === 'text'
              ? `text like ${p.examples?.[0] ?? '…'}`
              : `${p.type === 'int' ? 'a whole number' : 'a number'} from ${p.min} to ${p.max}`;
      notices.push(`Ignored ${p.label} = ${quote(raw)}: expected ${range}. Using the default.`);
      continue;
    }
    state.values[key] = v;
  }
  return { state, notices };
}
