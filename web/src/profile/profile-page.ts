// <scalescope-profile>: the profile page (issue 37, the book's profiling chapter live). A reader drops a PyTorch
// profiler trace; it is read in a worker (engine/trace-client.ts) by the engine's trace analysis, in this tab (nothing
// is uploaded), and the page shows what the engine answers: time by class against the roofline, each device's idle
// and exposed communication, the priced ops on the chip's roofline, and the ops that lose the most time with the
// book's reason. All numbers come from the engine (docs/api.md "Traces").
import { LitElement, css, html, nothing, type TemplateResult } from 'lit';
import presets from 'virtual:scalescope-presets';
import type { Presets } from '../engine/types';
import { cssProps } from '../charts/css-props';
import { fmtCount, fmtSeconds } from '../charts/format';
import { chartRoot, placeChart } from '../charts/plot-css';
import { TraceClient, type TraceProgress } from '../engine/trace-client';
import type { TraceAnswer, TraceGroup, TraceOptions, TraceResult } from '../engine/trace-types';

const CHIPS = (presets as Presets).hardware.map((h) => ({ id: h.id, name: h.name }));
const SAMPLE = {
  file: 'samples/b200_vllm_gpt_oss_tp8_rank0.json.gz',
  label: 'vLLM serving gpt-oss on 8 B200s (rank 0)',
};
const percent = (x: number | null | undefined): string => (x == null ? '—' : `${fmtCount(100 * x)}%`);

export class ScalescopeProfile extends LitElement {
  static override properties = {
    status: { reflect: true, attribute: 'data-status' },
    answer: { state: true },
    progress: { state: true },
    error: { state: true },
    chart: { state: true },
  };

  status: 'idle' | 'reading' | 'ready' | 'error' = 'idle';
  answer: TraceAnswer | null = null;
  progress: TraceProgress | null = null;
  error = '';
  chart: HTMLElement | null = null;
  private hardware = '';
  private source: { file: Blob; name: string } | null = null;
  private readonly client = new TraceClient(new URL('engine/', document.baseURI).href);

  private async read(file: Blob, name: string): Promise<void> {
    this.source = { file, name };
    this.status = 'reading';
    this.answer = null;
    this.chart = null;
    this.error = '';
    this.progress = { bytesRead: 0, totalBytes: file.size };
    const options: TraceOptions = { top: 15, ...(this.hardware ? { hardware: this.hardware } : {}) };
    try {
      this.answer = await this.client.read(file, options, (p) => (this.progress = p));
      this.status = this.answer.ok ? 'ready' : 'error';
      if (this.answer.result) void this.drawChart(this.answer.result);
    } catch (e) {
      this.error = e instanceof Error ? e.message : String(e);
      this.status = 'error';
    }
  }

  private async drawChart(result: TraceResult): Promise<void> {
    const { traceRooflineChart } = await import('../charts/trace-roofline');
    const chart = traceRooflineChart(result, Math.min(860, Math.max(320, this.clientWidth - 60)));
    const root = chartRoot(this);
    this.chart = chart && root ? placeChart(chart, root) : null;
  }

  private async readSample(): Promise<void> {
    const response = await fetch(new URL(SAMPLE.file, document.baseURI));
    if (!response.ok) {
      this.error = `the sample trace did not load (HTTP ${response.status})`;
      this.status = 'error';
      return;
    }
    await this.read(await response.blob(), SAMPLE.label);
  }

  private onFile(e: Event): void {
    const file = (e.target as HTMLInputElement).files?.[0];
    if (file) void this.read(file, file.name);
  }

  private onDrop(e: DragEvent): void {
    e.preventDefault();
    const file = e.dataTransfer?.files[0];
    if (file) void this.read(file, file.name);
  }

  private onHardware(e: Event): void {
    this.hardware = (e.target as HTMLSelectElement).value;
    if (this.source && this.status !== 'reading') void this.read(this.source.file, this.source.name);
  }

  override render(): TemplateResult {
    return html`
      <header><h1>Your profile against the roofline <span class="sub">a trace, read in this tab</span></h1></header>
      <main>
        <p class="intro">Record a few steps with PyTorch's profiler, <code>torch.profiler.profile(activities=[CPU, CUDA],
          record_shapes=True)</code>, save it with <code>export_chrome_trace</code>, and drop the file here (<code>.json</code> or
          <code>.json.gz</code>, up to 1 GB). Every kernel is classed, the matmuls whose shapes were recorded are held against
          the chip's roofline (the book's chapter 1), and the collectives against its GPU chapter's costs. The file is read in this browser tab and
          is not uploaded. The same analysis runs as <code>scalescope trace FILE</code> and <code>scalescope.trace(path)</code>.</p>
        <div class="drop" @dragover=${(e: DragEvent) => e.preventDefault()} @drop=${this.onDrop}>
          <label>Trace file <input type="file" accept=".json,.gz,application/json,application/gzip" @change=${this.onFile} /></label>
          <label>Chip <select @change=${this.onHardware} aria-label="Chip to price the kernels on">
            <option value="">as the trace names it</option>
            ${CHIPS.map((h) => html`<option value=${h.id}>${h.name}</option>`)}
          </select></label>
          <button type="button" @click=${() => void this.readSample()}>Try a sample: ${SAMPLE.label}</button>
        </div>
        ${this.renderProgress()}
        ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : nothing}
        ${this.renderDiagnostics()}
        ${this.answer?.result ? this.renderResult(this.answer.result) : nothing}
      </main>`;
  }

  private renderProgress(): TemplateResult | typeof nothing {
    if (this.status !== 'reading' || !this.progress) return nothing;
    const { bytesRead, totalBytes } = this.progress;
    return html`<p class="progress">Reading ${this.source?.name ?? ''}: <progress max=${totalBytes} value=${bytesRead}></progress>
      ${fmtCount(bytesRead / 1e6)} of ${fmtCount(totalBytes / 1e6)} MB</p>`;
  }

  private renderDiagnostics(): TemplateResult | typeof nothing {
    const list = this.answer?.diagnostics ?? [];
    if (!list.length) return nothing;
    return html`<ul class="diagnostics" role=${this.answer?.ok ? 'status' : 'alert'}>
      ${list.map((d) => html`<li class=${d.severity === 'warning' ? 'warning' : 'error'}>${d.message}</li>`)}</ul>`;
  }

  private renderResult(r: TraceResult): TemplateResult {
    const chip = r.hardware
      ? `${r.hardware.name} (${r.hardware.from === 'query' ? 'chosen' : 'from the trace'})`
      : 'no chip: no roofline';
    return html`
      <section class="summary" aria-label="Summary">
        <span><span class="k">chip</span> <b>${chip}</b></span>
        ${r.distributed ? html`<span><span class="k">rank</span> <b>${r.distributed.rank} of ${r.distributed.world_size}</b></span>` : nothing}
        <span><span class="k">kernels</span> <b>${fmtCount(r.kernels)}</b></span>
        <span><span class="k">kernel time</span> <b data-key="kernel_time_s">${fmtSeconds(r.kernel_time_s)}</b></span>
        <span><span class="k">classified</span> <b>${percent(r.classified_share)}</b></span>
        <span><span class="k">against the roofline</span> <b>${percent(r.priced_share)}</b></span>
      </section>
      <h3>Each device</h3>
      <div class="table-wrap"><table>
        <thead><tr><th>device</th><th>window</th><th>idle</th><th>compute</th><th>communication</th><th>exposed</th></tr></thead>
        <tbody>${r.devices.map(
          (
            d,
          ) => html`<tr><td>${d.device}</td><td>${fmtSeconds(d.window_s)}</td><td>${fmtSeconds(d.idle_s)} (${percent(d.idle_s / d.window_s)})</td>
          <td>${fmtSeconds(d.compute_s)}</td><td>${fmtSeconds(d.communication_s)}</td><td>${fmtSeconds(d.exposed_communication_s)}</td></tr>`,
        )}</tbody>
      </table></div>
      <h3>Time by class</h3>
      <div class="table-wrap"><table class="classes">
        <thead><tr><th>class</th><th>time</th><th class="bar-col">share</th><th>kernels</th><th>of its roofline</th></tr></thead>
        <tbody>${r.classes.map(
          (c) => html`<tr data-class=${c.class}><td>${c.class}</td><td>${fmtSeconds(c.time_s)}</td>
          <td class="bar-col"><span class="bar" style=${cssProps({ width: `${(100 * c.share).toFixed(1)}%` })}></span> ${percent(c.share)}</td>
          <td>${fmtCount(c.kernels)}</td><td>${c.achieved_fraction == null ? '—' : `${percent(c.achieved_fraction)} on ${fmtSeconds(c.priced_time_s)}`}</td></tr>`,
        )}</tbody>
      </table></div>
      ${this.chart ? html`<h3>The priced ops on the roofline</h3><div class="chart">${this.chart}</div>` : nothing}
      <h3>Where the time goes</h3>
      <div class="table-wrap"><table class="gaps">
        <thead><tr><th>lost</th><th>what</th><th>why</th></tr></thead>
        <tbody>${r.gaps.map((g) => html`<tr><td>${fmtSeconds(g.lost_s)}</td><td>${this.what(g)}</td><td>${g.reason?.message ?? ''}</td></tr>`)}</tbody>
      </table></div>
      <h3>The ops that take the most time</h3>
      <div class="table-wrap"><table class="ops">
        <thead><tr><th>time</th><th>what</th><th>calls</th><th>roofline</th><th>achieved</th></tr></thead>
        <tbody>${r.ops.map(
          (g) => html`<tr><td>${fmtSeconds(g.time_s)}</td><td>${this.what(g)}</td><td>${fmtCount(g.calls)}</td>
          <td>${g.roofline_s == null ? '—' : fmtSeconds(g.roofline_s)}</td><td>${percent(g.achieved_fraction)}</td></tr>`,
        )}</tbody>
      </table></div>`;
  }

  private what(g: TraceGroup): TemplateResult {
    if (g.class === 'idle') return html`<b>idle</b>, device ${g.device}`;
    return html`<b>${g.class}</b> ${g.op ?? ''} ${g.shape ? html`<code>${g.shape}</code>` : nothing}
      <div class="kernel" title=${g.kernel ?? ''}>${g.kernel ?? ''}</div>`;
  }

  static override styles = css`
    :host { display: block; font: 14px/1.45 system-ui, -apple-system, 'Segoe UI', sans-serif; color: #1b1b1b; background: #fbfbf9; min-height: 100vh; }
    header { padding: 10px 18px; border-bottom: 1px solid #ddd; background: #fff; }
    h1 { font-size: 20px; margin: 0; }
    h1 .sub { font-weight: 400; color: #595959; font-size: 14px; margin-left: 6px; }
    h3 { font-size: 15px; margin: 18px 0 6px; }
    main { max-width: 1000px; padding: 12px 18px 40px; box-sizing: border-box; }
    @media (max-width: 600px) { main { padding: 8px 10px 32px; } .drop { padding: 10px; } }
    .intro { max-width: 80ch; }
    .drop { display: flex; flex-wrap: wrap; gap: 10px 18px; align-items: center; padding: 14px; border: 2px dashed #9ab; border-radius: 8px; background: #fff; }
    button, select, input { font: inherit; }
    button { padding: 4px 10px; border: 1px solid #999; border-radius: 4px; background: #f4f4f4; cursor: pointer; }
    button:focus-visible, input:focus-visible, select:focus-visible { outline: 2px solid #1f6fb2; outline-offset: 2px; }
    progress { width: 240px; vertical-align: middle; }
    .error, .diagnostics .error { color: #8a1c12; }
    .diagnostics .warning { color: #6b5200; }
    .summary { display: flex; flex-wrap: wrap; gap: 4px 16px; margin-top: 14px; padding: 8px 10px; background: #fff; border: 1px solid #ddd; border-radius: 6px; font-variant-numeric: tabular-nums; }
    .summary .k { color: #555; font-size: 12px; }
    .table-wrap, .chart { overflow-x: auto; max-width: 100%; }
    table { border-collapse: collapse; background: #fff; font-variant-numeric: tabular-nums; width: 100%; }
    th, td { text-align: left; padding: 3px 8px; border-bottom: 1px solid #eee; vertical-align: top; }
    th { font-weight: 600; font-size: 12.5px; color: #444; }
    .bar-col { min-width: 160px; }
    .bar { display: inline-block; height: 10px; background: #4a7fb0; vertical-align: middle; max-width: 110px; }
    .kernel { color: #666; font-size: 12px; max-width: 52ch; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
    code { font-size: 12.5px; }
  `;
}

customElements.define('scalescope-profile', ScalescopeProfile);
