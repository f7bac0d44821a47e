// The bars' look (charts/bars.ts), shared by the explorer's and the widgets' shadow roots: text at 11 px and up.
import { css } from 'lit';

export const barStyles = css`
  .hb { margin: 6px 0 10px; }
  .hb-title { font-size: 12px; font-weight: 600; color: #333; margin-bottom: 4px; }
  .hrow { display: grid; grid-template-columns: minmax(84px, 24%) 1fr; align-items: center; gap: 2px 10px; min-height: 24px; }
  .hrow .lbl { text-align: right; font-size: 12px; line-height: 1.2; }
  .hrow .lbl.crit { font-weight: 700; color: #a3271b; }
  .track { position: relative; height: 16px; margin-right: 4px; }
  .track .seg { position: absolute; top: 0; bottom: 0; border-right: 1px solid #fff; box-sizing: border-box; }
  .track .ghost { position: absolute; top: -3px; bottom: -3px; left: 0; border: 1.5px dashed #555; border-radius: 2px; background: #0000000a; box-sizing: border-box; }
  .track .val { position: absolute; top: 0; line-height: 16px; padding: 0 4px; font-size: 11px; color: #222; white-space: nowrap; font-variant-numeric: tabular-nums; }
  .track .val.inside { color: #111; background: #ffffffe6; border-radius: 3px; }
  .track .mk { position: absolute; top: -5px; bottom: -5px; border-left: 2px dashed; }
  .mk-row { min-height: 16px; }
  .mk-row .track { height: 14px; }
  .mk-label { position: absolute; transform: translateX(-50%); font-size: 11px; font-weight: 700; white-space: nowrap; }
  .mk-label.end { transform: translateX(-100%); }
  .legend { display: flex; flex-wrap: wrap; gap: 4px 10px; font-size: 11.5px; margin-top: 2px; }
  .legend i { display: inline-block; width: 10px; height: 10px; margin-right: 4px; border: 1px solid #0003; vertical-align: -1px; }
  .legend i.ghost-key { border: 1.5px dashed #555; background: #0000000a; }
  details.numbers { margin-top: 4px; font-size: 12px; }
  details.numbers summary { cursor: pointer; color: #1f5f9a; }
  table.data { border-collapse: collapse; font-size: 12px; font-variant-numeric: tabular-nums; margin: 4px 0; }
  table.data th, table.data td { text-align: left; padding: 2px 8px; border-bottom: 1px solid #eee; }
  table.data td:nth-child(n + 3) { text-align: right; }
  table.data tr.sum td, table.data tr.sum th { font-weight: 600; }
  @container (max-width: 500px) {
    .hrow { grid-template-columns: 1fr; }
    .hrow .lbl { text-align: left; }
    .mk-row > span:first-child { display: none; }
  }
`;
