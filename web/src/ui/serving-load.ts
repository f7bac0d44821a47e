// "Under this load" (issue 35): the steady state of a benchmark's closed loop at the concurrency set (the serving
// query's `load`) — TTFT, TPOT, throughput per chip and per user, requests/s, the sequences in flight and those queued
// for a KV slot — and what priced it. Every number is the engine's; this file only words and formats them.
import { html, nothing, type TemplateResult } from 'lit';
import type { ServingResult } from '../engine/types';
import { fmtCount, fmtRate, fmtSeconds } from '../charts/format';
import { loadRuntimeWords } from './words';

export type LoadResult = NonNullable<ServingResult['load']>;

export interface LoadFigure {
  /** The page's data-metric id (the browser test reads the value beside it). */
  id: string;
  label: string;
  value: number | undefined;
  text: string;
}

/** The block's numbers, in the order the benchmarks report them; a time the engine leaves null (nothing fits) reads "—". */
export function loadFigures(load: LoadResult, chip: string): LoadFigure[] {
  const figure = (
    id: string,
    label: string,
    value: number | null,
    text: (v: number | undefined) => string,
  ): LoadFigure => ({ id, label, value: value ?? undefined, text: text(value ?? undefined) });
  const queued = load.queued > 0 ? `, each waiting ${fmtSeconds(load.slot_wait_s)} on average` : '';
  return [
    figure('load_ttft_s', 'Time to first token', load.time_to_first_token_s, fmtSeconds),
    figure('load_tpot_s', 'Time per output token', load.time_per_output_token_s, fmtSeconds),
    figure('load_tokens_per_s_per_chip', `Output tokens/s per ${chip}`, load.output_tokens_per_s_per_chip, (v) =>
      fmtRate(v, 'tok/s'),
    ),
    figure('load_tokens_per_s_per_user', 'Tokens/s per user', load.tokens_per_s_per_user, (v) => fmtRate(v, 'tok/s')),
    figure('load_requests_per_s', 'Requests/s', load.requests_per_s, (v) => fmtRate(v, 'req/s')),
    figure('load_in_flight', 'Sequences in flight', load.in_flight, fmtCount),
    figure('load_queued', 'Queued for a KV slot', load.queued, (v) => `${fmtCount(v)}${queued}`),
  ];
}

/** The panel: what the load is, its numbers, and the sentence naming the runtime that priced it. */
export function loadBlock(
  load: LoadResult,
  chip: string,
  lengths: { prompt: number; generated: number },
): TemplateResult {
  return html`<section class="panel" aria-labelledby="h-load" data-load>
    <h3 id="h-load">Under this load</h3>
    <p>${fmtCount(load.concurrency)} client${load.concurrency === 1 ? '' : 's'}, each sending its next request when its last one ends (prompts of
      ${fmtCount(lengths.prompt)} tokens, ${fmtCount(lengths.generated)} generated), against continuous batching on this replica.
      ${load.fits ? nothing : html`<strong class="worse">Not one sequence’s KV cache fits beside the weights: nothing is served.</strong>`}</p>
    <dl class="spec">
      ${loadFigures(load, chip).map((f) => html`<div><dt>${f.label}</dt><dd data-metric=${f.id} data-value=${f.value === undefined ? '' : String(f.value)}>${f.text}</dd></div>`)}
    </dl>
    <p class="muted small" data-load-runtime>${loadRuntimeWords(load)}</p>
  </section>`;
}
