// Charts, accessibility and the page's policy: every chart has a text alternative, plans that do not fit are marked,
// the goodput chart (issue 38), the skip link, axe-core's WCAG 2.1 AA audit, and the strict Content-Security-Policy
// (every test's context also fails on a CSP violation or a console error: fixtures.mjs).
import fs from 'node:fs';
import path from 'node:path';
import { AXE_VERSION, axeViolations } from './page-checks.mjs';
import { SITE, chartsDrawn, check, open, press, test } from './fixtures.mjs';

test('charts: a text alternative each, and plans that do not fit marked', async ({ page, url, context }) => {
  await open(page, `${url}?v=1&remat=none`);
  await chartsDrawn(page);
  await page.locator('ss-charts #goodput-chart details.numbers table').waitFor({ state: 'attached', timeout: 15000 }); // in a closed <details>
  await check(
    'every chart has its numbers as a table',
    (await page.locator('ss-charts .chart-figure details.numbers table').count()) === 3,
  );
  const fits = await page.locator('ss-charts #scaling-chart details table tbody tr td:nth-child(3)').allTextContents();
  await check(
    'the scaling chart lists which chip counts do not fit (and draws them hollow)',
    fits.includes('no') && fits.includes('yes'),
    fits.join(' | '),
  );
  await open(page, `${url}?v=1&seq=32768`);
  await chartsDrawn(page);
  const warnings = await page
    .locator('ss-charts #scaling-chart details table tbody tr td:nth-child(4)')
    .allTextContents();
  const labels = await page.locator('ss-charts #scaling-chart svg text').allTextContents();
  await check(
    'scaling points that run with a warning are listed with it and drawn labelled, not as clean points (issue 22)',
    warnings.some((w) => /sequences are split/.test(w)) && labels.includes('warning'),
    warnings.join(' | '),
  );
});

test('goodput: the failure settings move the time to train with failures, charted against chips (issue 38)', async ({
  page,
  url,
  context,
}) => {
  const goodputOf = async () =>
    Number(await page.locator('ss-headline:not(.phone-strip) [data-goodput]').getAttribute('data-goodput'));
  await open(page, url);
  const byDefault = await goodputOf();
  await check(
    'unset, the failure rate shows the engine’s value in use',
    Number(await page.locator('ss-controls input.num[data-key="fail"]').inputValue()) > 0 &&
      (await page.locator('ss-controls select[data-key="ckpt_mode"]').inputValue()) === '',
  );
  await open(page, `${url}?v=1&fail=0.0001&ckpt_mode=blocking`);
  const worse = await goodputOf();
  await check(
    'more failures and blocking saves lower the headline’s goodput',
    worse > 0 && worse < byDefault,
    `${byDefault} -> ${worse}`,
  );
  await check(
    'the controls show the link’s settings',
    (await page.locator('ss-controls input.num[data-key="fail"]').inputValue()) === '0.0001' &&
      (await page.locator('ss-controls select[data-key="ckpt_mode"]').inputValue()) === 'blocking',
  );
  const rows = page.locator('ss-charts #goodput-chart details.numbers table tbody tr');
  await rows.first().waitFor({ state: 'attached', timeout: 15000 });
  const dots = await page
    .locator('ss-charts #goodput-chart svg g[aria-label="dot"]')
    .evaluateAll((gs) => gs.map((g) => g.querySelectorAll('circle').length));
  await check(
    'the time-to-train chart draws 11 chip counts, failure-free and with failures, the current one ringed',
    (await rows.count()) === 11 && dots[0] === 11 && dots[1] === 11 && dots[2] === 2,
    `${await rows.count()} rows, dots ${dots}`,
  );
  const note = (await page.locator('ss-charts [data-goodput-note]').textContent()) ?? '';
  await check(
    'its note says where adding chips stops paying, in the engine’s number',
    /^Past [\d.]+[kM]? chips, failures cost more time than the chips save\.$/.test(note),
    note,
  );
});

test('keyboard: a skip link to the results', async ({ page, url, context }) => {
  await open(page, url);
  await page.keyboard.press('Tab');
  const first = await page.evaluate(() => document.activeElement?.className);
  await check('the first Tab stop is the skip link', first === 'skip', first);
  await page.keyboard.press('Enter');
  await check(
    'Enter on it puts focus on the results',
    await page.evaluate(() => document.querySelector('scalescope-explorer').shadowRoot.activeElement?.id === 'results'),
  );
});

test('accessibility audit (axe-core, WCAG 2.1 AA)', async ({ page, url, context }) => {
  await open(page, url);
  await chartsDrawn(page);
  const v = await axeViolations(page);
  await check(
    `axe-core ${AXE_VERSION}: no WCAG A/AA violation on the explorer (contrast included)`,
    v.length === 0,
    v.slice(0, 4).join(' || '),
  );
  await open(page, `${url}?v=1&mode=serving`);
  await chartsDrawn(page);
  const vs = await axeViolations(page);
  await check('no WCAG A/AA violation in serving mode', vs.length === 0, vs.slice(0, 4).join(' || '));
});

test('the explorer page carries a strict Content-Security-Policy', async () => {
  // Every test's context fails on a CSP violation or a console error (fixtures.mjs); this is the policy itself.
  const meta = fs.readFileSync(path.join(SITE, 'index.html'), 'utf8');
  await check(
    'the explorer page carries a strict Content-Security-Policy',
    /http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'self' 'wasm-unsafe-eval';/.test(
      meta,
    ),
  );
});
