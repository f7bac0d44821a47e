// A widget's look, inside its shadow root (so a host page's CSS neither breaks it nor is broken by it).
import { css, unsafeCSS } from 'lit';
import { barStyles } from '../charts/bar-styles';
import { scrollCueCss } from '../charts/scroll-cue';

export const widgetStyles = [
  barStyles,
  unsafeCSS(scrollCueCss('.chart, .scroll, .table-wrap', '#fff')),
  css`
  :host { display: block; font: 14px/1.45 system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif; color: #1b1b1b; text-align: left; }
  :host([hidden]) { display: none; }
  .w { container-type: inline-size; margin: 0; background: #fff; border: 1px solid #d6d6d0; border-radius: 8px; padding: 12px 14px 10px; box-shadow: 0 1px 2px #0000000d; }
  .head { display: flex; flex-wrap: wrap; align-items: baseline; justify-content: space-between; gap: 2px 12px; margin-bottom: 6px; }
  .title { font-weight: 700; font-size: 15px; }
  .blurb { color: #555; font-size: 12.5px; margin: 0 0 8px; }
  .status { font-size: 11.5px; color: #666; }
  form.controls { display: grid; grid-template-columns: repeat(auto-fill, minmax(215px, 1fr)); gap: 6px 16px; margin: 0 0 10px; padding: 8px 10px; background: #f7f7f4; border-radius: 6px; }
  .ctl label { display: block; font-size: 12.5px; color: #333; }
  .ctl .unit { color: #595959; }
  .pair { display: flex; gap: 6px; align-items: center; }
  .pair input[type='range'] { flex: 1; min-width: 0; accent-color: #1f6fb2; }
  input.num { width: 8.2em; font: inherit; font-size: 13px; padding: 1px 4px; font-variant-numeric: tabular-nums; }
  select { font: inherit; font-size: 13px; width: 100%; padding: 2px; }
  .ctl.check { display: flex; gap: 6px; align-items: center; align-self: end; }
  .ctl.check label { display: inline; }
  input:invalid { border-color: #c0392b; background: #fdecea; }
  input:focus-visible, select:focus-visible, button:focus-visible, a:focus-visible, summary:focus-visible, textarea:focus-visible { outline: 2px solid #1f6fb2; outline-offset: 2px; }
  button { font: inherit; font-size: 12.5px; padding: 3px 10px; border: 1px solid #999; border-radius: 4px; background: #f4f4f4; cursor: pointer; color: inherit; }
  button:hover { background: #e8e8e8; }
  .cards { display: grid; grid-template-columns: repeat(auto-fill, minmax(128px, 1fr)); gap: 6px; margin: 0 0 8px; }
  .card { border: 1px solid #e2e2dc; border-radius: 6px; padding: 4px 8px; display: flex; flex-direction: column; min-width: 0; }
  .card .k { font-size: 11.5px; color: #555; }
  .card output { font-size: 17px; font-weight: 600; font-variant-numeric: tabular-nums; overflow-wrap: break-word; }
  .card.bad output { color: #a3271b; }
  .card.words output { font-size: 14px; line-height: 1.3; overflow-wrap: normal; }
  .body { min-height: 120px; transition: opacity 0.15s; }
  .body.stale { opacity: 0.6; }
  .loading { padding: 24px 4px; color: #444; }
  .spinner { display: inline-block; width: 13px; height: 13px; border: 2px solid #999; border-top-color: transparent; border-radius: 50%; animation: spin 0.8s linear infinite; vertical-align: -2px; margin-right: 6px; }
  @keyframes spin { to { transform: rotate(360deg); } }
  @media (prefers-reduced-motion: reduce) { .spinner { animation: none; } }
  .problems { border: 1px solid #e0b4ae; background: #fff4f2; border-radius: 6px; padding: 6px 10px; margin: 0 0 8px; font-size: 13px; }
  .problems ul { margin: 2px 0; padding-left: 18px; }
  .problems.warn { border-color: #e6c98f; background: #fffaeb; }
  .note { color: #555; font-size: 12.5px; margin: 4px 0 8px; }
  .note b { color: #222; }
  .chart { min-height: 40px; overflow-x: auto; }
  .chart svg { max-width: 100%; height: auto; }
  table.t { border-collapse: collapse; width: 100%; font-size: 12.5px; font-variant-numeric: tabular-nums; margin: 4px 0 8px; }
  table.t th, table.t td { text-align: left; padding: 3px 6px; border-bottom: 1px solid #eee; vertical-align: top; }
  table.t td.r, table.t th.r { text-align: right; }
  .scroll, .table-wrap { overflow-x: auto; }
  ul.thr { list-style: none; padding: 0; margin: 2px 0 8px; font-size: 12.5px; }
  ul.thr li { margin: 2px 0; }
  ul.thr .ok { color: #135c2b; font-weight: 700; }
  ul.thr .bad { color: #a3271b; font-weight: 700; }
  .drawing svg { width: 100%; height: auto; display: block; }
  .drawing svg.capped { width: auto; max-width: 100%; }
  .drawing .tick { font-size: 11px; fill: #555; }
  .ctl .hint { color: #1f5f9a; font-variant-numeric: tabular-nums; }
  .foot { display: flex; flex-wrap: wrap; align-items: center; gap: 6px 14px; margin-top: 8px; padding-top: 8px; border-top: 1px solid #eee; font-size: 12.5px; }
  .foot a { color: #1f5f9a; }
  .foot .src { color: #595959; margin-left: auto; }
  .foot details { flex-basis: 100%; }
  .foot summary { cursor: pointer; color: #1f5f9a; }
  textarea.embed { width: 100%; box-sizing: border-box; font: 12px/1.4 ui-monospace, Menlo, Consolas, monospace; min-height: 64px; resize: vertical; }
  .copied { color: #135c2b; }
  @media (max-width: 520px) {
    .w { padding: 10px 9px 8px; border-radius: 6px; }
  }
  /* The widget's own width decides (it may sit in a narrow column of a wide page). */
  @container (max-width: 500px) {
    form.controls { grid-template-columns: 1fr; padding: 6px 8px; }
    .cards { grid-template-columns: repeat(2, minmax(0, 1fr)); }
    .card output { font-size: 15px; }
  }
  @media print {
    form.controls input[type='range'], .foot { display: none; }
    .w { box-shadow: none; border-color: #999; }
  }
`,
];
