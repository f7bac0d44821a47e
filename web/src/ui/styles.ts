import { css, unsafeCSS } from 'lit';
import { barStyles } from '../charts/bar-styles';
import { scrollCueCss } from '../charts/scroll-cue';

export const styles = [
  barStyles,
  unsafeCSS(scrollCueCss('.table-wrap, .chart', '#fff')),
  css`
  :host { display: block; font: 14px/1.45 system-ui, -apple-system, 'Segoe UI', sans-serif; color: #1b1b1b; background: #fbfbf9; min-height: 100vh; }
  header { display: flex; flex-wrap: wrap; align-items: baseline; justify-content: space-between; gap: 8px; padding: 10px 18px; border-bottom: 1px solid #ddd; background: #fff; }
  h1 { font-size: 20px; margin: 0; }
  h1 .sub { font-weight: 400; color: #595959; font-size: 14px; margin-left: 6px; }
  h3 { font-size: 15px; margin: 0 0 6px; }
  .actions { display: flex; gap: 8px; align-items: center; flex-wrap: wrap; }
  button { font: inherit; padding: 4px 10px; border: 1px solid #999; border-radius: 4px; background: #f4f4f4; cursor: pointer; }
  button:hover { background: #e8e8e8; }
  button:focus-visible, input:focus-visible, select:focus-visible, summary:focus-visible { outline: 2px solid #1f6fb2; outline-offset: 2px; }
  .status { font-size: 12px; padding: 2px 8px; border-radius: 10px; background: #eee; }
  .status.ready { background: #dff3e4; color: #135c2b; }
  .status.error { background: #fbe1de; color: #8a1c12; }
  .copied { font-size: 12px; color: #135c2b; }
  .notice { margin: 10px 18px 0; padding: 8px 12px; border: 1px solid #d9a400; background: #fff7da; border-radius: 4px; }
  .notice ul { margin: 4px 0; padding-left: 20px; }
  main { display: grid; grid-template-columns: minmax(300px, 360px) 1fr; gap: 16px; padding: 12px 18px 40px; }
  /* Desktop: the results column runs the page's height and its headline stays at the top of the window while
     anything scrolls, so moving any control leaves the answer in view. */
  .results { container-type: inline-size; }
  .results:focus { outline: none; }
  .results:focus-visible { outline: 2px solid #1f6fb2; }
  ss-headline:not(.phone-strip) { position: sticky; top: 0; z-index: 3; display: block; background: #fbfbf9; padding-bottom: 6px; }
  .phone-strip { display: none; }
  @media (max-width: 900px) {
    main { grid-template-columns: 1fr; padding: 8px 10px 32px; }
    ss-headline:not(.phone-strip) { position: static; }
    /* Phones: the summary strip (step or latency, memory against HBM, fits or not, cost) stays at the top. */
    .phone-strip { display: block; position: sticky; top: 0; z-index: 5; }
  }
  .strip { display: flex; flex-wrap: wrap; gap: 2px 12px; align-items: center; padding: 6px 10px; background: #fff; border-bottom: 1px solid #ccc; box-shadow: 0 2px 4px #0000001a; font-size: 13px; font-variant-numeric: tabular-nums; }
  .strip .k { color: #555; font-size: 11.5px; }
  .strip.invalid b { color: #666; text-decoration: line-through; text-decoration-thickness: 1px; }

  .controls { display: flex; flex-direction: column; gap: 8px; }
  fieldset.group { border: 1px solid #ddd; border-radius: 6px; padding: 6px 10px 8px; margin: 0; background: #fff; }
  legend { font-weight: 600; padding: 0 4px; }
  .ctl { margin: 4px 0; }
  .ctl label { display: block; font-size: 13px; }
  .ctl.check { display: flex; gap: 6px; align-items: center; }
  .ctl.check label { display: inline; }
  .ctl.overridden > label { color: #8a4b00; font-weight: 600; }
  .pair { display: flex; gap: 6px; align-items: center; }
  .pair input[type='range'] { flex: 1; min-width: 0; }
  .num { width: 92px; font: inherit; padding: 1px 4px; }
  .num.wide { width: 150px; }
  output.num { display: inline-block; text-align: right; }
  input:invalid { border-color: #c0392b; background: #fdecea; }
  select { font: inherit; width: 100%; padding: 2px; }
  .unit { color: #666; font-weight: 400; }
  .help { display: block; color: #666; font-size: 11.5px; }
  .badge { display: inline-block; font-size: 10.5px; padding: 0 6px; border-radius: 8px; background: #ffe2b8; color: #7a4100; font-weight: 600; margin-left: 4px; }
  .reset { padding: 0 6px; font-size: 12px; }
  details.hwfields summary { cursor: pointer; margin: 6px 0 2px; }
  .hwf label { font-family: ui-monospace, monospace; font-size: 11.5px; }
  .results { display: flex; flex-direction: column; gap: 12px; min-width: 0; }
  .results > * { display: block; }
  ss-training-results, ss-serving-results, ss-charts { display: flex !important; flex-direction: column; gap: 12px; }
  .status-line { display: flex; flex-wrap: wrap; align-items: center; gap: 4px 10px; margin: 0 0 6px; font-size: 13px; }
  .fit { display: inline-block; font-size: 12px; font-weight: 700; padding: 1px 8px; border-radius: 10px; white-space: nowrap; }
  .fit.ok { background: #dff3e4; color: #135c2b; }
  .fit.warning { background: #fff1cc; color: #6b4200; }
  .fit.no-fit, .fit.cannot-run { background: #fbe1de; color: #8a1c12; }
  .headline-block.invalid .card { background: #f1f1ee; border-style: dashed; }
  .headline-block.invalid .card .v { color: #666; text-decoration: line-through; text-decoration-thickness: 1px; }
  .card .ideal { font-size: 11.5px; color: #555; }
  .fidelity, .goodput { margin: 6px 0 0; font-size: 12.5px; color: #333; }
  .fidelity.ideal-bound { padding: 4px 8px; border-left: 3px solid #1f6fb2; background: #eef5fb; }
  .toggle { display: inline-flex; gap: 4px; align-items: center; margin-left: auto; }
  .toggle button[aria-pressed='true'] { background: #1f6fb2; color: #fff; border-color: #1f6fb2; }
  details.more { margin: 6px 0 2px; }
  details.more > summary { cursor: pointer; font-size: 13px; color: #1f5f9a; }
  details.more[open] > summary { margin-bottom: 4px; }
  textarea.paste-text { width: 100%; box-sizing: border-box; font: 12px/1.4 ui-monospace, monospace; }
  .profile-status { margin: 4px 0; font-size: 12.5px; overflow-wrap: anywhere; }
  .profile-status code { white-space: nowrap; font-size: 11.5px; }
  .profile input[type='file'] { max-width: 100%; font-size: 12px; }
  .profile .notice-inline, .profile .help { overflow-wrap: anywhere; }
  .panel-head { display: flex; flex-wrap: wrap; justify-content: space-between; align-items: baseline; gap: 4px 10px; }
  .downloads { display: flex; gap: 4px; }
  .downloads button { font-size: 12px; padding: 1px 8px; }
  pre.cli { white-space: pre-wrap; word-break: break-all; font: 12px/1.4 ui-monospace, monospace; background: #f4f4f0; border: 1px solid #ddd; border-radius: 4px; padding: 6px 8px; max-height: 9em; overflow: auto; }
  .table-wrap[data-scrolls]::before { content: 'Wider than the screen: scroll sideways for more columns →'; display: block; font-size: 11.5px; color: #555; margin-bottom: 2px; }
  .tie { color: #6b4200; }
  .compare td.invalid { color: #555; font-style: italic; }
  [aria-disabled='true'] { opacity: 0.6; cursor: default; }
  .headline { display: grid; grid-template-columns: repeat(auto-fill, minmax(150px, 1fr)); gap: 8px; }
  .card { background: #fff; border: 1px solid #ddd; border-radius: 6px; padding: 6px 10px; display: flex; flex-direction: column; }
  .card .k { font-size: 12px; color: #555; }
  .card .v { font-size: 19px; font-weight: 600; font-variant-numeric: tabular-nums; }
  .panel, .card, fieldset.group { contain: layout paint; }
  .panel { background: #fff; border: 1px solid #ddd; border-radius: 6px; padding: 10px 12px; }
  .bound { margin: 0 0 6px; }
  .diagnostics { border: 1px solid #e0b4ae; background: #fff4f2; border-radius: 6px; padding: 6px 12px; }
  .diagnostics ul { margin: 4px 0; padding-left: 18px; }
  .diagnostics .sev { font-weight: 700; }
  .diagnostics li.warn .sev { color: #8a4b00; }
  .diagnostics li.err .sev { color: #8a1c12; }
  .thresholds { list-style: none; padding: 0; margin: 0; }
  .thresholds li { margin: 3px 0; }
  .thresholds li.ok .mark { color: #135c2b; }
  .thresholds li.bad .mark { color: #8a1c12; }
  .compare { border-collapse: collapse; width: 100%; font-variant-numeric: tabular-nums; }
  .compare th, .compare td { text-align: right; padding: 2px 8px; border-bottom: 1px solid #eee; }
  .compare th[scope='row'], .compare thead th:first-child { text-align: left; }
  .compare .better { color: #135c2b; font-weight: 600; }
  .compare .worse { color: #8a1c12; font-weight: 600; }
  .plan-actions { display: flex; gap: 10px; align-items: center; flex-wrap: wrap; margin: 4px 0 8px; }
  .search-progress { display: flex; gap: 10px; align-items: center; flex-wrap: wrap; margin: 0 0 8px; }
  .progress { flex: 0 1 260px; display: flex; }
  .progress progress { width: 100%; height: 12px; accent-color: #1f6fb2; }
  details.search-options { margin: 0 0 8px; }
  .pareto-figure svg [data-point] { cursor: pointer; }
  .pareto-figure svg [data-point]:focus-visible { outline: 2px solid #1f6fb2; outline-offset: 1px; }
  .table-wrap { overflow-x: auto; }
  .plans { border-collapse: collapse; width: 100%; font-variant-numeric: tabular-nums; font-size: 13px; }
  .plans th, .plans td { text-align: right; padding: 3px 6px; border-bottom: 1px solid #eee; vertical-align: top; white-space: nowrap; }
  .plans th[scope='row'], .plans thead th:nth-child(2) { text-align: left; white-space: normal; font-weight: 400; }
  .plans th[scope='row'] { min-width: 210px; }  /* wide enough to read, narrow enough that the table fits a desktop column */
  /* Phones: a narrower plan column keeps the step time in view beside it (the rest scrolls sideways). */
  @media (max-width: 600px) { .plans th[scope='row'] { min-width: 190px; } }
  .plans td.wrap { white-space: normal; min-width: 90px; }
  .plans .plan-deg { font-weight: 600; }
  .badge.pareto { background: #dcebf7; color: #123f66; }
  .plans tr.current { background: #eef5fb; }
  .plans tr.near-tie > td:first-child { border-left: 3px solid #c8d3dd; }  /* a near-tie group's later rows */
  .plans.stale { opacity: 0.5; }
  .plans .worse { color: #8a1c12; }
  .plans .ok-mark { color: #135c2b; }
  .search-question { display: grid; grid-template-columns: repeat(auto-fill, minmax(230px, 1fr)); gap: 2px 16px; align-items: start; margin: 4px 0 6px; }
  /* The deployment table fits the results column at 1400 px: its notes and headers wrap. */
  .deployments th[scope='row'] { min-width: 140px; }
  .deployments thead th, .deployments .help { white-space: normal; }
  .deployments thead th:not(:first-child):not(:last-child) { min-width: 4.5em; }
  .plans.deployments thead th:nth-child(2) { text-align: right; }
  .plans.deployments thead th:nth-child(3) { text-align: left; }
  .deployments td .help { min-width: 70px; max-width: 150px; margin-left: auto; }
  /* Phones: each deployment is a card of labelled values (its column's words, from data-label), three to a line under
     its rank and replica, so latency and cost are in view without scrolling sideways. */
  @media (max-width: 600px) {
    .deployments thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
    .deployments, .deployments tbody { display: block; }
    .deployments tr { display: grid; grid-template-columns: repeat(3, minmax(0, 1fr)); gap: 6px 10px; padding: 8px 2px; border-bottom: 1px solid #ddd; }
    .plans.deployments th, .plans.deployments td { display: block; min-width: 0; padding: 0; border: 0; text-align: left; white-space: normal; }
    .deployments td:first-child { order: -2; }
    .deployments th[scope='row'] { order: -1; grid-column: span 2; }
    .deployments td[data-label]::before { content: attr(data-label); display: block; font-size: 11px; color: #555; }
    .deployments td .help { min-width: 0; max-width: none; margin-left: 0; }
  }
  .search-question .hint { color: #555; font-weight: 400; }
  .notice-inline { margin: 4px 0; padding: 4px 8px; border-left: 3px solid #d9a400; background: #fff7da; font-size: 13px; }
  .fit-line { margin: 6px 0; }
  .fit-notes { margin: 4px 0 0; padding: 4px 8px 4px 24px; border-left: 3px solid #2f7d32; background: #eef7ee; font-size: 13px; }
  .field-problem { border-left-color: #b3261e; background: #fdecea; overflow-wrap: anywhere; }
  .field-problem button { margin-left: 4px; font-size: 12px; }
  .sr-only { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
  .spec { display: grid; gap: 2px; margin: 6px 0; }
  .spec div { display: grid; grid-template-columns: 190px 1fr; gap: 8px; }
  .spec dt { color: #555; }
  .spec dd { margin: 0; }
  .worse { color: #8a1c12; }
  .facts dl { display: grid; grid-template-columns: 1fr; gap: 2px; margin: 0; }
  .facts dl div { display: grid; grid-template-columns: 190px 1fr; gap: 8px; }
  .facts dt { color: #555; }
  .facts dd { margin: 0; }
  .chart { min-height: 60px; overflow-x: auto; transition: opacity 0.2s; }
  .chart.stale { opacity: 0.35; }
  h4 { font-size: 13px; margin: 6px 0 0; color: #333; }
  .muted { color: #666; font-size: 12.5px; }
  .small { font-size: 11px; }
  .loading { padding: 30px; font-size: 16px; }
  .spinner { display: inline-block; width: 14px; height: 14px; border: 2px solid #999; border-top-color: transparent; border-radius: 50%; animation: spin 0.8s linear infinite; vertical-align: -2px; }
  @keyframes spin { to { transform: rotate(360deg); } }
  .error { padding: 12px; border: 1px solid #c0392b; background: #fdecea; border-radius: 6px; }
  @media print {
    :host { background: #fff; }
    header { position: static; }
    .actions button, details.hwfields, .plan-actions, .plans button, .downloads, .phone-strip { display: none; }
    main { grid-template-columns: 1fr; }
    .panel, .card, fieldset.group { break-inside: avoid; border-color: #999; }
    input[type='range'] { display: none; }
  }
`,
];
