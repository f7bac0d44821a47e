// A pasted Hugging Face config.json. The state keeps the file itself (minified, URL key `hf`); the engine reads it
// (docs/api.md "A Hugging Face config.json as the model"), and what the engine made of it — the shape, the caveats,
// the diagnostics naming unknown or missing keys — is remembered here by text, so the controls and the scenario
// builder can use the model like a preset. Nothing here interprets the file's keys.
import type { Diagnostic, ModelJson, ModelPreset } from '../engine/types';
import { MAX_HF_CONFIG_CHARS, param, type State } from './params';

const resolved = new Map<string, ModelJson>();

/** The config.json of a state, parsed ('' when none). */
export function hfConfigOf(s: State): Record<string, unknown> | null {
  const text = String(s.values['hf'] ?? '');
  if (!text) return null;
  try {
    const v = JSON.parse(text) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

export type Minified = { ok: true; text: string } | { ok: false; problem: string };

/** The pasted text as the state keeps it: one JSON object, minified, short enough for a link. */
export function minifyConfig(pasted: string): Minified {
  let v: unknown;
  try {
    v = JSON.parse(pasted);
  } catch (e) {
    return { ok: false, problem: `This is not JSON: ${e instanceof Error ? e.message : String(e)}` };
  }
  if (!v || typeof v !== 'object' || Array.isArray(v))
    return { ok: false, problem: 'A config.json is one JSON object ({…}).' };
  const text = JSON.stringify(v);
  if (text.length > MAX_HF_CONFIG_CHARS)
    return {
      ok: false,
      problem: `This config.json is ${text.length} characters minified; a link holds at most ${MAX_HF_CONFIG_CHARS}. Remove keys the engine does not need (auto_map, …).`,
    };
  if (!param('hf').pattern!.test(text))
    return { ok: false, problem: 'A config.json for a link must be plain ASCII text.' };
  return { ok: true, text };
}

export function rememberHfModel(text: string, answer: ModelJson): void {
  resolved.set(text, answer);
}

/** What the engine said about the state's config.json (undefined until it was asked). */
export function hfAnswer(s: State): ModelJson | undefined {
  return resolved.get(String(s.values['hf'] ?? ''));
}

/** The pasted model as a preset-like record, once the engine has read it without errors. */
export function hfPreset(s: State): ModelPreset | null {
  const a = hfAnswer(s);
  return a?.ok && a.model ? a.model : null;
}

/**
 * An answer about a state whose config.json the engine rejected: the file's own diagnostics (the unknown or missing
 * keys) in place of the first-load module's `not_in_module`, which its scenarios, carrying the file, then get.
 */
export function withConfigDiagnostics<T extends { diagnostics: Diagnostic[] }>(answer: T, s: State | null): T {
  const a = s ? hfAnswer(s) : undefined;
  if (!a || a.ok || !answer.diagnostics.some((d) => d.code === 'not_in_module')) return answer;
  return {
    ...answer,
    diagnostics: [...a.diagnostics, ...answer.diagnostics.filter((d) => d.code !== 'not_in_module')],
  };
}
