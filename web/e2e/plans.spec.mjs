// The plan search: only plans that fit, applied with the keyboard; cancel, restart on a change, a constraint and
// the Pareto chart; a GPU plan keeps its own mesh (issues 11, 20, 22). Its times are the performance project's.
import { axeViolations } from './page-checks.mjs';
import {
  chartLabels,
  chartsDrawn,
  check,
  findPlans,
  listedTp,
  metric,
  open,
  press,
  settled,
  shot,
  stateQuery,
  status,
  test,
  type,
} from './fixtures.mjs';

test('plan search: only plans that fit without a warning; apply keeps focus', async ({ page, url, context }) => {
  await open(page, url);
  // A reader's first click comes once the page has drawn; by then the worker has run its warm-up chunk (the
  // explorer's warmUpSearch), so the first search does not pay for the wasm reaching its optimising tier.
  await chartsDrawn(page);
  await page.waitForFunction(() => window.__scalescope.warmUpMs !== undefined, null, { timeout: 10000 });
  const run = await findPlans(page);
  const rows = await page.locator('[data-plan]').count();
  await check('the best plans are listed', rows >= 3, `${rows} rows`);
  await check(
    'the search ran in chunks, the progress rising after each',
    run.chunks > 2 && run.fracs.every((f, i) => i === 0 || f > run.fracs[i - 1]) && run.fracs.at(-1) === 1,
    JSON.stringify(run.fracs),
  );
  await check(
    'the progress bar moved while the search ran and ends at 100%',
    run.seen.some((v) => v > 0 && v < 100) && run.seen.at(-1) === 100,
    JSON.stringify([...new Set(run.seen)]),
  );
  // Issue 20's 1 s budget on the page's first search is reported by the performance project, not checked. That the bounded
  // search ends with the exhaustive one's plans is held on this very space by the release suite
  // (plan_search_budget_exact), and native and wasm agree to the bit on every golden search.
  const header = (await page.locator('table.plans thead').textContent()) ?? '';
  await check(
    'the plan table names step, MFU, memory, binding threshold, time and cost to train',
    ['Step', 'MFU', 'Memory', 'Binding', 'Time and cost to train'].every((w) => header.includes(w)),
    header,
  );
  await check(
    'the ranking says which model made it (calibrated, with the book’s ideal step under each plan)',
    (await page.locator('[data-calibrated-ranking]').count()) === 1 &&
      (await page.locator('[data-plan-ideal]').count()) === rows,
  );
  const ties = await page.locator('[data-tie], [data-near-tie]').allTextContents();
  await check(
    'ties say what differs, in words (no engine notation)',
    ties.length > 0 && ties.every((x) => / vs /.test(x) && !/@/.test(x)),
    ties.slice(0, 2).join(' | '),
  );
  const layouts = await page.locator('[data-plan-layout]').allTextContents();
  await check(
    'every plan says where its strategies sit, parts of torus axes in words',
    layouts.length === rows && layouts.some((x) => /(inner|outer|middle) \d+ of [XYZ]/.test(x)),
    layouts.slice(0, 2).join(' | '),
  );
  const front = await page.evaluate(() => window.__scalescope.search?.paretoListed);
  await check(
    'plans on the Pareto front are marked',
    (await page.locator('[data-pareto]').count()) === front,
    `${front} on the front`,
  );
  for (const i of [2, 0]) {
    const want = Number(await page.locator(`[data-plan="${i}"]`).getAttribute('data-step'));
    const before = await stateQuery(page);
    await page.locator(`[data-apply="${i}"]`).focus();
    await page.keyboard.press('Enter');
    await settled(page, before);
    await check(
      `apply plan ${i + 1}: the step time shown equals the plan's step_s`,
      (await metric(page, 'step_s')) === want,
    );
    await check(
      `apply plan ${i + 1}: the applied plan fits and raises no warning`,
      (await status(page)) === 'ok' && (await page.locator('[data-diagnostics] li').count()) === 0,
      await status(page),
    );
    await check(
      `apply plan ${i + 1}: focus stays on its button`,
      await page.evaluate(
        (n) =>
          document.querySelector('scalescope-explorer').shadowRoot.activeElement?.getAttribute('data-apply') ===
          String(n),
        i,
      ),
    );
  }
  await page.waitForFunction(() => window.location.search.includes('layout='), null, { timeout: 5000 });
  const meshHelp = ((await page.locator('[data-mesh-help]').textContent()) ?? '').trim();
  const row0 = ((await page.locator('[data-plan="0"] [data-plan-layout]').textContent()) ?? '').trim();
  await check(
    'the applied plan’s layout is the one its row names (the mesh under the controls)',
    row0.length > 0 && meshHelp.includes(row0),
    `${meshHelp} | ${row0}`,
  );
  await shot(page, 'explorer-plans.png');
  const step = await metric(page, 'step_s');
  await page.waitForFunction(() => window.location.search === '?' + window.__scalescope.stateQuery);
  await open(page, page.url());
  await check('a reload keeps the applied plan’s step time', (await metric(page, 'step_s')) === step);
  const tpAtMin = await page
    .locator('ss-controls input[type="range"][data-key="tp"]')
    .evaluate((el) => Number(el.value) <= Number(el.min));
  await press(page, 'tp', tpAtMin ? 'ArrowRight' : 'ArrowLeft');
  await check('moving a degree drops the plan’s layout', !(await stateQuery(page)).includes('layout='));
});

test('plan search: cancel, restart on a change, a constraint, and the Pareto chart', async ({ page, url, context }) => {
  await open(page, url);
  await page.locator('#find-plans').click();
  await page.waitForFunction(
    () => (window.__scalescope.search?.chunks ?? 0) >= 1 && !window.__scalescope.search.complete,
    null,
    { timeout: 20000 },
  );
  await page.locator('[data-cancel-search]').click();
  const cancelled = (await page.locator('[data-search-progress]').textContent()) ?? '';
  await check(
    'Cancel stops the search and says how far it got; the plans so far stay',
    /Cancelled at \d+%/.test(cancelled) && (await page.locator('[data-cancel-search]').count()) === 0,
    cancelled.trim().slice(0, 120),
  );
  // A control moved while the search runs: it starts again for the new settings.
  await page.locator('#find-plans').click();
  await page.waitForFunction(() => (window.__scalescope.search?.chunks ?? 0) >= 1, null, { timeout: 20000 });
  await page.locator('[data-search-options] summary').click();
  await page.locator('select[data-key="pmaxtp"]').selectOption('4');
  await page.waitForFunction(
    () => window.__scalescope.search?.complete && window.__scalescope.search.query === window.__scalescope.stateQuery,
    null,
    { timeout: 30000 },
  );
  await check(
    'changing a search option mid-search restarts it for the new one (TP at most 4)',
    (await stateQuery(page)).includes('pmaxtp=4'),
  );
  const tps = await listedTp(page);
  await check(
    'max_tensor 4: every plan listed has TP at most 4',
    tps.length > 0 && tps.every((tp) => tp <= 4),
    JSON.stringify(tps),
  );
  await page.waitForFunction(() => window.location.search.includes('pmaxtp=4'), null, { timeout: 5000 });
  const points = page.locator('[data-pareto-chart] svg [data-point]');
  await points.first().waitFor({ timeout: 10000 });
  await check('the Pareto chart has points, the listed plans ringed', (await points.count()) > 1);
  await check(
    'the Pareto chart has its numbers as a table, memory against HBM in it',
    (await page.locator('ss-pareto details.numbers table tbody tr').count()) === (await points.count()) &&
      ((await page.locator('ss-pareto details.numbers thead').textContent()) ?? '').includes('Of HBM'),
  );
  await check(
    'the chart draws the HBM line',
    /HBM \d/.test((await page.locator('[data-pareto-chart] svg').textContent()) ?? ''),
  );
  // A chart element can be asked to draw after it left the page: its lazy Plot import or its redraw timer lands
  // late (a search restarted, the plan list went stale). Off the page it has no stylesheet root: it must not draw.
  const late = await page.evaluate(async () => {
    const errors = [];
    const onError = (e) => errors.push(e.message ?? String(e.reason));
    window.addEventListener('error', onError);
    window.addEventListener('unhandledrejection', onError);
    const root = document.querySelector('scalescope-explorer').shadowRoot;
    const copies = ['ss-pareto', 'ss-charts'].map((tag) => {
      const live = root.querySelector(tag);
      const el = document.createElement(tag);
      for (const k of ['run', 'listed', 'hbmBytes', 'headroomFrac', 'results', 'plots', 'live'])
        if (live[k] !== undefined) el[k] = live[k];
      root.append(el);
      return el;
    });
    for (const el of copies) await el.updateComplete.catch((e) => errors.push(e.message));
    for (const el of copies) el.remove();
    for (const el of copies) {
      if ('run' in el) el.run = { ...el.run };
      else el.results = { ...el.results };
      await el.updateComplete.catch((e) => errors.push(e.message));
    }
    await new Promise((r) => setTimeout(r, 300)); // past the charts' 100 ms redraw timer
    window.removeEventListener('error', onError);
    window.removeEventListener('unhandledrejection', onError);
    return errors;
  });
  await check(
    'a chart asked to draw after it left the page draws nothing and throws nothing',
    late.length === 0,
    late.join(' | '),
  );
  const paretoLabels = await chartLabels(page, '.pareto-figure');
  await check(
    'the Pareto chart’s labels (HBM, #1, does not fit) do not run into one another',
    paretoLabels.texts.length >= 2 && paretoLabels.overlaps.length === 0,
    `${paretoLabels.texts.join(' | ')}; overlapping: ${paretoLabels.overlaps.join(', ')}`,
  );
  await shot(page, 'explorer-pareto.png');
  const v = await axeViolations(page);
  await check(
    'no WCAG A/AA violation with the search options, progress and Pareto chart shown',
    v.length === 0,
    v.slice(0, 4).join(' || '),
  );
  const last = points.last();
  const want = Number(await last.getAttribute('data-step'));
  const before = await stateQuery(page);
  await last.focus();
  await page.keyboard.press('Enter');
  await settled(page, before);
  await check(
    'Enter on a Pareto point applies its plan (the step shown is the point’s)',
    (await metric(page, 'step_s')) === want,
    `${await metric(page, 'step_s')} vs ${want}`,
  );
  await page.waitForFunction(() => window.location.search === '?' + window.__scalescope.stateQuery);
  await open(page, page.url());
  await check(
    'a reload keeps the search options (the link reproduces the search)',
    (await page.locator('select[data-key="pmaxtp"]').inputValue()) === '4',
  );
  // 8 chips cannot hold LLaMA-3 70B: with "only plans that fit" off the closest plans are listed, each marked.
  await open(page, `${url}?v=1&fsdp=8&tp=1&pfit=0`);
  const small = await findPlans(page);
  const noFit = await page.locator('[data-plan] [data-no-fit]').count();
  await check(
    'must_fit off: plans out of HBM are listed, each marked as not fitting',
    small.complete && noFit > 0 && noFit === (await page.locator('[data-plan]').count()),
    `${noFit} marked`,
  );
});

test('plan search on a GPU: the plan’s own mesh', async ({ page, url, context }) => {
  await open(page, url + '?v=1&hw=h100-sxm&fsdp=32&tp=8');
  await findPlans(page);
  const want = Number(await page.locator('[data-plan="0"]').getAttribute('data-step'));
  const before = await stateQuery(page);
  await page.locator('[data-apply="0"]').click();
  await settled(page, before);
  await check('GPU: the step time shown equals the first plan’s step_s', (await metric(page, 'step_s')) === want);
  await check('GPU: the plan keeps the chip count', (await metric(page, 'chips')) === 256);
});
