// <scalescope-widget view="roofline" state="v=1&hw=tpu-v5e">: one live figure. It decodes `state` with the
// explorer's URL codec (plus the widget rows), draws its controls, and starts work only when it comes near the
// viewport: then it asks the page's shared engine worker, shows the numbers, and draws its chart (Observable Plot,
// loaded lazily). Loading and errors are shown in place. Every widget offers "open in the explorer" and an embed
// snippet (one script tag plus the element) that reproduces its current state.
import { LitElement, html, nothing, type PropertyValues, type TemplateResult } from 'lit';
import type { State, Value } from '../state/params';
import { placeChart } from '../charts/plot-css';
import { renderControl } from './controls';
import { pageEngine, siteUrl } from './engine';
import { decodeWidgetState, encodeWidgetState } from './params';
import { explorerQueryOf, fittingExplorerState } from './explorer-link';
import { encodeState } from '../state/url';
import { widgetStyles } from './styles';
import { VIEWS } from './views';
import { WidgetProblem, type ChartsModule, type View, type ViewContext } from './view';

type Status = 'idle' | 'loading' | 'ready' | 'error';

let chartsModule: Promise<ChartsModule> | null = null;
const loadCharts = (): Promise<ChartsModule> => (chartsModule ??= import('./charts'));

function attrEscape(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

export class ScalescopeWidget extends LitElement {
  static override styles = widgetStyles;
  static override properties = {
    view: { type: String, reflect: true },
    stateText: { type: String, attribute: 'state' },
    current: { state: true },
    status: { state: true },
    data: { state: true },
    problems: { state: true },
    notices: { state: true },
    copied: { state: true },
    link: { state: true },
  };

  view = '';
  stateText = '';
  current: State | null = null;
  status: Status = 'idle';
  data: unknown = null;
  /** State the shown data was computed for. */
  private dataState: State | null = null;
  problems: string[] = [];
  notices: string[] = [];
  copied = '';
  /** The explorer's query for `for` once the engine has checked it runs and fits (explorer-link.ts). */
  link: { for: State; query: string } | null = null;
  /** The owner of the link's engine requests: a newer one replaces only its own, never the widget's numbers. */
  private readonly linkOwner = {};

  private observer: IntersectionObserver | null = null;
  private started = false;
  private local: Record<string, unknown> = {};
  private renders = 0;

  override connectedCallback(): void {
    super.connectedCallback();
    if (typeof IntersectionObserver === 'undefined') {
      this.start();
      return;
    }
    // Work starts when the widget is within about a screen of the viewport.
    this.observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) this.start();
      },
      { rootMargin: '400px 0px' },
    );
    this.observer.observe(this);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.observer?.disconnect();
    this.observer = null;
  }

  private get def(): View<unknown> | undefined {
    return VIEWS[this.view];
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('stateText') || changed.has('view') || this.current === null) {
      const d = decodeWidgetState(this.stateText ?? '');
      const def = this.def;
      this.current = def?.normalise ? def.normalise(d.state) : d.state;
      this.notices = d.notices;
      if (this.started && (changed.has('stateText') || changed.has('view'))) this.request();
    }
  }

  private start(): void {
    if (this.started) return;
    this.started = true;
    this.observer?.disconnect();
    this.observer = null;
    this.request();
  }

  private setValues(changes: Record<string, Value>): void {
    if (!this.current) return;
    const s: State = { values: { ...this.current.values, ...changes }, hw: { ...this.current.hw } };
    if ('hw' in changes && changes['hw'] !== this.current.values['hw']) s.hw = {};
    const def = this.def;
    this.current = def?.normalise ? def.normalise(s) : s;
    this.local = {};
    this.request();
  }

  private request(): void {
    const def = this.def;
    const state = this.current;
    if (!def || !state || !this.started) return;
    this.status = this.data === null ? 'loading' : this.status;
    let engine;
    try {
      engine = pageEngine();
    } catch (e) {
      this.fail([`The engine could not start: ${e instanceof Error ? e.message : String(e)}`]);
      return;
    }
    const ask = (scenarios: unknown[]) => engine.evaluate(this, scenarios);
    engine.ready
      .then(() => def.compute(state, ask))
      .then(
        (data) => {
          if (data === null || state !== this.current) return; // replaced by a newer request
          this.data = data;
          this.dataState = state;
          this.problems = [];
          this.status = 'ready';
        },
        (e: unknown) => {
          if (state !== this.current) return;
          if (e instanceof WidgetProblem) {
            this.data = null;
            this.dataState = state;
            this.problems = e.lines;
            this.status = 'ready';
          } else {
            this.fail([`The engine could not answer: ${e instanceof Error ? e.message : String(e)}`]);
          }
        },
      )
      // The link's check waits for the numbers, so that it never delays what the reader sees.
      .then(() => {
        if (state === this.current) this.checkLink(def, state, engine);
      });
  }

  /** Asks the engine for the explorer state the link should carry (explorer-link.ts fittingExplorerState). */
  private checkLink(def: View<unknown>, state: State, engine: ReturnType<typeof pageEngine>): void {
    fittingExplorerState(def, state, (scenarios) => engine.evaluate(this.linkOwner, scenarios)).then(
      (fits) => {
        if (fits && state === this.current) this.link = { for: state, query: encodeState(fits) };
      },
      () => undefined, // the link stays the plain mapping; the numbers report the engine's failure
    );
  }

  private fail(lines: string[]): void {
    this.status = 'error';
    this.problems = lines;
    this.data = null;
  }

  private explorerHref(): string {
    const query = this.link?.for === this.current ? this.link.query : explorerQueryOf(this.def, this.current!);
    return `${siteUrl('index.html')}?${query}`;
  }

  embedCode(): string {
    return `<script type="module" src="${attrEscape(siteUrl('widgets.js'))}"></script>\n<scalescope-widget view="${attrEscape(this.view)}" state="${attrEscape(encodeWidgetState(this.current!))}"></scalescope-widget>`;
  }

  private async copyEmbed(): Promise<void> {
    const code = this.embedCode();
    try {
      await navigator.clipboard.writeText(code);
      this.copied = 'Embed code copied.';
    } catch {
      const d = this.renderRoot.querySelector('details.embed') as HTMLDetailsElement | null;
      if (d) d.open = true;
      this.copied = 'Select and copy the code below.';
    }
    setTimeout(() => (this.copied = ''), 3000);
  }

  protected override updated(): void {
    this.renders++;
    const q = this.current ? encodeWidgetState(this.current) : '';
    // Hooks for tests and for pages that want to know: what is on screen, and for which state.
    this.setAttribute('data-status', this.status);
    this.setAttribute('data-state-query', q);
    this.setAttribute('data-result-query', this.dataState ? encodeWidgetState(this.dataState) : '');
    this.setAttribute('data-renders', String(this.renders));
    this.drawChart();
  }

  private drawChart(): void {
    const def = this.def;
    const el = this.renderRoot.querySelector<HTMLElement>('.chart');
    if (!def?.chart || !el || this.data === null || !this.dataState) return;
    const data = this.data;
    const state = this.dataState;
    el.setAttribute('aria-busy', 'true');
    loadCharts().then(
      (charts) => {
        if (this.data !== data) return;
        const width = Math.max(280, Math.min(760, el.clientWidth || 600));
        const node = def.chart!(state, data, charts, width);
        el.replaceChildren(...(node ? [placeChart(node, this.renderRoot as ShadowRoot)] : []));
        el.removeAttribute('aria-busy');
        el.setAttribute('data-drawn', encodeWidgetState(state));
      },
      (e: unknown) => {
        el.textContent = `The chart could not load: ${e instanceof Error ? e.message : String(e)}`;
      },
    );
  }

  private renderBody(def: View<unknown>): TemplateResult {
    if (this.status === 'idle')
      return html`<div class="loading">The engine starts when this figure scrolls into view.</div>`;
    if (this.status === 'error') {
      return html`<div class="problems" role="alert" data-error><strong>This figure could not be computed.</strong><ul>${this.problems.map((p) => html`<li>${p}</li>`)}</ul></div>`;
    }
    if (this.data === null && this.problems.length === 0) {
      return html`<div class="loading" role="status"><span class="spinner" aria-hidden="true"></span>Loading the engine…</div>`;
    }
    const stale = this.dataState !== this.current;
    const ctx: ViewContext = {
      set: (c) => this.setValues(c),
      ask: (sc) => pageEngine().evaluate(this.local, sc),
      local: this.local,
      refresh: () => this.requestUpdate(),
    };
    return html`<div class="body ${stale ? 'stale' : ''}">
      ${
        this.problems.length
          ? html`<div class="problems" role="alert" data-problem><ul>${this.problems.map((p) => html`<li>${p}</li>`)}</ul></div>`
          : def.render(this.dataState!, this.data, ctx)
      }
    </div>`;
  }

  override render(): TemplateResult {
    const def = this.def;
    if (!def) {
      return html`<div class="w"><div class="problems" role="alert" data-error>Unknown widget view “${this.view}”. Valid views: ${Object.keys(VIEWS).join(', ')}.</div></div>`;
    }
    const s = this.current!;
    const on = (key: string, value: Value): void => this.setValues({ [key]: value });
    return html`<figure class="w" aria-label=${def.title}>
      <div class="head"><span class="title">${def.title}</span>
        <span class="status" role="status" aria-live="polite">${this.status === 'loading' ? 'computing…' : ''}</span></div>
      <p class="blurb">${def.blurb}</p>
      ${this.notices.length ? html`<div class="problems warn" role="status" data-notice><ul>${this.notices.map((n) => html`<li>${n}</li>`)}</ul></div>` : nothing}
      <form class="controls" aria-label="${def.title}: settings" @submit=${(e: Event) => e.preventDefault()}>
        ${def.controls(s, this.data).map((c) => renderControl(c, s.values[c.key] ?? null, on, def.fallback?.(s, c.key)))}
      </form>
      ${this.renderBody(def)}
      <div class="foot">
        <a href=${this.explorerHref()} target="_blank" rel="noopener" data-explorer-link ?data-link-checked=${this.link?.for === this.current} ?data-link-model-fitted=${this.def?.modelFree === true}>Open in the explorer</a>
        <button type="button" @click=${() => this.copyEmbed()} data-copy-embed>Copy embed code</button>
        <span class="copied" role="status" aria-live="polite">${this.copied}</span>
        <span class="src">Numbers: Scalescope engine</span>
        <details class="embed"><summary>Embed code</summary>
          <textarea class="embed" readonly aria-label="Embed code" .value=${this.embedCode()} @focus=${(e: Event) => (e.target as HTMLTextAreaElement).select()}></textarea>
        </details>
      </div>
    </figure>`;
  }
}

/** Defines the element once (a page may load widgets.js twice). */
export function defineWidget(): void {
  if (!customElements.get('scalescope-widget')) customElements.define('scalescope-widget', ScalescopeWidget);
}

declare global {
  interface HTMLElementTagNameMap {
    'scalescope-widget': ScalescopeWidget;
  }
}
