// The phone layout (390 px): the answer in view, readable bars, tables that scroll with a cue, the serving search as
// cards and the frontier's labels clear of one another (issues 11, 41).
import path from 'node:path';
import {
  PHONE,
  SHOTS,
  chartLabels,
  chartsDrawn,
  check,
  findPlans,
  inViewport,
  open,
  press,
  servingSearched,
  settled,
  shot,
  shotBetween,
  stateQuery,
  status,
  test,
  training,
  type,
  unfold,
} from './fixtures.mjs';

test('phone (390 px): the answer in view, readable bars, scrollable tables', async ({ page, url, context }) => {
  const phone = await context.newPage();
  await phone.setViewportSize(PHONE);
  await open(phone, url);
  await check(
    'the summary strip shows step, memory against HBM, fits, cost',
    /Step time/.test((await phone.locator('[data-headline-strip]').textContent()) ?? '') &&
      (await phone.locator('[data-headline-strip] [data-status="ok"]').count()) === 1,
  );
  await shot(phone, 'explorer-phone.png');
  await unfold(phone);
  const last = phone.locator('ss-controls input[type="range"]').last();
  const before = await stateQuery(phone);
  await last.scrollIntoViewIfNeeded();
  await last.focus();
  await phone.keyboard.press('ArrowLeft');
  await settled(phone, before);
  await check(
    'after moving the last control the headline strip is inside the window at 390 px',
    await inViewport(phone, '[data-headline-strip]'),
  );
  const sizes = await phone
    .locator('ss-training-results .hb .lbl, ss-training-results .hb .val, ss-training-results .hb .legend span')
    .evaluateAll((els) => els.map((e) => parseFloat(getComputedStyle(e).fontSize)));
  await check(
    'bar text is at least 11 px',
    sizes.length > 3 && Math.min(...sizes) >= 11,
    `${Math.min(...sizes)} px of ${sizes.length}`,
  );
  await findPlans(phone);
  // The plan table's own wrapper (the Pareto chart's table of numbers below it may scroll too, with its own hint).
  const planTable = 'ss-plans .table-wrap[data-scrolls]:has(> table.plans)';
  await phone
    .locator(planTable)
    .waitFor({ timeout: 5000 })
    .catch(() => {});
  const hint = await phone
    .locator(planTable)
    .evaluateAll((els) => els.map((e) => getComputedStyle(e, '::before').content));
  await check(
    'the wide plan table scrolls with a visible hint',
    hint.length === 1 && /scroll sideways/.test(hint[0]),
    JSON.stringify(hint),
  );
  const cue = await phone.locator(planTable).evaluate((e) => ({
    image: getComputedStyle(e).backgroundImage,
    attachment: getComputedStyle(e).backgroundAttachment,
  }));
  await check(
    '… and a shadow at each edge it scrolls towards (covers that scroll with it over fixed shadows, issue 41 #19)',
    cue.image !== 'none' && cue.attachment === 'local, local, scroll, scroll',
    JSON.stringify(cue),
  );
  const o = await phone.evaluate(() => ({
    sw: document.documentElement.scrollWidth,
    cw: document.documentElement.clientWidth,
  }));
  await check('the page itself does not scroll sideways', o.sw <= o.cw + 1, `${o.sw} > ${o.cw}`);
  await shot(phone, 'explorer-phone-plans.png');
  await phone.close();
});

test('phone (390 px): the serving search and the frontier', async ({ page, url, context }) => {
  const phone = await context.newPage();
  await phone.setViewportSize(PHONE);
  await open(phone, url + '?v=1&mode=serving&hw=tpu-v5e&slat=0.03');
  await servingSearched(phone);
  await check(
    'phone: the summary strip names latency per token and time to first token',
    /Latency per token.*Time to first token/.test((await phone.locator('[data-headline-strip]').textContent()) ?? ''),
  );
  // Each deployment is a card of labelled values on a phone (issue 41 #19): its latency and cost in view, nothing to scroll sideways.
  const cells = await phone
    .locator('ss-serving-search tbody td:is([data-label="Latency per token"], [data-label="$ per 1M output tokens"])')
    .evaluateAll((els) => els.map((e) => e.getBoundingClientRect()).map((r) => ({ left: r.left, right: r.right })));
  const rows = await phone.locator('ss-serving-search tbody tr').count();
  await check(
    'phone: every deployment’s latency and cost are within the 390 px screen',
    rows > 0 && cells.length === 2 * rows && cells.every((c) => c.left >= 0 && c.right <= PHONE.width),
    `${cells.length} cells for ${rows} rows, rightmost at ${Math.max(...cells.map((c) => c.right))} px`,
  );
  const wrap = await phone
    .locator('ss-serving-search .table-wrap')
    .evaluate((e) => ({ sw: e.scrollWidth, cw: e.clientWidth }));
  await check(
    'phone: the deployment table does not scroll sideways',
    wrap.sw <= wrap.cw + 1,
    `${wrap.sw} > ${wrap.cw}`,
  );
  const o2 = await phone.evaluate(() => ({
    sw: document.documentElement.scrollWidth,
    cw: document.documentElement.clientWidth,
  }));
  await check(
    'phone: with the serving search the page itself does not scroll sideways',
    o2.sw <= o2.cw + 1,
    `${o2.sw} > ${o2.cw}`,
  );
  await shot(phone, 'explorer-phone-serving-search.png');
  const deployments = phone.locator('ss-serving-search tbody tr');
  await deployments.first().scrollIntoViewIfNeeded();
  await shotBetween(
    phone,
    phone.locator('ss-serving-search [data-search-status]'),
    deployments.nth(Math.min(2, rows - 1)),
    'explorer-phone-serving-table.png',
  );
  // The frontier on a phone: LLaMA-3 8B's labels crowd (drawn at fixed offsets, "current B=32" ran into "B=64");
  // none runs into another now, and every point keeps its tooltip.
  await open(phone, url + '?v=1&mode=serving&model=llama-3-8b');
  await chartsDrawn(phone);
  const labels = await chartLabels(phone, '#sweep-chart');
  await check(
    'phone: the frontier’s labels do not run into one another (issue 41 #17)',
    labels.texts.length >= 3 && labels.overlaps.length === 0,
    `${labels.texts.join(' | ')}; overlapping: ${labels.overlaps.join(', ')}`,
  );
  const points = phone.locator('#sweep-chart svg g[aria-label="dot"]').first().locator('circle');
  const tips = [];
  await points.first().evaluate((c) => c.scrollIntoView({ block: 'center' }));
  for (let i = 0; i < (await points.count()); i++) {
    await points.nth(i).hover({ force: true });
    tips.push((await phone.locator('#sweep-chart svg g[aria-label="tip"]').textContent()) ?? '');
  }
  await check(
    'phone: every frontier point, labelled or not, tells its batch on hover',
    tips.length >= 3 && tips.every((t) => /batch \d+/.test(t)) && new Set(tips).size === tips.length,
    tips.join(' / '),
  );
  await phone.mouse.move(0, 0);
  await phone.locator('#sweep-chart').screenshot({ path: path.join(SHOTS, 'explorer-phone-frontier.png') });
  await phone.close();
});
