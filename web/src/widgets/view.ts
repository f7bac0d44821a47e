// What a widget view is: a title, its controls, how it asks the engine (one or more batches of scenarios built by
// src/state/scenario.ts or by hand from docs/api.md), and how it lays out the answer. Views never compute physics:
// every number they show is a field of an engine result; they only format and draw.
import { html, nothing, type TemplateResult } from 'lit';
import type { Diagnostic, Evaluation } from '../engine/types';
import type { State, Value } from '../state/params';
import type { ControlSpec } from './controls';

export type ChartsModule = typeof import('./charts');

/** Asks the engine; resolves null when a newer request of the same widget replaced this one. */
export type Ask = (scenarios: unknown[]) => Promise<Evaluation<unknown>[] | null>;

export interface ViewContext {
  /** Changes state values (as a control would). */
  set(changes: Record<string, Value>): void;
  ask: Ask;
  /** A place for a view's own transient data (e.g. plan suggestions); cleared when the state changes. */
  local: Record<string, unknown>;
  /** Re-renders after `local` changed. */
  refresh(): void;
}

export interface View<D> {
  title: string;
  blurb: string;
  /** The controls for a state; `data` is the last answer shown (a view may take a slider's stops from it). */
  controls(s: State, data: D | null): ControlSpec[];
  /** Values to show for rows whose default is "the preset's" (null), e.g. d_model. */
  fallback?(s: State, key: string): number | undefined;
  /** The state a view works in (e.g. serving forces mode=serving). */
  normalise?(s: State): State;
  /** The explorer's keys for the setup the view shows (its own keys mapped: a slice becomes a chip count). */
  toExplorer?(s: State): State;
  /** The view shows a chip, a mesh or an op, not a model: its explorer link carries a model that fits (explorer-link.ts). */
  modelFree?: boolean;
  compute(s: State, ask: Ask): Promise<D | null>;
  render(s: State, d: D, ctx: ViewContext): TemplateResult;
  chart?(s: State, d: D, charts: ChartsModule, width: number): Element | null;
}

/** A problem to show in place of the numbers (engine diagnostics, a mesh that cannot be built, ...). */
export class WidgetProblem extends Error {
  constructor(readonly lines: string[]) {
    super(lines.join('; '));
  }
}

/** Readers get the engine's sentence; the JSON path (for developers) stays in the explorer and the CLI. */
function diagLine(d: Diagnostic): string {
  return d.message;
}

/** The result of an evaluation, or a WidgetProblem with the engine's error diagnostics. */
export function need<R>(ev: Evaluation<unknown> | undefined, what: string): R {
  if (!ev) throw new WidgetProblem([`${what}: no answer from the engine`]);
  if (!ev.ok || ev.result === undefined) {
    const errs = ev.diagnostics.filter((d) => d.severity !== 'warning').map(diagLine);
    throw new WidgetProblem(errs.length ? errs.map((e) => `${what}: ${e}`) : [`${what}: the engine gave no result`]);
  }
  return ev.result as R;
}

export function warnings(...evs: (Evaluation<unknown> | undefined)[]): string[] {
  return evs.flatMap((ev) => (ev?.diagnostics ?? []).filter((d) => d.severity === 'warning').map(diagLine));
}

export function warningBox(lines: string[]): TemplateResult | typeof nothing {
  if (!lines.length) return nothing;
  return html`<div class="problems warn" role="status"><ul>${lines.map((l) => html`<li>${l}</li>`)}</ul></div>`;
}

/** A headline number: `data-metric`/`data-value` carry the engine's exact value (tests read them). */
export function card(
  id: string,
  label: string,
  value: number | undefined,
  text: string,
  bad = false,
  words = false,
): TemplateResult {
  return html`<div class="card ${bad ? 'bad' : ''} ${words ? 'words' : ''}"><span class="k">${label}</span><output data-metric=${id} data-value=${value === undefined ? '' : String(value)}>${text}</output></div>`;
}

/** A state with one value changed (views use it to ask about a variant without touching the widget's state). */
export function withValues(s: State, values: Record<string, Value>): State {
  return { values: { ...s.values, ...values }, hw: { ...s.hw } };
}
