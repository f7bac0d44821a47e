// Every chart's numbers as a table too (issue 11: a text alternative for screen readers, and numbers to copy): a
// <details> under the chart, built with DOM calls and textContent only, so no engine text is ever parsed as HTML.
export interface ChartTable {
  caption: string;
  columns: string[];
  rows: (string | number)[][];
}

/** The chart node followed by its table, in one wrapper (what a chart function returns). */
export function withTable(chart: Element, t: ChartTable): HTMLElement {
  const wrap = document.createElement('div');
  wrap.className = 'chart-figure';
  const details = document.createElement('details');
  details.className = 'numbers';
  const summary = document.createElement('summary');
  summary.textContent = `${t.caption}: the numbers`;
  const scroll = document.createElement('div');
  scroll.className = 'table-wrap';
  const table = document.createElement('table');
  table.className = 'data';
  const head = table.createTHead().insertRow();
  for (const c of t.columns) {
    const th = document.createElement('th');
    th.scope = 'col';
    th.textContent = c;
    head.appendChild(th);
  }
  const body = table.createTBody();
  for (const r of t.rows) {
    const tr = body.insertRow();
    r.forEach((v, i) => {
      const cell = document.createElement(i === 0 ? 'th' : 'td');
      if (i === 0) (cell as HTMLTableCellElement).scope = 'row';
      cell.textContent = String(v);
      tr.appendChild(cell);
    });
  }
  scroll.appendChild(table);
  details.append(summary, scroll);
  wrap.append(chart, details);
  return wrap;
}
