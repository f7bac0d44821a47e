// A calibration profile of the reader's own (issue 18). The engine takes it as `query.calibration` in every
// calibrated query, checks it, and names what is wrong under /query/calibration (docs/api.md); the page never reads
// its parameters. Its text is too long for a link, so this browser keeps it (localStorage, the last few used) and
// the URL holds a reference, `cal=<id>~<fingerprint>`. A link whose profile this browser has not loaded says so,
// its numbers use the shipped profile, and loading the same file (the same fingerprint) restores them.
import type {
  CalibrationInput,
  Diagnostic,
  Evaluation,
  HardwarePreset,
  ProfileResult,
  Scenario,
} from '../engine/types';
import { PROFILE_REF_RE, hardwarePreset, type State } from './params';

export const PROFILE_STORE_KEY = 'scalescope.profiles';
export const MAX_STORED_PROFILES = 8;
/** The longest profile kept, minified (a shipped one, kernel models included, is about 6,000 characters). */
export const MAX_PROFILE_CHARS = 65_536;
/** The longest text read: a whole `calibrate` answer, its runs and summary included. */
export const MAX_PROFILE_INPUT_CHARS = 8_000_000;

type Obj = Record<string, unknown>;
const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** FNV-1a (32 bits) of the text's UTF-8 bytes as 8 hex digits: short and stable, enough to tell a few profiles apart. */
export function fingerprint(text: string): string {
  let h = 0x811c9dc5;
  for (const b of new TextEncoder().encode(text)) h = Math.imul(h ^ b, 0x01000193);
  return (h >>> 0).toString(16).padStart(8, '0');
}

/** The text the page keeps, sends and fingerprints: minified, with non-ASCII escaped, however the file was laid out. */
function canonical(v: Obj): string {
  return JSON.stringify(v).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Does a key or string hold half a surrogate pair (text the engine's JSON reader refuses as a whole)? */
function hasLoneSurrogate(v: unknown): boolean {
  const todo: unknown[] = [v];
  while (todo.length) {
    const x = todo.pop();
    if (typeof x === 'string' && LONE_SURROGATE.test(x)) return true;
    if (typeof x === 'object' && x !== null) {
      for (const [k, y] of Object.entries(x)) {
        if (LONE_SURROGATE.test(k)) return true;
        todo.push(y);
      }
    }
  }
  return false;
}

function parseObject(text: string): Obj | null {
  try {
    const v: unknown = JSON.parse(text);
    return isObject(v) ? v : null;
  } catch {
    return null;
  }
}

const idOf = (p: Obj): string => (typeof p['id'] === 'string' ? p['id'] : '');

/** The engine at once (the page's own instance), or null before it is ready. */
export type AskProfile = (scenario: Scenario) => Evaluation<unknown> | null;

export type Picked = { ok: true; profile: Obj; note: string } | { ok: false; problem: string };

/**
 * The profile to use from what was loaded: a bare profile as it is (the engine judges it where it is used); from a
 * `calibrate` result as the CLI writes it ({"profiles": …}) or answers it ({"result": {"profiles": …}}), the one the
 * engine chooses for the chip (the `profile` query: its own, else its kind's family profile).
 */
function pickProfile(v: Obj, hw: HardwarePreset, ask: AskProfile): Picked {
  const result = isObject(v['result']) ? v['result'] : v;
  if (!('profiles' in result)) return { ok: true, profile: v, note: '' };
  // Its profiles alone go to the engine: a whole answer, its runs and fits too, may pass the 1 MiB a call takes.
  const calibration = { profiles: result['profiles'] };
  const question = { version: 1, hardware: { preset: hw.id }, query: { kind: 'profile', calibration } };
  const answer = ask(question as unknown as Scenario);
  if (!answer) return { ok: false, problem: 'The engine is still loading: try again in a moment.' };
  if (!answer.ok || !answer.result)
    return {
      ok: false,
      // Where in the file (a profile inside the result), after the engine's words.
      problem: answer.diagnostics
        .map((d) => {
          const at = d.path.replace(/^\/query\/calibration/, '');
          return at && !at.startsWith('/hardware') ? `${at}: ${d.message}` : d.message;
        })
        .join(' '),
    };
  const r = answer.result as ProfileResult;
  const which = r.family_fallback
    ? `none lists ${hw.name}, so the ${hw.kind.toUpperCase()} family profile`
    : `the one for ${hw.name}`;
  const note = `Took '${r.id.slice(0, 40)}' of the ${r.among} in this calibrate result: ${which}.`;
  return { ok: true, profile: r.profile as unknown as Obj, note };
}

/** The `cal` value for a profile text. */
export function profileRef(id: string, text: string): string {
  const safe =
    id
      .replace(/[^A-Za-z0-9._-]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 48) || 'profile';
  return `${safe}~${fingerprint(text)}`;
}

export type ProfileRead =
  { ok: true; text: string; id: string; ref: string; note: string } | { ok: false; problem: string };

/** Loaded or pasted text -> the profile the page keeps; only the checks that make it text the engine can be given. */
export function readProfile(input: string, hw: HardwarePreset, ask: AskProfile): ProfileRead {
  const no = (problem: string): ProfileRead => ({ ok: false, problem });
  if (input.length > MAX_PROFILE_INPUT_CHARS)
    return no(`This text is ${input.length} characters; the page reads at most ${MAX_PROFILE_INPUT_CHARS}.`);
  let v: unknown;
  try {
    v = JSON.parse(input);
  } catch (e) {
    return no(`This is not JSON: ${e instanceof Error ? e.message : String(e)}`);
  }
  if (!isObject(v))
    return no(
      'A calibration profile is one JSON object ({"schema": "scalescope.calibration/2", "id": …, "kernels": {…}, "parameters": {…}, …}), or a calibrate result ({"profiles": […]}).',
    );
  // A runs file (issue 41: it gave "required key 'id' is missing" everywhere): the measurements a profile is fitted on.
  if (Array.isArray(v['runs']) && !('parameters' in v) && !('profiles' in v))
    return no(
      'This is a runs file (measured runs, {"runs": […]}), not a profile: fit it first with `scalescope calibrate FILE --write DIR` (or the Python module’s calibrate), then load the profile it writes for this chip, or paste the whole calibrate answer.',
    );
  const picked = pickProfile(v, hw, ask);
  if (!picked.ok) return picked;
  if (hasLoneSurrogate(picked.profile))
    return no('This profile holds text that is not valid Unicode (half of a surrogate pair).');
  let text: string;
  try {
    text = canonical(picked.profile);
  } catch {
    return no('This profile is nested too deeply to read.');
  }
  if (text.length > MAX_PROFILE_CHARS)
    return no(`This profile is ${text.length} characters minified; the page keeps at most ${MAX_PROFILE_CHARS}.`);
  const id = idOf(picked.profile);
  return { ok: true, text, id, ref: profileRef(id, text), note: picked.note };
}

// ---------------------------------------------------------------------------------------------- kept profiles

/** Where profiles are kept: the browser's localStorage; absent, full or forbidden, a profile lasts this page only. */
export interface TextStore {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

let store: TextStore | null | undefined; // undefined: not looked up yet
/** Profiles read on this page, by fingerprint (null: the store does not have it). */
const loaded = new Map<string, CalibrationInput | null>();

function theStore(): TextStore | null {
  if (store === undefined) {
    try {
      store = globalThis.localStorage ?? null;
    } catch {
      store = null; // a browser that forbids storage throws on the very access
    }
  }
  return store;
}

/** Another store, forgetting what was read (tests; a page has one). */
export function useProfileStore(s: TextStore | null): void {
  store = s;
  loaded.clear();
}

/** The kept profiles, most recently used first, as [fingerprint, text]; what does not check out is left out. */
function readStore(): [string, string][] {
  let v: unknown;
  try {
    v = JSON.parse(theStore()?.getItem(PROFILE_STORE_KEY) ?? '[]');
  } catch {
    return [];
  }
  if (!Array.isArray(v)) return [];
  return v
    .filter(
      (e): e is [string, string] =>
        Array.isArray(e) &&
        typeof e[0] === 'string' &&
        typeof e[1] === 'string' &&
        e[1].length <= MAX_PROFILE_CHARS &&
        fingerprint(e[1]) === e[0],
    )
    .slice(0, MAX_STORED_PROFILES);
}

function writeStore(entries: [string, string][]): boolean {
  try {
    theStore()?.setItem(PROFILE_STORE_KEY, JSON.stringify(entries.slice(0, MAX_STORED_PROFILES)));
    return theStore() !== null;
  } catch {
    return false;
  }
}

/** Keeps a profile text (readProfile's), first in line; false when this browser cannot keep it past this page. */
export function keepProfile(text: string): boolean {
  const fp = fingerprint(text);
  loaded.set(fp, parseObject(text));
  return writeStore([[fp, text], ...readStore().filter(([f]) => f !== fp)]);
}

/** The `cal` reference of a state: the id (for words) and the fingerprint (to find the text); null when unset. */
export function profileRefOf(s: State): { id: string; fp: string } | null {
  const ref = String(s.values['cal'] ?? '');
  if (!PROFILE_REF_RE.test(ref)) return null;
  const i = ref.lastIndexOf('~');
  return { id: ref.slice(0, i), fp: ref.slice(i + 1) };
}

/** The profile a state refers to, as calibrated queries send it; undefined without one or when this browser lacks it. */
export function calibrationOf(s: State): CalibrationInput | undefined {
  const ref = profileRefOf(s);
  if (!ref) return undefined;
  if (!loaded.has(ref.fp)) {
    const entries = readStore();
    const hit = entries.find(([f]) => f === ref.fp);
    loaded.set(ref.fp, hit ? parseObject(hit[1]) : null);
    if (hit) writeStore([hit, ...entries.filter((e) => e !== hit)]); // opening a link that uses it is a use
  }
  return loaded.get(ref.fp) ?? undefined;
}

/** A loaded profile's chip kind as it declares it (`kind`: "tpu" or "gpu"), or '' when it says none. */
const kindOf = (p: CalibrationInput): string =>
  typeof (p as Obj)['kind'] === 'string' ? String((p as Obj)['kind']) : '';

/** The loaded profile when it is for the state's kind of chip; else undefined, and the shipped profile is used, as
 * for a link whose profile this browser has not loaded (issue 41: a GPU profile kept after choosing TPU7x made
 * every number "Cannot run"). Only the field that says which chips a profile is for is read; the engine judges the
 * rest. */
export function profileForChip(s: State): CalibrationInput | undefined {
  const p = calibrationOf(s);
  return p && (kindOf(p) === '' || kindOf(p) === hardwarePreset(String(s.values['hw'])).kind) ? p : undefined;
}

/** The state's profile indented for reading and editing ('' when none is loaded). */
export function profileTextOf(s: State): string {
  const p = calibrationOf(s);
  return p ? JSON.stringify(p, null, 1) : '';
}

/** Why the state's profile is not in use: this browser has not loaded it, or it is for the other kind of chip (null
 * when it is in use, or the state names none). */
export function unusedProfileNotice(s: State): string | null {
  const ref = profileRefOf(s);
  if (!ref || profileForChip(s)) return null;
  const loaded = calibrationOf(s);
  if (loaded) {
    const hw = hardwarePreset(String(s.values['hw']));
    return `Calibration profile '${ref.id}' is for ${kindOf(loaded).toUpperCase()}s, and ${hw.name} is a ${hw.kind.toUpperCase()}: the calibrated numbers shown use the shipped profile. Choose a ${kindOf(loaded).toUpperCase()} to use yours again.`;
  }
  return `This link used calibration profile '${ref.id}' (fingerprint ${ref.fp}), which this browser has not loaded: the calibrated numbers shown use the shipped profile. To reproduce the link’s numbers, load that profile file under Efficiency → Calibration profile; the link keeps its reference, so the file with the same fingerprint restores it.`;
}

/** The notices of a state and its pinned comparison (the pin's only when it refers to another profile). */
export function unusedProfileNotices(s: State, pinned: State | null): string[] {
  const own = unusedProfileNotice(s);
  const pin =
    pinned && (pinned.values['cal'] !== s.values['cal'] || pinned.values['hw'] !== s.values['hw'])
      ? unusedProfileNotice(pinned)
      : null;
  return [own, pin && `Pinned comparison: ${pin}`].filter((n): n is string => n !== null);
}

/** Is a diagnostic about the loaded profile (the engine's paths under /query/calibration)? */
export const isProfileDiagnostic = (d: Diagnostic): boolean =>
  d.path === '/query/calibration' || d.path.startsWith('/query/calibration/');

/**
 * The engine's word when a profile is of a format it no longer reads (a `scalescope.calibration/1` file, written
 * before the kernel models: `unsupported_version`), or null. The page does not judge the format itself: it shows the
 * engine's message, which says how to get a profile it reads.
 */
export function profileFormatProblem(diagnostics: readonly Diagnostic[]): string | null {
  return diagnostics.find((d) => d.code === 'unsupported_version' && isProfileDiagnostic(d))?.message ?? null;
}
