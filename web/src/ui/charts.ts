// <ss-charts>: the Observable Plot charts — the serving frontier (scaling-book/applied-inference), under a benchmark's
// load the throughput per GPU against tokens/s per user, the roofline with the step's main ops (the engine's), step time (or
// latency) against chip count, and (training) time to train with failures against chips — each with its numbers as a
// table and SVG / PNG downloads. They are drawn after the numbers paint, in the frame's idle time (at most 30 ms
// later), so that while a slider moves they follow the numbers without delaying the next move; plans that do not fit
// are hollow points.
import { LitElement, html, nothing, type PropertyValues, type TemplateResult } from 'lit';
import type { ServingResult, TrainingStepResult } from '../engine/types';
import { fmtCount, fmtSecondsTick } from '../charts/format';
import { chartRoot, placeChart } from '../charts/plot-css';
import { downloadPng, downloadSvg, type ChartLabels } from '../charts/export';
import { legendOf } from '../charts/legend';
import { hardwarePreset, type State } from '../state/params';
import { goodputNote } from '../charts/goodput';
import { isServing, servingOf, trainingOf, type ChartsAnswer, type Results } from './results';
import { chipWord } from './words';

export type PlotsModule = typeof import('../charts/plots');

/** The most a chart's redraw waits for idle time after new numbers (the browser test holds charts ≤ 50 ms behind). */
const DRAW_WITHIN_MS = 30;
const whenIdle = (f: () => void, timeout: number): number =>
  typeof requestIdleCallback === 'function'
    ? requestIdleCallback(f, { timeout })
    : (setTimeout(f, 0) as unknown as number);
const cancelIdle = (id: number): void =>
  typeof cancelIdleCallback === 'function' ? cancelIdleCallback(id) : clearTimeout(id);
/** A reader's input is waiting for the main thread (Chromium's isInputPending; elsewhere, never known). */
const inputPending = (): boolean =>
  (navigator as { scheduling?: { isInputPending?: () => boolean } }).scheduling?.isInputPending?.() ?? false;
type ScalingDatum = import('../charts/plots').ScalingDatum;

const CHARTS = ['sweep', 'load', 'roofline', 'scaling', 'goodput'] as const;
type ChartId = (typeof CHARTS)[number];

/** The word a chip is called on the state's hardware: GPU or chip. */
const chipOf = (s: State): string => chipWord(hardwarePreset(String(s.values['hw'])).kind);

/** Each chart's title: its heading on the page and the first line of its exported file. */
function chartTitle(id: ChartId, s: State): string {
  const serving = isServing(s);
  if (id === 'load') return `Throughput per ${chipOf(s)} against tokens/s per user`;
  if (id === 'sweep') return 'Latency against throughput over the batch (the book’s serving frontier)';
  if (id === 'roofline') return 'Roofline: the workload’s main ops on one chip';
  if (id === 'goodput') return 'Time to train against chips, with failures';
  return `${serving ? 'Latency per token' : 'Step time'} against chip count`;
}

export class SsCharts extends LitElement {
  static override properties = {
    results: { attribute: false },
    plots: { attribute: false },
    live: { attribute: false },
  };

  results!: Results;
  plots: PlotsModule | null = null;
  /** The state on screen now (the charts' batch may be for an older one). */
  live: State | null = null;
  /** Called with the state whose charts were drawn fresh. */
  onDrawn: (s: State) => void = () => undefined;
  private pending: number | null = null;
  /** The answers the charts show: the numbers' (roofline, frontier) and the charts' batch (scaling). */
  private drawnNumbers: Results | null = null;
  private drawnCharts: ChartsAnswer | null = null;
  private lastDrawn: 'numbers' | 'scaling' = 'scaling';

  protected override createRenderRoot(): this {
    return this;
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    if (this.pending !== null) cancelIdle(this.pending);
    this.pending = null;
  }

  protected override updated(_changed: PropertyValues<this>): void {
    this.schedule();
  }

  /**
   * Plot redraws in idle time after the numbers' frame, one chart per task (4-5 ms each here), once for however many
   * answers came in meanwhile, and after any input already waiting: while a slider moves the charts follow the numbers
   * (at most DRAW_WITHIN_MS later) without holding up its next move for long.
   */
  private schedule(): void {
    if (this.pending !== null) return;
    this.pending = whenIdle(() => {
      this.pending = null;
      if (inputPending()) this.schedule();
      else if (this.drawNext()) this.schedule();
    }, DRAW_WITHIN_MS);
  }

  private chartEl(id: ChartId): HTMLElement | null {
    return this.querySelector<HTMLElement>(`#${id}-chart`);
  }

  /** Draws the next chart that is out of date: the numbers' (roofline, frontier), then the scaling. True if one was. */
  private drawNext(): boolean {
    const r = this.results;
    const P = this.plots;
    const root = chartRoot(this);
    if (!r || !P || !root) return false;
    const roof = this.chartEl('roofline');
    const scal = this.chartEl('scaling');
    if (!roof || !scal) return false;
    const width = Math.max(300, Math.min(760, roof.clientWidth || 640));
    const charts = r.charts;
    scal.classList.toggle('stale', charts?.state !== this.live);
    const numbersDue = r !== this.drawnNumbers;
    const scalingDue = charts !== null && charts !== this.drawnCharts;
    // Both due (a slider moving): each in turn, so that neither starves while new numbers come every frame.
    if (scalingDue && (!numbersDue || this.lastDrawn === 'numbers')) {
      this.drawnCharts = charts;
      this.lastDrawn = 'scaling';
      this.drawScaling(charts, r, P, root, scal, width);
      return true;
    }
    if (!numbersDue) return false;
    this.drawnNumbers = r;
    this.lastDrawn = 'numbers';
    this.drawNumbers(r, P, root, roof, width);
    return true;
  }

  /** The roofline of the step's main ops (the engine's main_ops, as the step prices them), and the serving frontier. */
  private drawNumbers(r: Results, P: PlotsModule, root: ShadowRoot | Document, roof: HTMLElement, width: number): void {
    const main = trainingOf(r) ?? servingOf(r);
    const ops = (main?.main_ops ?? []).map((o) => ({
      name: o.phase ? `${o.phase}: ${o.name}` : o.name,
      intensity: o.intensity_flops_per_byte,
      attainable: o.attainable_flops_per_s,
      bound: o.bound,
    }));
    roof.replaceChildren(
      r.curve.points.length
        ? placeChart(P.rooflineChart(r.curve.points, ops, r.curve.ridge, width), root)
        : document.createTextNode('The engine gave no roofline for this chip.'),
    );
    this.drawSweep(r, P, root, width);
    this.drawLoad(r, P, root, width);
    this.drawGoodput(r, P, root, width);
  }

  /** The interactivity frontier from the main answer's load (a concurrency set: the panel is there). */
  private drawLoad(r: Results, P: PlotsModule, root: ShadowRoot | Document, width: number): void {
    const el = this.chartEl('load');
    const load = servingOf(r)?.load;
    if (!el) return;
    el.replaceChildren(
      (load?.frontier ?? []).length >= 2
        ? placeChart(P.loadFrontierChart(load!, chipOf(r.state), width), root)
        : Object.assign(document.createElement('p'), {
            className: 'muted',
            textContent: 'No frontier: fewer than two concurrencies fit in HBM.',
          }),
    );
  }

  /** Time to train against chips from the main answer's goodput block (the engine's own scaling, not the charts' batch). */
  private drawGoodput(r: Results, P: PlotsModule, root: ShadowRoot | Document, width: number): void {
    const el = this.chartEl('goodput');
    const g = trainingOf(r)?.goodput;
    if (!el) return;
    el.replaceChildren(
      g && r.mesh.ok
        ? placeChart(P.goodputChart(g, r.mesh.plan.chips, width), root)
        : Object.assign(document.createElement('p'), {
            className: 'muted',
            textContent: 'No curve: the engine gave no goodput for this plan.',
          }),
    );
  }

  /** The serving frontier at the fidelity the charts show (the book's replica, from the charts' batch, when the toggle says so). */
  private drawSweep(r: Results, P: PlotsModule, root: ShadowRoot | Document, width: number): void {
    const sweepEl = this.chartEl('sweep');
    const charts = r.charts;
    const served =
      (r.state.values['fid'] === 'book' && charts?.state === r.state ? charts.bookServing : undefined) ?? servingOf(r);
    if (sweepEl && served) {
      const pts = (served.sweep ?? []).filter((p) => p.latency_per_token_s > 0 && p.tokens_per_s_per_chip > 0);
      const current = {
        batch: Number(r.state.values['sbatch']),
        latency: served.latency_per_token_s,
        throughput: served.tokens_per_s_per_chip,
        fits: served.memory.fits,
      };
      sweepEl.replaceChildren(
        pts.filter((p) => p.fits).length >= 2
          ? placeChart(P.sweepChart(pts, current, width), root)
          : Object.assign(document.createElement('p'), {
              className: 'muted',
              textContent: 'No frontier: fewer than two batch sizes fit in HBM at this context.',
            }),
      );
    }
  }

  /** Step time (or latency) against chip count, from the last charts' batch (maybe a step behind the numbers). */
  private drawScaling(
    charts: ChartsAnswer,
    r: Results,
    P: PlotsModule,
    root: ShadowRoot | Document,
    scal: HTMLElement,
    width: number,
  ): void {
    const serving = isServing(charts.state);
    const pts = charts.scaling
      .filter((s) => s.ev.ok && s.ev.result)
      .map((s) => {
        const res = s.ev.result as TrainingStepResult & ServingResult;
        const warning = s.ev.diagnostics.find((d) => d.severity === 'warning')?.message;
        return {
          chips: s.point.chips,
          value: serving ? res.latency_per_token_s : res.time?.step_s,
          current: s.point.factor === 1,
          fits: res.memory?.fits === true,
          warning,
        };
      })
      .filter((p) => typeof p.value === 'number' && Number.isFinite(p.value) && p.value > 0) as ScalingDatum[];
    // The book's replica comes with the charts' batch: its frontier is redrawn with them.
    if (charts.bookServing && charts.state === r.state) this.drawSweep(r, P, root, width);
    if (pts.length >= 2) {
      scal.replaceChildren(
        placeChart(P.scalingChart(pts, serving ? '↑ Latency per token' : '↑ Step time', fmtSecondsTick, width), root),
      );
    } else {
      const why = charts.scaling.find((s) => !s.ev.ok)?.ev.diagnostics[0]?.message ?? r.main?.diagnostics[0]?.message;
      scal.replaceChildren(
        Object.assign(document.createElement('p'), {
          className: 'muted',
          textContent: why ? `No curve: ${why}` : 'No curve: fewer than two chip counts give a valid plan.',
        }),
      );
    }
    this.onDrawn(charts.state);
  }

  private svgOf(id: ChartId): SVGSVGElement | null {
    // A Plot figure may hold a legend SVG too: the chart is the one with the plot's own class (not "-ramp").
    return (
      [...(this.chartEl(id)?.querySelectorAll<SVGSVGElement>('svg[class^="plot-"]') ?? [])].find(
        (s) => !/-ramp|-swatch/.test(s.getAttribute('class') ?? ''),
      ) ?? null
    );
  }

  /** What the chart's file says besides the plot: the page's title and the legend the chart was drawn with. */
  private labels(id: ChartId): ChartLabels {
    return {
      title: chartTitle(id, this.results.state),
      legend: legendOf(this.chartEl(id)?.querySelector('.chart-figure')),
    };
  }

  private downloads(id: ChartId, name: string): TemplateResult {
    return html`<div class="downloads" aria-label="Download this chart">
      <button type="button" data-download=${`${id}-svg`} @click=${() => {
        const s = this.svgOf(id);
        if (s) downloadSvg(s, `scalescope-${name}`, this.labels(id));
      }}>SVG</button>
      <button type="button" data-download=${`${id}-png`} @click=${() => {
        const s = this.svgOf(id);
        if (s) void downloadPng(s, `scalescope-${name}`, this.labels(id));
      }}>PNG</button>
    </div>`;
  }

  override render(): TemplateResult {
    const r = this.results;
    if (!r) return html``;
    const serving = isServing(r.state);
    const s = servingOf(r);
    return html`
      ${
        serving
          ? html`<section class="panel" aria-labelledby="h-sweep">
        <div class="panel-head"><h3 id="h-sweep">${chartTitle('sweep', r.state)}</h3>${this.downloads('sweep', 'frontier')}</div>
        <div id="sweep-chart" class="chart"></div>
        <p class="muted">Each point is a decode batch size at this KV context (${fmtCount(s?.kv_context_len)} tokens), from one sequence up to the largest batch whose KV caches fit (hollow: they do not); larger batches buy throughput per chip with latency per token.</p>
      </section>`
          : nothing
      }
      ${serving && r.state.values['conc'] !== null ? this.loadPanel(r) : nothing}
      <section class="panel" aria-labelledby="h-roof">
        <div class="panel-head"><h3 id="h-roof">${chartTitle('roofline', r.state)}</h3>${this.downloads('roofline', 'roofline')}</div>
        <div id="roofline-chart" class="chart"></div>
        <p class="muted">Each point is one of the step’s main ops (a matmul or attention) in one layer as one chip runs it, as the engine prices it (${serving ? 'the decode batch and the prefill' : 'one microbatch'}, after the plan’s parallelism). Left of the ridge: memory-bound. The roof is the chip’s peak FLOP/s and HBM bandwidth (the book’s), whichever model the charts show; points that would hide one another are stacked a step above it (their numbers are exact in the table).</p>
      </section>
      <section class="panel" aria-labelledby="h-scale">
        <div class="panel-head"><h3 id="h-scale">${chartTitle('scaling', r.state)}</h3>${this.downloads('scaling', 'scaling')}</div>
        <div id="scaling-chart" class="chart"></div>
        <p class="muted">The ${serving ? 'TP' : 'FSDP (or DP)'} degree is scaled; the global batch stays the same. Hollow points do not fit in HBM.</p>
      </section>
      ${serving ? nothing : this.goodputPanel(r)}`;
  }

  private loadPanel(r: Results): TemplateResult {
    const top = servingOf(r)?.load?.frontier?.at(-1)?.concurrency;
    return html`<section class="panel" aria-labelledby="h-load-chart" data-load-chart>
      <div class="panel-head"><h3 id="h-load-chart">${chartTitle('load', r.state)}</h3>${this.downloads('load', 'interactivity')}</div>
      <div id="load-chart" class="chart"></div>
      <p class="muted">Each point is a benchmark concurrency (labelled)${top ? `, 1 to ${fmtCount(top)} clients` : ''}, in the steady state of “Under this load”: more clients buy throughput per ${chipOf(r.state)} with each user’s tokens/s. The ring is the concurrency set; hollow points have more clients than KV slots, and the rest queue.</p>
    </section>`;
  }

  private goodputPanel(r: Results): TemplateResult {
    const g = trainingOf(r)?.goodput;
    return html`<section class="panel" aria-labelledby="h-goodput">
      <div class="panel-head"><h3 id="h-goodput">${chartTitle('goodput', r.state)}</h3>${this.downloads('goodput', 'goodput')}</div>
      <div id="goodput-chart" class="chart"></div>
      <p class="muted">The same run at 1/16 to 64 times its chips, with a perfect step while failures grow with the chips (the engine’s goodput scaling).${g ? html` <strong data-goodput-note>${goodputNote(g)}</strong>` : nothing}</p>
    </section>`;
  }
}

customElements.define('ss-charts', SsCharts);
