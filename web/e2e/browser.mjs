// Browser test of the explorer (build/site) in Debian's Chromium through playwright-core (never a downloaded
// browser). Serves the site on 127.0.0.1 itself, drives the explorer like a reader (keyboard on sliders, typed
// values, selects, buttons), compares the page's numbers with the native CLI for the same scenarios, checks issue
// 11's promises (the default plan fits without a warning, the headline stays in view at 1400 and 390 px, 16M is
// accepted, sliders stop at valid degrees, a pinned comparison survives a reload, plans that do not fit are marked,
// results can be taken away, keyboard and screen-reader use, axe-core's WCAG AA audit, no CSP violation), issue 18's
// (a calibration profile of one's own: loaded, named by the link, said to be missing in another browser), and
// measures slider-to-paint, time to interactive and site weight. Screenshots go to build/screenshots/.
// Prints "browser: N passed, 0 failed".
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { serve } from '../scripts/serve.mjs';
import { checker, collectErrors, launch } from './chromium.mjs';
import { AXE_VERSION, axeViolations, cspViolations, watchCsp } from './page-checks.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const REPO = path.resolve(here, '../..');
const SITE = process.env.SCALESCOPE_SITE ?? path.join(REPO, 'build/site');
const CLI = process.env.SCALESCOPE_CLI ?? path.join(REPO, 'build/release/scalescope');
const SHOTS = path.join(REPO, 'build/screenshots');
const MOVES = Number(process.env.SCALESCOPE_SLIDER_MOVES ?? 60);
const DESKTOP = { width: 1400, height: 1000 };
const PHONE = { width: 390, height: 844 };

const t = checker('browser');
const { check } = t;
/** SCALESCOPE_STEPS=<regex> runs only the steps whose name matches (while iterating; the closing checks always run). */
const ONLY = process.env.SCALESCOPE_STEPS ? new RegExp(process.env.SCALESCOPE_STEPS) : null;
const step = (name, fn) => (ONLY && !ONLY.test(name) ? Promise.resolve() : t.step(name, fn));
const consoleErrors = [];

function cli(scenario) {
  let out;
  try {
    out = execFileSync(CLI, ['-'], { input: JSON.stringify(scenario) }).toString();
  } catch (e) {
    out = e.stdout?.toString() ?? '';
  }
  return JSON.parse(out);
}

const get = (obj, p) => p.split('.').reduce((o, k) => (o == null ? undefined : o[k]), obj);

function percentile(xs, q) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * (s.length - 1) + 0.5))];
}

const gzipSize = (file) => zlib.gzipSync(fs.readFileSync(file), { level: 9 }).length;
const walk = (dir) =>
  fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((d) => (d.isDirectory() ? walk(path.join(dir, d.name)) : [path.join(dir, d.name)]));

// ------------------------------------------------------------------------------------------------ page helpers

async function metric(page, id) {
  const v = await page
    .locator(
      `ss-headline:not(.phone-strip) [data-metric="${id}"], ss-serving-results [data-metric="${id}"], ss-facts [data-metric="${id}"]`,
    )
    .first()
    .getAttribute('data-value');
  return v === null || v === '' ? undefined : Number(v);
}

/** Waits until the numbers on screen were computed for the controls on screen (after `before` changed). */
async function settled(page, before) {
  await page.waitForFunction(
    (b) => {
      const h = window.__scalescope;
      return h && h.ready && h.resultQuery === h.stateQuery && h.stateQuery !== b;
    },
    before,
    { timeout: 15000 },
  );
}

const stateQuery = (page) => page.evaluate(() => window.__scalescope?.stateQuery ?? '');

async function open(page, url) {
  await page.goto(url);
  await page.waitForFunction(
    () =>
      window.__scalescope?.ready &&
      window.__scalescope.resultQuery === window.__scalescope.stateQuery &&
      window.__scalescope.renders > 0,
    null,
    { timeout: 20000 },
  );
}

/** Waits for the charts of the state on screen (they follow the numbers once the controls rest). */
async function chartsDrawn(page) {
  await page.waitForFunction(() => window.__scalescope.chartsQuery === window.__scalescope.stateQuery, null, {
    timeout: 15000,
  });
}

async function shot(page, name) {
  await chartsDrawn(page).catch(() => {});
  // From the top: the sticky headline would otherwise be captured where the last scroll left it.
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: path.join(SHOTS, name), fullPage: true });
}

/** Opens every folded "More" section so its controls can be used. */
async function unfold(page) {
  await page.evaluate(() => {
    for (const d of document.querySelector('scalescope-explorer').shadowRoot.querySelectorAll('ss-controls details'))
      d.open = true;
  });
}

async function press(page, key, keyName) {
  const before = await stateQuery(page);
  await page.locator(`ss-controls input[type="range"][data-key="${key}"]`).focus();
  await page.keyboard.press(keyName);
  await settled(page, before);
}

async function type(page, key, text) {
  const before = await stateQuery(page);
  const field = page.locator(`ss-controls input.num[data-key="${key}"]`);
  await field.fill(text);
  await field.press('Enter');
  await settled(page, before);
}

async function status(page) {
  return page.locator('ss-headline:not(.phone-strip) [data-status]').getAttribute('data-status');
}

/** Clicks a download button and returns the file the page saved (playwright's download event). */
async function saved(page, selector) {
  const [dl] = await Promise.all([page.waitForEvent('download'), page.locator(selector).click()]);
  return { name: dl.suggestedFilename(), body: fs.readFileSync(await dl.path()) };
}

/** A downloaded CSV's records (RFC 4180: CRLF after each; none of the fields checked here spans lines). */
// A downloaded CSV starts with the UTF-8 byte-order mark (state/csv.ts CSV_FILE_START); its records after it.
const csvLines = (file) => {
  const text = file.body.toString('utf8');
  return (text.startsWith('\uFEFF') ? text.slice(1) : 'NO BYTE-ORDER MARK ' + text).split('\r\n').slice(0, -1);
};

/** The records under a CSV's results header (the block after the inputs). */
function csvResults(lines, header) {
  const at = lines.findIndex((l) => l.startsWith(header));
  return at < 0 ? null : { header: lines[at].split(','), rows: lines.slice(at + 1) };
}

/** Does a downloaded SVG parse as XML (what an image viewer, or an <img>, needs)? Parsed in a blank page: the file's style rules are not the site's to allow. */
async function wellFormed(page, svg) {
  const blank = await page.context().newPage();
  try {
    return await blank.evaluate(
      (t) => new DOMParser().parseFromString(t, 'image/svg+xml').querySelector('parsererror') === null,
      svg,
    );
  } finally {
    await blank.close();
  }
}

/** The plan list's first rows and the launch config open under the list (the sticky headline set aside). */
async function launchShot(page, name, scope = '[data-plans]') {
  const panel = page.locator(`${scope} [data-launch-config]`);
  await panel.scrollIntoViewIfNeeded();
  const [a, b, scrollY] = [
    await page.locator(`${scope} table.plans tbody tr`).first().boundingBox(),
    await panel.boundingBox(),
    await page.evaluate(() => window.scrollY),
  ];
  const top = Math.min(a.y, b.y) + scrollY;
  // Through the CSSOM: a stylesheet injected for the screenshot would be inline style, which the page's CSP refuses.
  const sticky = (on) =>
    page.evaluate(
      (v) => {
        for (const h of document.querySelector('scalescope-explorer').shadowRoot.querySelectorAll('ss-headline'))
          h.style.position = v;
      },
      on ? '' : 'static',
    );
  await sticky(false);
  try {
    await page.screenshot({
      path: path.join(SHOTS, name),
      fullPage: true,
      clip: { x: 0, y: top, width: page.viewportSize().width, height: b.y + scrollY + b.height - top },
    });
  } finally {
    await sticky(true);
  }
}

/** Waits for the serving search of the controls on screen (it runs by itself once they rest) and its table. */
async function servingSearched(page) {
  await page.waitForFunction(
    () => {
      const h = window.__scalescope;
      const panel = document.querySelector('scalescope-explorer')?.shadowRoot?.querySelector('[data-serving-search]');
      return (
        h.servingSearch?.query === h.stateQuery &&
        panel?.querySelector('[data-search-status]')?.textContent?.includes('evaluated') &&
        panel.querySelector('table tbody tr')
      );
    },
    null,
    { timeout: 20000 },
  );
}

/**
 * Runs the plan search for the controls on screen and waits until its last chunk is in; samples the progress bar
 * while it runs. Returns the search's hook (wall time from the click, chunks, progress after each) and the bar's values.
 */
async function findPlans(page) {
  await page.evaluate(() => {
    delete window.__scalescope.search;
    const root = document.querySelector('scalescope-explorer').shadowRoot;
    const seen = (window.__progressSeen = []);
    window.__progressTimer = setInterval(() => {
      const bar = root.querySelector('[data-plans] [role="progressbar"]');
      if (bar) seen.push(Number(bar.getAttribute('aria-valuenow')));
    }, 10);
  });
  await page.locator('#find-plans').click();
  await page.waitForFunction(
    () => {
      const h = window.__scalescope;
      return (
        h.search?.complete &&
        h.search.query === h.stateQuery &&
        (h.search.listed === 0 ||
          document.querySelector('scalescope-explorer')?.shadowRoot?.querySelector('[data-plan]'))
      );
    },
    null,
    { timeout: 30000 },
  );
  const seen = await page.evaluate(() => {
    clearInterval(window.__progressTimer);
    const root = document.querySelector('scalescope-explorer').shadowRoot;
    return [
      ...window.__progressSeen,
      Number(root.querySelector('[data-plans] [role="progressbar"]')?.getAttribute('aria-valuenow')),
    ];
  });
  return { ...(await page.evaluate(() => window.__scalescope.search)), seen };
}

/** The TP of every plan listed. */
const listedTp = (page) => page.locator('[data-plan]').evaluateAll((els) => els.map((e) => Number(e.dataset.tp)));

/** Is the element's box inside the window (the whole height of it, at least 1 px wide)? */
async function inViewport(page, selector) {
  return page
    .locator(selector)
    .first()
    .evaluate((el) => {
      const r = el.getBoundingClientRect();
      return r.width > 0 && r.top >= -1 && r.bottom <= window.innerHeight + 1;
    });
}

/** The chart labels drawn under `selector` (charts/labels.ts), and each pair whose boxes, as drawn, overlap. */
async function chartLabels(page, selector) {
  return page.locator(`${selector} g.point-labels text`).evaluateAll((texts) => {
    const boxes = texts.map((t) => t.getBoundingClientRect());
    const overlaps = [];
    boxes.forEach((a, i) =>
      boxes.forEach((b, j) => {
        if (i < j && a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom)
          overlaps.push(`${texts[i].textContent} × ${texts[j].textContent}`);
      }),
    );
    return { texts: texts.map((t) => t.textContent), overlaps };
  });
}

/** A screenshot from the top of `from` to the bottom of `to` (locators), the window's width. */
async function shotBetween(page, from, to, name) {
  const [a, b, scrollY] = [await from.boundingBox(), await to.boundingBox(), await page.evaluate(() => window.scrollY)];
  await page.screenshot({
    path: path.join(SHOTS, name),
    fullPage: true,
    clip: { x: 0, y: a.y + scrollY, width: page.viewportSize().width, height: b.y + b.height - a.y },
  });
}

async function compareWithCli(page, name, scenario, pairs) {
  const ref = cli(scenario);
  check(
    `${name}: the CLI answers the same scenario`,
    ref.ok === true,
    JSON.stringify(ref.diagnostics ?? []).slice(0, 300),
  );
  for (const [id, p] of pairs) {
    const shown = await metric(page, id);
    const want = get(ref.result, p);
    check(
      `${name}: ${id} on the page equals the CLI's ${p}`,
      shown !== undefined && shown === want,
      `page ${shown}, CLI ${want}`,
    );
  }
  return ref;
}

const TRAINING_PAIRS = [
  ['step_s', 'time.step_s'],
  ['mfu_frac', 'mfu_frac'],
  ['tokens_per_s', 'tokens_per_s'],
  ['memory_bytes', 'memory.total_bytes'],
  ['train_time_s', 'cost.train_time_s'],
  ['usd_per_hour', 'cost.usd_per_hour'],
  ['train_usd', 'cost.train_usd'],
  ['wall_time_s', 'goodput.wall_time_s'],
  ['wall_usd', 'goodput.wall_usd'],
];
const SERVING_PAIRS = [
  ['ttft_s', 'time_to_first_token_s'],
  ['latency_per_token_s', 'latency_per_token_s'],
  ['tokens_per_s', 'tokens_per_s'],
  ['usd_per_million_output_tokens', 'usd_per_million_output_tokens'],
  ['replica_memory_bytes', 'memory.total_bytes'],
];

// Hand-written, from docs/api.md: what the page must send for these controls (engine defaults left out).
const training = (mesh, par, batch = 4194304, model = { preset: 'llama-3-70b' }) => ({
  hardware: { preset: mesh.hw ?? 'tpu-v5p' },
  model,
  mesh: { shape: mesh.shape },
  query: { kind: 'training_step', batch_tokens: batch, seq_len: 4096, parallelism: par, train_tokens: 15e12 },
});
const DEFAULT_TRAINING = () => training({ shape: [16, 16, 8] }, { fsdp: ['X', 'Y'], tensor: ['Z'] });

/**
 * A profile of one's own for the H100: the one `scalescope calibrate` writes from the five runs of
 * examples/calibration/my-cluster-runs.json (issue 18's round trip; CTest cli_calibrate_round_trip checks the file is
 * what the command writes today).
 */
function ownProfile() {
  const file = path.join(REPO, 'examples/calibration/my-cluster-h100-sxm.json');
  return { file, profile: JSON.parse(fs.readFileSync(file, 'utf8')) };
}

// ------------------------------------------------------------------------------------------------ run

async function main() {
  if (!fs.existsSync(path.join(SITE, 'index.html'))) throw new Error(`${SITE} has no index.html: run vite build first`);
  fs.mkdirSync(SHOTS, { recursive: true });
  const { server, url } = await serve(SITE, 0);
  const browser = await launch({ viewport: DESKTOP });
  const { context } = browser;
  await watchCsp(context);
  const figures = {};
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    collectErrors(page, consoleErrors);

    await step('first load: a plan that fits, with no warning', async () => {
      await open(page, url);
      figures.interactiveMs = await page.evaluate(() => window.__scalescope.interactiveMs);
      figures.engineLoadMs = await page.evaluate(() => window.__scalescope.engineLoadMs);
      check('time to interactive is measured', Number.isFinite(figures.interactiveMs));
      // The first load: every file of the site the page fetched before it was interactive (the document, its
      // scripts, the engine's glue and wasm), each at its gzipped size. Plot, the chapters and the worker come after.
      const fetched = await page.evaluate(() => [
        location.href,
        ...performance
          .getEntriesByType('resource')
          .filter((e) => e.startTime < window.__scalescope.interactiveMs)
          .map((e) => e.name),
      ]);
      const firstFiles = [...new Set(fetched.map((u) => new URL(u).pathname.replace(/^\//, '') || 'index.html'))]
        .map((rel) => path.join(SITE, rel.endsWith('/') ? `${rel}index.html` : rel))
        .filter((f) => fs.existsSync(f));
      figures.firstLoadFiles = firstFiles.map((f) => path.relative(SITE, f));
      figures.firstLoadGzipBytes = firstFiles.reduce((a, f) => a + gzipSize(f), 0);
      check(
        'the first load is the page, its scripts and the engine (no charts, chapters or widgets)',
        figures.firstLoadFiles.includes('engine/scalescope_engine.wasm') &&
          !figures.firstLoadFiles.some((f) => /plots-|chapters\/|widget/.test(f)),
        figures.firstLoadFiles.join(', '),
      );
      check(
        'the default plan fits in HBM with no warning (headline status "ok")',
        (await status(page)) === 'ok',
        await status(page),
      );
      check('no diagnostics on first load', (await page.locator('[data-diagnostics] li').count()) === 0);
      const fidelity = await page.locator('[data-fidelity]').getAttribute('data-fidelity');
      check(
        'the headline shows the calibrated estimate with its error band, and the book’s ideal under each number',
        fidelity === 'calibrated' &&
          /median .*over \d+ held-out/.test((await page.locator('[data-fidelity]').textContent()) ?? '') &&
          (await page.locator('[data-headline] [data-ideal="step_s"]').count()) === 1,
        fidelity,
      );
      check(
        'a toggle chooses which model the charts draw',
        (await page.locator('[data-headline] [data-fid]').count()) === 2,
      );
      await shot(page, 'explorer-default.png');
      check('the URL carries the version key', new URL(page.url()).search === '' || page.url().includes('v=1'));
    });

    // Issue 20's time budgets (time to interactive, chart lag, a search's wall time) are measured and reported at
    // the end, never checked: a busy machine is not the page's time (a fresh clone's run once failed at 611 ms > 600).
    await step('time to interactive: the median of three fresh browsers (issue 20, reported)', async () => {
      // Two more first navigations, each in a new browser with an empty profile, beside the first step's: one slow
      // start of the machine is not the page's time.
      const times = [figures.interactiveMs];
      for (let i = 0; i < 2; i++) {
        const fresh = await launch({ viewport: DESKTOP });
        try {
          const p = await fresh.context.newPage();
          await open(p, url);
          times.push(await p.evaluate(() => window.__scalescope.interactiveMs));
        } finally {
          await fresh.close();
        }
      }
      figures.interactiveRunsMs = times;
      figures.interactiveMedianMs = percentile(times, 0.5);
    });

    await step('default numbers equal the CLI', async () => {
      const ref = await compareWithCli(page, 'default', DEFAULT_TRAINING(), TRAINING_PAIRS);
      // Issue 38: under the numbers, the time to train once chips fail, in the engine's own words.
      const goodput = page.locator('ss-headline:not(.phone-strip) [data-goodput]');
      const goodputText = (await goodput.textContent()) ?? '';
      const goodputFrac = Number(await goodput.getAttribute('data-goodput'));
      check(
        'the headline says the time to train with failures: interruptions and a goodput, the CLI’s sentence',
        /\d+ interruptions/.test(goodputText) &&
          /goodput \d+(\.\d+)?%/.test(goodputText) &&
          goodputText.includes(ref.result?.goodput?.text ?? '?'),
        goodputText,
      );
      check(
        'its goodput fraction is between 0 and 1, the CLI’s',
        goodputFrac > 0 && goodputFrac <= 1 && goodputFrac === ref.result?.goodput?.goodput_frac,
        `${goodputFrac}`,
      );
      check('time and memory bars are drawn', (await page.locator('ss-training-results figure.hb').count()) >= 2);
      check('thresholds are listed in words', (await page.locator('[data-threshold]').count()) >= 1);
      const badges = await page
        .locator('[data-threshold]:has([data-least-room])')
        .evaluateAll((els) => els.map((e) => [e.className, e.querySelector('[data-least-room]').textContent]));
      check(
        'the threshold with least room is called binding only when it is not met (issue 22)',
        badges.length === 1 && badges.every(([cls, text]) => text === (cls === 'ok' ? 'least room' : 'binding')),
        JSON.stringify(badges),
      );
      const hbText = await page.locator('ss-training-results .hb details.numbers').count();
      check('every bar figure has its numbers as a table', hbText >= 2, `${hbText}`);
    });

    await step('sliders move numbers and the URL; sliders announce real values', async () => {
      const before = await metric(page, 'tokens_per_s');
      await press(page, 'tp', 'ArrowLeft'); // TP 8 -> 4
      await press(page, 'batch', 'ArrowLeft'); // 4M -> 2M tokens
      check('throughput changed', (await metric(page, 'tokens_per_s')) !== before);
      await page.waitForFunction(
        () => window.location.search.includes('tp=4') && window.location.search.includes('batch=2097152'),
        null,
        { timeout: 5000 },
      );
      check(
        'the text field beside the slider follows it',
        (await page.locator('ss-controls input.num[data-key="tp"]').inputValue()) === '4',
      );
      await compareWithCli(
        page,
        'after moves',
        training({ shape: [16, 16, 4] }, { fsdp: ['X', 'Y'], tensor: ['Z'] }, 2097152),
        TRAINING_PAIRS,
      );
      const batchText = await page
        .locator('ss-controls input[type="range"][data-key="batch"]')
        .getAttribute('aria-valuetext');
      check(
        'a log-scale slider announces its value and unit, not its position',
        batchText === '2,097,152 tokens (2.1M)',
        batchText,
      );
      await unfold(page);
      const sliders = await page.locator('ss-controls input[type="range"]').evaluateAll((els) =>
        els.map((e) => ({
          key: e.dataset.key,
          text: e.getAttribute('aria-valuetext') ?? '',
          field: e.closest('.pair')?.querySelector('input.num')?.value ?? '',
        })),
      );
      // The announced value is the field's value (its digits first), with its unit where the row has one; an unset row
      // whose default is a word (an MoE capacity: "dropless") announces that word.
      const bad = sliders.filter(
        (s) => s.field === '' || (s.text !== s.field && parseFloat(s.text.replace(/,/g, '')) !== Number(s.field)),
      );
      check(
        `every slider (${sliders.length}) has aria-valuetext with its value`,
        sliders.length >= 20 && bad.length === 0,
        JSON.stringify(bad.slice(0, 3)),
      );
      await shot(page, 'explorer-moved.png');
    });

    await step('text fields take 16M, 8k, 4Ki and 1.5e6', async () => {
      await type(page, 'batch', '16M');
      check('"16M" is accepted as 16,000,000 tokens', (await stateQuery(page)).includes('batch=16000000'));
      await type(page, 'seq', '8k');
      check('"8k" is accepted as 8000', (await stateQuery(page)).includes('seq=8000'));
      await type(page, 'seq', '4Ki');
      check('"4Ki" is accepted as 4096 (the default again)', !(await stateQuery(page)).includes('seq='));
      await type(page, 'batch', '1.5e6');
      check('"1.5e6" is accepted', (await stateQuery(page)).includes('batch=1500000'));
      const slider = await page.locator('ss-controls input[type="range"][data-key="seq"]').inputValue();
      check('the slider follows the text field (4096 is the 6th power of two from 128)', slider === '5', slider);
      const field = page.locator('ss-controls input.num[data-key="batch"]');
      await field.fill('lots');
      await field.press('Enter');
      const msg = await field.evaluate((el) => el.validationMessage);
      check(
        'a value it cannot read is refused in words, and the field keeps the text',
        /16M, 8k, 4Ki and 1\.5e6/.test(msg) && (await field.inputValue()) === 'lots',
        msg,
      );
      await type(page, 'batch', '4194304');
    });

    await step('fixed chip count and valid degrees only', async () => {
      await open(page, `${url}?v=1&chips=2048`);
      await press(page, 'tp', 'ArrowRight'); // 8 -> 16: FSDP takes the rest
      const q = await stateQuery(page);
      check(
        'moving TP with the chip count fixed rebalances FSDP (2048 = 128 × 16)',
        q.includes('chips=2048') && q.includes('fsdp=128') && q.includes('tp=16'),
        q,
      );
      check(
        'chips is a URL key',
        (await page.evaluate(() => window.location.search)).includes('chips=2048') || q.includes('chips=2048'),
      );
      check(
        'FSDP is derived, not a slider of its own, while the count is fixed',
        await page.locator('ss-controls input[type="range"][data-key="fsdp"]').isDisabled(),
      );
      await open(page, `${url}?v=1&model=llama-2-13b&tp=1&fsdp=64`);
      const seen = [];
      for (let i = 0; i < 12; i++) {
        seen.push(Number(await page.locator('ss-controls input.num[data-key="tp"]').inputValue()));
        const before = await stateQuery(page);
        await page.locator('ss-controls input[type="range"][data-key="tp"]').focus();
        await page.keyboard.press('ArrowRight');
        if ((await stateQuery(page)) === before) break;
        await settled(page, before);
      }
      check(
        'TP on a 40-head model steps through divisors only (never 16, 32 or 64)',
        seen.length > 2 && seen.every((v) => 40 % v === 0),
        seen.join(','),
      );
      // Stages need not divide the layers (the busiest sets the pace): PP steps through 1, 2, 3, 4, 5 on 80 layers.
      await open(page, `${url}?v=1&hw=h100-sxm&fsdp=8&tp=8`);
      const stages = [];
      for (let i = 0; i < 5; i++) {
        stages.push(Number(await page.locator('ss-controls input.num[data-key="pp"]').inputValue()));
        await press(page, 'pp', 'ArrowRight');
      }
      check(
        'PP steps through every stage count, not only divisors of the 80 layers',
        stages.join(',') === '1,2,3,4,5',
        stages.join(','),
      );
      await open(page, `${url}?v=1&chips=1024`);
      check(
        'a link with chips=1024 sets FSDP to 128 (TP 8)',
        (await stateQuery(page)).includes('fsdp=128') && (await metric(page, 'chips')) === 1024,
      );
    });

    await step('uneven pipeline stages: the numbers of the CLI, and the busiest stage named', async () => {
      await open(page, `${url}?v=1&hw=h100-sxm&fsdp=8&pp=3&tp=8&mb=8&zero=1`);
      await compareWithCli(
        page,
        '3 stages over 80 layers',
        training(
          { hw: 'h100-sxm', shape: [3, 8, 8] },
          { pipeline: ['X'], fsdp: ['Y'], tensor: ['Z'], zero_stage: 1, microbatches: 8 },
        ),
        TRAINING_PAIRS,
      );
      const note = (await page.locator('[data-stage-imbalance]').textContent()) ?? '';
      check(
        'the results say the stages are uneven and the busiest holds 27 of the 80 layers',
        /3 stages do not divide the 80 layers/.test(note) && /holds 27/.test(note),
        note.trim().slice(0, 160),
      );
      await open(page, `${url}?v=1&hw=h100-sxm&fsdp=8&pp=4&tp=8&mb=8&zero=1`);
      check(
        'even stages (4 over 80) say nothing about imbalance',
        (await page.locator('[data-stage-imbalance]').count()) === 0,
      );
    });

    await step('reload from the URL', async () => {
      await open(page, `${url}?v=1&tp=4&batch=2097152`);
      const ids = TRAINING_PAIRS.map(([id]) => id);
      const before = await Promise.all(ids.map((id) => metric(page, id)));
      await open(page, page.url());
      const after = await Promise.all(ids.map((id) => metric(page, id)));
      check(
        'a reload restores every number',
        JSON.stringify(before) === JSON.stringify(after),
        `${before} vs ${after}`,
      );
      check(
        'a reload restores the controls',
        (await page.locator('ss-controls input.num[data-key="tp"]').inputValue()) === '4',
      );
    });

    await step('the error band says where it holds: the fitted runs, or the transfer band and why', async () => {
      await open(page, url);
      const fitted = (await page.locator('[data-fidelity]').textContent()) ?? '';
      check('the default plan lies inside the v5p profile’s runs: its own band', !/transfer band/.test(fitted), fitted);
      await open(page, `${url}?v=1&seq=32768`);
      const transfer = (await page.locator('[data-fidelity]').textContent()) ?? '';
      check(
        'a 32k sequence is past the fitted runs: the family’s transfer band, with the reason (issue 18)',
        /transfer band/.test(transfer) &&
          /outside the runs behind the tpu-v5p profile: 32768 tokens a sequence/.test(transfer),
        transfer,
      );
    });

    await step(
      'the error band: a chip without runs of its own, and an expert group wider than the fitted runs',
      async () => {
        await open(page, `${url}?v=1&hw=tpu7x`);
        const family = (await page.locator('ss-headline:not(.phone-strip) [data-fidelity]').textContent()) ?? '';
        check(
          'TPU7x has no profile of its own: the TPU family’s wider band, and why',
          /has no runs of its own: the TPU family's profile, a wider band/.test(family) && /profile tpu,/.test(family),
          family,
        );
        await open(page, `${url}?v=1&hw=h100-sxm&model=deepseek-v3&fsdp=1&zero=1&tp=1&ep=256`);
        const wide = (await page.locator('ss-headline:not(.phone-strip) [data-fidelity]').textContent()) ?? '';
        const ref = cli(
          training({ hw: 'h100-sxm', shape: [256] }, { expert: 256 }, 4194304, { preset: 'deepseek-v3' }),
        );
        const band = ref.result?.calibration?.error_band?.text ?? '(no band from the CLI)';
        check(
          '256-way EP is past the h100-sxm profile’s runs: the transfer band names the expert group, as the CLI does',
          /outside the runs behind the h100-sxm profile: 256-way expert parallelism/.test(wide) && wide.includes(band),
          `page: ${wide} | CLI: ${band}`,
        );
      },
    );

    await step('the book’s ideal is called a lower bound only where it is one (issue 20)', async () => {
      await open(page, url);
      const plain = (await page.locator('ss-headline:not(.phone-strip) [data-fidelity]').textContent()) ?? '';
      check(
        'the default plan: the book’s ideal, a lower bound',
        plain.includes('a lower bound, is under each number') &&
          (await page.locator('[data-ideal-above]').count()) === 0,
        plain,
      );
      // Qwen3-30B-A3B with EP 16 across H100 nodes: the book's all-to-all is priced above the calibrated dispatch.
      await open(page, `${url}?v=1&hw=h100-sxm&model=qwen3-30b-a3b&fsdp=1&tp=4&ep=16&batch=4194304`);
      const above = (await page.locator('ss-headline:not(.phone-strip) [data-fidelity]').textContent()) ?? '';
      const step = await metric(page, 'step_s');
      const ideal = Number(
        await page.locator('ss-headline:not(.phone-strip) [data-ideal="step_s"]').getAttribute('data-value'),
      );
      check(
        'an ideal above the estimate is not called a lower bound, and the page says which collectives and why',
        ideal > step &&
          !above.includes('a lower bound, is under') &&
          /here it is above the estimate: .*expert collectives.*not a lower bound/.test(above),
        `${step} s vs ideal ${ideal} s: ${above}`,
      );
    });

    await step('compare: pin, change, ghost bars, reload', async () => {
      await open(page, url);
      const before = await stateQuery(page);
      await page.locator('#pin').click();
      await settled(page, before);
      check(
        'focus stays on the pin button after pinning',
        await page.evaluate(() => document.querySelector('scalescope-explorer').shadowRoot.activeElement?.id === 'pin'),
      );
      await press(page, 'tp', 'ArrowLeft');
      const rows = await page.locator('table.compare tbody tr').count();
      const delta = await page.locator('[data-delta="step_s"]').textContent();
      check(
        'the compare table shows pinned vs now with deltas',
        rows >= 5 && /%|same/.test(delta ?? ''),
        `${rows} rows, delta ${delta}`,
      );
      check(
        'the pinned plan is drawn as ghost bars behind the live ones',
        (await page.locator('ss-training-results .track .ghost').count()) >= 3,
      );
      await page.waitForFunction(() => window.location.search.includes('pin='), null, { timeout: 5000 });
      await open(page, page.url());
      check(
        'the pinned comparison survives a reload',
        (await page.locator('[data-compare]').count()) === 1 &&
          (await page.locator('ss-training-results .track .ghost').count()) >= 3,
      );
      await shot(page, 'explorer-compare.png');
      // A plan that does not fit: marked in the compare table, never a green "better".
      await type(page, 'batch', '256M');
      check(
        'a plan that does not fit greys the headline and says so',
        (await status(page)) === 'no-fit' && (await page.locator('.headline-block.invalid').count()) === 1,
      );
      check(
        'the compare table marks it and shows no "better" change',
        (await page.locator('[data-compare-mark]').count()) >= 1 &&
          (await page.locator('table.compare td.better').count()) === 0,
      );
      await page.locator('#unpin').click();
      await page.waitForFunction(
        () => !document.querySelector('scalescope-explorer').shadowRoot.querySelector('[data-compare]'),
      );
      check(
        'after unpinning, focus moves to the pin button',
        await page.evaluate(() => document.querySelector('scalescope-explorer').shadowRoot.activeElement?.id === 'pin'),
      );
    });

    await step('the headline stays in view after moving the last control (1400 px)', async () => {
      await open(page, url);
      await unfold(page);
      const last = page.locator('ss-controls input[type="range"]').last();
      const key = await last.getAttribute('data-key');
      const before = await stateQuery(page);
      await last.scrollIntoViewIfNeeded();
      await last.focus();
      await page.keyboard.press('ArrowLeft');
      await settled(page, before);
      check(
        `after moving the last control (${key}) the headline is inside the window at 1400 px`,
        await inViewport(page, '[data-headline]'),
      );
      check(
        'and its numbers are the new ones',
        (await status(page)) !== null &&
          (await page.locator('[data-headline] [data-metric="step_s"]').getAttribute('data-value')) !== '',
      );
    });

    await step('slider to paint: the numbers paint in the slider’s own frame', async () => {
      await open(page, url);
      // Deterministic part: after the input event and its microtasks, before any frame, the DOM shows the new numbers.
      const sameTurn = await page.evaluate(async () => {
        const ex = document.querySelector('scalescope-explorer');
        const slider = ex.shadowRoot.querySelector('ss-controls input[type="range"][data-key="batch"]');
        const headline = ex.shadowRoot.querySelector('ss-headline:not(.phone-strip)');
        const before = headline.querySelector('[data-metric="step_s"]').getAttribute('data-value');
        let framed = false;
        requestAnimationFrame(() => (framed = true));
        slider.value = String(Number(slider.value) - 1);
        slider.dispatchEvent(new Event('input', { bubbles: true }));
        for (let i = 0; i < 5; i++) {
          await ex.updateComplete;
          await headline.updateComplete;
        }
        const after = headline.querySelector('[data-metric="step_s"]').getAttribute('data-value');
        const h = window.__scalescope;
        return { framed, changed: before !== after, fresh: h.resultQuery === h.stateQuery };
      });
      check(
        'a slider input updates the numbers in the DOM before the next frame (page-side engine, no worker round trip)',
        !sameTurn.framed && sameTurn.changed && sameTurn.fresh,
        JSON.stringify(sameTurn),
      );
      await open(page, url);
      await page.evaluate(() => (window.__scalescope.latencies.length = 0));
      // A walk over distinct (batch, sequence) pairs, so that no move is answered from the page's cache.
      let dir = 'ArrowLeft';
      let batchPos = 12; // index of the default batch among the powers of two from 1024
      for (let i = 0; i < MOVES; i++) {
        if ((dir === 'ArrowLeft' && batchPos <= 3) || (dir === 'ArrowRight' && batchPos >= 17)) {
          await press(page, 'seq', 'ArrowRight');
          dir = dir === 'ArrowLeft' ? 'ArrowRight' : 'ArrowLeft';
          continue;
        }
        await press(page, 'batch', dir);
        batchPos += dir === 'ArrowLeft' ? -1 : 1;
      }
      const lat = await page.evaluate(() => window.__scalescope.latencies);
      const painted = lat.map((l) => l.painted);
      figures.sliderMoves = lat.length;
      figures.paintMedianMs = percentile(painted, 0.5);
      figures.paintP95Ms = percentile(painted, 0.95);
      figures.renderMedianMs = percentile(
        lat.map((l) => l.rendered),
        0.5,
      );
      figures.renderP95Ms = percentile(
        lat.map((l) => l.rendered),
        0.95,
      );
      figures.engineMedianMs = percentile(
        lat.map((l) => l.engine),
        0.5,
      );
      figures.litUpdateMedianMs = percentile(
        lat.map((l) => l.update),
        0.5,
      );
      const inputFrames = lat.map((l) => l.inputFrame).filter((x) => Number.isFinite(x));
      figures.inputFrameMedianMs = percentile(inputFrames, 0.5);
      figures.inputFrameP95Ms = percentile(inputFrames, 0.95);
      figures.sameFrameShare =
        lat.filter((l) => Number.isFinite(l.inputFrame) && l.painted - l.inputFrame < 1).length / lat.length;
      figures.localShare = lat.filter((l) => l.local).length / lat.length;
      figures.tripsPerMove = lat.reduce((a, l) => a + l.trips, 0) / lat.length;
      check(`timed at least 50 of ${MOVES} slider moves`, lat.length >= Math.min(50, MOVES), `${lat.length}`);
      // At most two wasm calls: the numbers, and the plan_mesh question when it changed (the sequence length is in it,
      // for CP's stops; a batch move finds its answer in the page's cache).
      check(
        'every move was answered by the page’s own engine: no worker round trip, at most two wasm calls',
        lat.every((l) => l.local && l.trips === 0 && l.calls <= 2),
        JSON.stringify(lat.find((l) => !l.local || l.trips > 0 || l.calls > 2)),
      );
      check(
        'a batch move asks the engine once: the mesh question is answered from the page’s cache',
        lat.filter((l) => l.calls === 1).length >= lat.length / 2,
        JSON.stringify(lat.map((l) => l.calls)),
      );
    });

    await step(
      'charts follow a drag: one input per frame for a second, the charts at most 50 ms behind the numbers',
      async () => {
        await open(page, url);
        await chartsDrawn(page);
        // A pointer drag's rhythm: the batch slider moves one stop in each animation frame, back and forth.
        const drag = await page.evaluate(async () => {
          const ex = document.querySelector('scalescope-explorer');
          const slider = ex.shadowRoot.querySelector('ss-controls input[type="range"][data-key="batch"]');
          const h = window.__scalescope;
          h.chartLags.length = 0;
          const lat0 = h.latencies.length;
          const start = Number(slider.value);
          for (let i = 0; i < 60; i++) {
            await new Promise((r) => requestAnimationFrame(r));
            const k = i % 16; // a triangle: eight stops down, eight back up
            slider.value = String(start - (k < 8 ? k + 1 : 16 - k));
            slider.dispatchEvent(new Event('input', { bubbles: true }));
          }
          return { lags: [...h.chartLags], moves: h.latencies.length - lat0 };
        });
        await chartsDrawn(page);
        const lags = drag.lags;
        figures.chartLagMedianMs = percentile(lags, 0.5);
        figures.chartLagP95Ms = percentile(lags, 0.95);
        figures.chartDrawsInDrag = lags.length;
        figures.dragMoves = drag.moves;
        // How often they redraw is the machine's speed (reported below); that they redraw during the drag is the page's.
        check(
          'the charts redraw while the slider moves, not only when it rests',
          lags.length >= 3,
          `${lags.length} draws in 60 frames`,
        );
      },
    );

    await step('plan search: only plans that fit without a warning; apply keeps focus', async () => {
      await open(page, url);
      // A reader's first click comes once the page has drawn; by then the worker has run its warm-up chunk (the
      // explorer's warmUpSearch), so the first search does not pay for the wasm reaching its optimising tier.
      await chartsDrawn(page);
      await page.waitForFunction(() => window.__scalescope.warmUpMs !== undefined, null, { timeout: 10000 });
      figures.warmUpMs = await page.evaluate(() => window.__scalescope.warmUpMs);
      const run = await findPlans(page);
      const rows = await page.locator('[data-plan]').count();
      check('the best plans are listed', rows >= 3, `${rows} rows`);
      check(
        'the search ran in chunks, the progress rising after each',
        run.chunks > 2 && run.fracs.every((f, i) => i === 0 || f > run.fracs[i - 1]) && run.fracs.at(-1) === 1,
        JSON.stringify(run.fracs),
      );
      check(
        'the progress bar moved while the search ran and ends at 100%',
        run.seen.some((v) => v > 0 && v < 100) && run.seen.at(-1) === 100,
        JSON.stringify([...new Set(run.seen)]),
      );
      figures.planSearchWallMs = run.wallMs;
      figures.planSearchChunks = run.chunks;
      // Issue 20's 1 s budget on the page's first search is reported with the figures, not checked. That the bounded
      // search ends with the exhaustive one's plans is held on this very space by the release suite
      // (plan_search_budget_exact), and native and wasm agree to the bit on every golden search.
      const header = (await page.locator('table.plans thead').textContent()) ?? '';
      check(
        'the plan table names step, MFU, memory, binding threshold, time and cost to train',
        ['Step', 'MFU', 'Memory', 'Binding', 'Time and cost to train'].every((w) => header.includes(w)),
        header,
      );
      check(
        'the ranking says which model made it (calibrated, with the book’s ideal step under each plan)',
        (await page.locator('[data-calibrated-ranking]').count()) === 1 &&
          (await page.locator('[data-plan-ideal]').count()) === rows,
      );
      const ties = await page.locator('[data-tie], [data-near-tie]').allTextContents();
      check(
        'ties say what differs, in words (no engine notation)',
        ties.length > 0 && ties.every((x) => / vs /.test(x) && !/@/.test(x)),
        ties.slice(0, 2).join(' | '),
      );
      const layouts = await page.locator('[data-plan-layout]').allTextContents();
      check(
        'every plan says where its strategies sit, parts of torus axes in words',
        layouts.length === rows && layouts.some((x) => /(inner|outer|middle) \d+ of [XYZ]/.test(x)),
        layouts.slice(0, 2).join(' | '),
      );
      const front = await page.evaluate(() => window.__scalescope.search?.paretoListed);
      check(
        'plans on the Pareto front are marked',
        (await page.locator('[data-pareto]').count()) === front,
        `${front} on the front`,
      );
      figures.planSearchEngineMs = await page.evaluate(() => window.__scalescope.search?.engineMs);
      figures.planSearchEvaluated = await page.evaluate(() => window.__scalescope.search?.evaluated);
      for (const i of [2, 0]) {
        const want = Number(await page.locator(`[data-plan="${i}"]`).getAttribute('data-step'));
        const before = await stateQuery(page);
        await page.locator(`[data-apply="${i}"]`).focus();
        await page.keyboard.press('Enter');
        await settled(page, before);
        check(
          `apply plan ${i + 1}: the step time shown equals the plan's step_s`,
          (await metric(page, 'step_s')) === want,
        );
        check(
          `apply plan ${i + 1}: the applied plan fits and raises no warning`,
          (await status(page)) === 'ok' && (await page.locator('[data-diagnostics] li').count()) === 0,
          await status(page),
        );
        check(
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
      check(
        'the applied plan’s layout is the one its row names (the mesh under the controls)',
        row0.length > 0 && meshHelp.includes(row0),
        `${meshHelp} | ${row0}`,
      );
      await shot(page, 'explorer-plans.png');
      const step = await metric(page, 'step_s');
      await page.waitForFunction(() => window.location.search === '?' + window.__scalescope.stateQuery);
      await open(page, page.url());
      check('a reload keeps the applied plan’s step time', (await metric(page, 'step_s')) === step);
      const tpAtMin = await page
        .locator('ss-controls input[type="range"][data-key="tp"]')
        .evaluate((el) => Number(el.value) <= Number(el.min));
      await press(page, 'tp', tpAtMin ? 'ArrowRight' : 'ArrowLeft');
      check('moving a degree drops the plan’s layout', !(await stateQuery(page)).includes('layout='));
    });

    await step('plan search: cancel, restart on a change, a constraint, and the Pareto chart', async () => {
      await open(page, url);
      await page.locator('#find-plans').click();
      await page.waitForFunction(
        () => (window.__scalescope.search?.chunks ?? 0) >= 1 && !window.__scalescope.search.complete,
        null,
        { timeout: 20000 },
      );
      await page.locator('[data-cancel-search]').click();
      const cancelled = (await page.locator('[data-search-progress]').textContent()) ?? '';
      check(
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
        () =>
          window.__scalescope.search?.complete && window.__scalescope.search.query === window.__scalescope.stateQuery,
        null,
        { timeout: 30000 },
      );
      check(
        'changing a search option mid-search restarts it for the new one (TP at most 4)',
        (await stateQuery(page)).includes('pmaxtp=4'),
      );
      const tps = await listedTp(page);
      check(
        'max_tensor 4: every plan listed has TP at most 4',
        tps.length > 0 && tps.every((tp) => tp <= 4),
        JSON.stringify(tps),
      );
      await page.waitForFunction(() => window.location.search.includes('pmaxtp=4'), null, { timeout: 5000 });
      const points = page.locator('[data-pareto-chart] svg [data-point]');
      await points.first().waitFor({ timeout: 10000 });
      check('the Pareto chart has points, the listed plans ringed', (await points.count()) > 1);
      check(
        'the Pareto chart has its numbers as a table, memory against HBM in it',
        (await page.locator('ss-pareto details.numbers table tbody tr').count()) === (await points.count()) &&
          ((await page.locator('ss-pareto details.numbers thead').textContent()) ?? '').includes('Of HBM'),
      );
      check(
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
      check(
        'a chart asked to draw after it left the page draws nothing and throws nothing',
        late.length === 0,
        late.join(' | '),
      );
      const paretoLabels = await chartLabels(page, '.pareto-figure');
      check(
        'the Pareto chart’s labels (HBM, #1, does not fit) do not run into one another',
        paretoLabels.texts.length >= 2 && paretoLabels.overlaps.length === 0,
        `${paretoLabels.texts.join(' | ')}; overlapping: ${paretoLabels.overlaps.join(', ')}`,
      );
      await shot(page, 'explorer-pareto.png');
      const v = await axeViolations(page);
      check(
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
      check(
        'Enter on a Pareto point applies its plan (the step shown is the point’s)',
        (await metric(page, 'step_s')) === want,
        `${await metric(page, 'step_s')} vs ${want}`,
      );
      await page.waitForFunction(() => window.location.search === '?' + window.__scalescope.stateQuery);
      await open(page, page.url());
      check(
        'a reload keeps the search options (the link reproduces the search)',
        (await page.locator('select[data-key="pmaxtp"]').inputValue()) === '4',
      );
      // 8 chips cannot hold LLaMA-3 70B: with "only plans that fit" off the closest plans are listed, each marked.
      await open(page, `${url}?v=1&fsdp=8&tp=1&pfit=0`);
      const small = await findPlans(page);
      const noFit = await page.locator('[data-plan] [data-no-fit]').count();
      check(
        'must_fit off: plans out of HBM are listed, each marked as not fitting',
        small.complete && noFit > 0 && noFit === (await page.locator('[data-plan]').count()),
        `${noFit} marked`,
      );
    });

    await step(
      'plan search: the whole space for LLaMA-3 70B on 4096 H100s and on a full v5p pod, in the worker',
      async () => {
        for (const [name, query] of [
          ['h100', '?v=1&hw=h100-sxm&fsdp=512&tp=8'],
          ['pod', '?v=1&fsdp=280&tp=32'],
        ]) {
          await open(page, url + query);
          const run = await findPlans(page);
          figures[`planSearch_${name}`] = {
            wallMs: run.wallMs,
            engineMs: run.engineMs,
            chunks: run.chunks,
            evaluated: run.evaluated,
          };
          check(
            `${name}: the whole space searched with progress shown, best plans listed`,
            run.complete && run.plans > 0 && run.seen.at(-1) === 100,
            JSON.stringify(figures[`planSearch_${name}`]),
          );
        }
      },
    );

    await step('plan search on a GPU: the plan’s own mesh', async () => {
      await open(page, url + '?v=1&hw=h100-sxm&fsdp=32&tp=8');
      await findPlans(page);
      const want = Number(await page.locator('[data-plan="0"]').getAttribute('data-step'));
      const before = await stateQuery(page);
      await page.locator('[data-apply="0"]').click();
      await settled(page, before);
      check('GPU: the step time shown equals the first plan’s step_s', (await metric(page, 'step_s')) === want);
      check('GPU: the plan keeps the chip count', (await metric(page, 'chips')) === 256);
    });

    await step(
      'launch config: a searched plan as MaxText overrides and Megatron-Bridge YAML, a replica as vLLM and SGLang commands; the launch engine loads on the click',
      async () => {
        const fetched = [];
        const onRequest = (r) => {
          if (/scalescope_launch|launch-worker|launch-config/.test(r.url())) fetched.push(new URL(r.url()).pathname);
        };
        page.on('request', onRequest);
        try {
          await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(url).origin });
          const panelText = page.locator('[data-launch-text]');
          const said = () => page.locator('[data-launch-said]').textContent();
          await open(page, url);
          await findPlans(page);
          check(
            'launch config: nothing of it (its code, its worker, scalescope_launch.wasm) is fetched before a reader asks',
            fetched.length === 0,
            fetched.join(', '),
          );
          const tp = Number(await page.locator('[data-plan="0"]').getAttribute('data-tp'));
          await page.locator('[data-launch-plan="0"]').click();
          await panelText.waitFor({ timeout: 20000 });
          check(
            'launch config: the click fetches its code, its own worker and scalescope_launch.wasm',
            fetched.some((f) => f.endsWith('/engine/scalescope_launch.wasm')) &&
              fetched.some((f) => /launch-worker/.test(f)) &&
              fetched.some((f) => /launch-config/.test(f)),
            fetched.join(', '),
          );
          const tpuOptions = await page
            .locator('[data-launch-framework] option')
            .evaluateAll((os) => os.map((o) => o.value));
          check(
            'a TPU training plan: the engine writes it for MaxText alone',
            JSON.stringify(tpuOptions) === '["maxtext"]',
            JSON.stringify(tpuOptions),
          );
          const maxtext = (await panelText.textContent()) ?? '';
          check(
            'plan #1 as MaxText overrides: ici_fsdp_parallelism and the row’s TP',
            maxtext.includes('python3 -m MaxText.train') &&
              maxtext.includes('ici_fsdp_parallelism=') &&
              maxtext.includes(`ici_tensor_parallelism=${tp}`),
            maxtext.slice(0, 400),
          );
          check(
            'what the engine leaves to the reader is listed under the text',
            (await page.locator('[data-launch-undecided] li').count()) > 0,
          );
          await page
            .waitForFunction(
              () =>
                /Copied/.test(
                  document.querySelector('scalescope-explorer').shadowRoot.querySelector('[data-launch-said]')
                    ?.textContent ?? '',
                ),
              null,
              { timeout: 5000 },
            )
            .catch(() => {});
          const clipboard = await page
            .evaluate(() => navigator.clipboard.readText())
            .catch((e) => `(unread: ${e.message})`);
          check(
            'the click copies the text to the clipboard',
            clipboard === maxtext,
            `${await said()} | ${clipboard.slice(0, 80)}`,
          );
          const v = await axeViolations(page);
          check('no WCAG A/AA violation with a launch config open', v.length === 0, v.slice(0, 4).join(' || '));
          await launchShot(page, 'launch-config.png');

          await open(page, url + '?v=1&hw=h100-sxm&fsdp=32&tp=8');
          await findPlans(page);
          const gpuTp = Number(await page.locator('[data-plan="0"]').getAttribute('data-tp'));
          await page.locator('[data-launch-plan="0"]').click();
          await panelText.waitFor({ timeout: 20000 });
          const gpuOptions = await page
            .locator('[data-launch-framework] option')
            .evaluateAll((os) => os.map((o) => o.value));
          check(
            'a GPU training plan: Megatron-LM, Megatron-Bridge, MaxText and DeepSpeed',
            JSON.stringify(gpuOptions) === '["megatron","megatron-bridge","maxtext","deepspeed"]',
            JSON.stringify(gpuOptions),
          );
          await page.locator('[data-launch-framework]').selectOption('megatron-bridge');
          await page.waitForFunction(
            () =>
              document.querySelector('scalescope-explorer').shadowRoot.querySelector('[data-launch-text]')?.dataset
                .format === 'yaml',
            null,
            { timeout: 5000 },
          );
          const bridge = (await panelText.textContent()) ?? '';
          check(
            'plan #1 as Megatron-Bridge YAML: tensor_model_parallel_size is the row’s TP',
            bridge.includes(`tensor_model_parallel_size: ${gpuTp}`),
            bridge.slice(0, 400),
          );
          await page.locator('[data-launch-copy]').click();
          await page
            .waitForFunction(
              () =>
                /Copied: Megatron-Bridge/.test(
                  document.querySelector('scalescope-explorer').shadowRoot.querySelector('[data-launch-said]')
                    ?.textContent ?? '',
                ),
              null,
              { timeout: 5000 },
            )
            .catch(() => {});
          check(
            'Copy launch config copies the framework chosen',
            (await page.evaluate(() => navigator.clipboard.readText()).catch(() => '')) === bridge,
            await said(),
          );
          await launchShot(page, 'launch-config-gpu.png');

          await open(page, url + '?v=1&mode=serving&hw=h100-sxm');
          await page.locator('[data-launch-replica]').click();
          await panelText.waitFor({ timeout: 20000 });
          const servingOptions = await page
            .locator('[data-launch-framework] option')
            .evaluateAll((os) => os.map((o) => o.value));
          check(
            'the replica on screen: vLLM, SGLang and TensorRT-LLM on GPUs',
            JSON.stringify(servingOptions) === '["vllm","sglang","trtllm"]',
            JSON.stringify(servingOptions),
          );
          check(
            'the replica as a vLLM command with its TP',
            /vllm serve <model> [\s\S]*--tensor-parallel-size \d+/.test((await panelText.textContent()) ?? ''),
            ((await panelText.textContent()) ?? '').slice(0, 300),
          );
          await servingSearched(page);
          await page.locator('[data-launch-deployment="deployment-0"]').click();
          await page.waitForFunction(
            () =>
              /deployment 1/.test(
                document
                  .querySelector('scalescope-explorer')
                  .shadowRoot.querySelector('[data-serving-search] [data-launch-config]')
                  ?.getAttribute('aria-label') ?? '',
              ),
            null,
            { timeout: 20000 },
          );
          await page.locator('[data-serving-search] [data-launch-framework]').selectOption('sglang');
          const sglang = (await page.locator('[data-serving-search] [data-launch-text]').textContent()) ?? '';
          check(
            'a searched deployment as an SGLang command',
            sglang.includes('python3 -m sglang.launch_server') && /--tp-size \d+/.test(sglang),
            sglang.slice(0, 300),
          );
          await launchShot(page, 'launch-config-serving.png', '[data-serving-search]');
        } finally {
          page.off('request', onRequest);
        }
      },
    );

    await step('take it away: JSON, CSV, charts and the CLI command', async () => {
      const t0 = Date.now();
      await open(page, `${url}?v=1&eff_flops=0.5`);
      await chartsDrawn(page);
      const json = await saved(page, '[data-download="json"]');
      const parsed = JSON.parse(json.body.toString());
      check(
        'Download JSON: the scenario and the engine’s answer, equal to the page',
        json.name.endsWith('.json') &&
          parsed.answer.result.time.step_s === (await metric(page, 'step_s')) &&
          parsed.scenario.query.kind === 'training_step',
      );
      check(
        'Download JSON carries the inputs: the URL state and the non-default parameters',
        parsed.url_state === (await stateQuery(page)) &&
          parsed.inputs.some((r) => r.key === 'eff_flops' && r.value === 0.5),
      );
      const csv = csvLines(await saved(page, '[data-download="csv"]'));
      const profile = parsed.answer.result.calibration?.profile.id;
      check(
        'Download CSV starts with its inputs: the chip, model, fidelity and profile the engine used, then the non-default parameters with label and unit',
        csv[0] === 'input,label,value,unit' &&
          csv.includes('engine.chip,Chip,TPU v5p (tpu-v5p),') &&
          csv.some((l) => /^engine\.model,Model,.*\(llama-3-70b\),$/.test(l)) &&
          csv.includes(`engine.fidelity,Fidelity,${parsed.answer.result.fidelity},`) &&
          typeof profile === 'string' &&
          csv.includes(`engine.calibration_profile,Calibration profile,${profile},`) &&
          csv.includes('eff_flops,FLOPs efficiency,0.5,of peak'),
        csv.slice(0, 6).join(' | '),
      );
      const results = csvResults(csv, 'path,value,unit');
      check(
        'then path,value,unit rows with units, equal to the page',
        results !== null && results.rows.includes(`/time/step_s,${await metric(page, 'step_s')},s,`),
        csv.slice(0, 8).join(' | '),
      );
      const roof = (await saved(page, '[data-download="roofline-svg"]')).body.toString();
      const ops = (await page.locator('#roofline-chart details table tbody tr').count()) - 1; // less the ridge row
      check(
        'a chart downloads as SVG, with its title and one legend entry per series (the curve, each matmul, the ridge)',
        (await wellFormed(page, roof)) &&
          roof.includes('xmlns="http://www.w3.org/2000/svg"') &&
          roof.includes('>Roofline: the workload’s main matmuls on one chip</text>') &&
          (roof.match(/data-legend-entry/g) ?? []).length === ops + 2,
        `${(roof.match(/data-legend-entry/g) ?? []).length} entries, ${ops} matmuls`,
      );
      const png = await saved(page, '[data-download="scaling-png"]');
      fs.writeFileSync(path.join(SHOTS, 'export-scaling.png'), png.body);
      check(
        'a chart downloads as PNG',
        png.name.endsWith('.png') && png.body.subarray(1, 4).toString() === 'PNG' && png.body.length > 2000,
        `${png.body.length} B`,
      );
      fs.writeFileSync(
        path.join(SHOTS, 'export-roofline.png'),
        (await saved(page, '[data-download="roofline-png"]')).body,
      );
      figures.exportMs = Date.now() - t0;
      const cmd = (await page.locator('[data-cli]').textContent()) ?? '';
      const scenarioText = /^echo '(.*)' \| build\/release\/scalescope --summary -$/s
        .exec(cmd.trim())?.[1]
        ?.replace(/'\\''/g, "'");
      const fromCli = scenarioText ? cli(JSON.parse(scenarioText)) : null;
      check(
        'the CLI command shown reproduces the page’s step time',
        fromCli?.result?.time?.step_s === (await metric(page, 'step_s')),
        cmd.slice(0, 120),
      );
      const summary = execFileSync(CLI, ['--summary', '-'], { input: scenarioText ?? '' }).toString();
      check(
        'the command’s summary is a few readable lines',
        summary.split('\n').length < 16 && /step .* MFU/.test(summary) && /Try next:/.test(summary),
        summary.slice(0, 200),
      );
    });

    await step('charts: a text alternative each, and plans that do not fit marked', async () => {
      await open(page, `${url}?v=1&remat=none`);
      await chartsDrawn(page);
      await page
        .locator('ss-charts #goodput-chart details.numbers table')
        .waitFor({ state: 'attached', timeout: 15000 }); // in a closed <details>
      check(
        'every chart has its numbers as a table',
        (await page.locator('ss-charts .chart-figure details.numbers table').count()) === 3,
      );
      const fits = await page
        .locator('ss-charts #scaling-chart details table tbody tr td:nth-child(3)')
        .allTextContents();
      check(
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
      check(
        'scaling points that run with a warning are listed with it and drawn labelled, not as clean points (issue 22)',
        warnings.some((w) => /sequences are split/.test(w)) && labels.includes('warning'),
        warnings.join(' | '),
      );
    });

    await step(
      'goodput: the failure settings move the time to train with failures, charted against chips (issue 38)',
      async () => {
        const goodputOf = async () =>
          Number(await page.locator('ss-headline:not(.phone-strip) [data-goodput]').getAttribute('data-goodput'));
        await open(page, url);
        const byDefault = await goodputOf();
        check(
          'unset, the failure rate shows the engine’s value in use',
          Number(await page.locator('ss-controls input.num[data-key="fail"]').inputValue()) > 0 &&
            (await page.locator('ss-controls select[data-key="ckpt_mode"]').inputValue()) === '',
        );
        await open(page, `${url}?v=1&fail=0.0001&ckpt_mode=blocking`);
        const worse = await goodputOf();
        check(
          'more failures and blocking saves lower the headline’s goodput',
          worse > 0 && worse < byDefault,
          `${byDefault} -> ${worse}`,
        );
        check(
          'the controls show the link’s settings',
          (await page.locator('ss-controls input.num[data-key="fail"]').inputValue()) === '0.0001' &&
            (await page.locator('ss-controls select[data-key="ckpt_mode"]').inputValue()) === 'blocking',
        );
        const rows = page.locator('ss-charts #goodput-chart details.numbers table tbody tr');
        await rows.first().waitFor({ state: 'attached', timeout: 15000 });
        const dots = await page
          .locator('ss-charts #goodput-chart svg g[aria-label="dot"]')
          .evaluateAll((gs) => gs.map((g) => g.querySelectorAll('circle').length));
        check(
          'the time-to-train chart draws 11 chip counts, failure-free and with failures, the current one ringed',
          (await rows.count()) === 11 && dots[0] === 11 && dots[1] === 11 && dots[2] === 2,
          `${await rows.count()} rows, dots ${dots}`,
        );
        const note = (await page.locator('ss-charts [data-goodput-note]').textContent()) ?? '';
        check(
          'its note says where adding chips stops paying, in the engine’s number',
          /^Past [\d.]+[kM]? chips, failures cost more time than the chips save\.$/.test(note),
          note,
        );
      },
    );

    await step('plan search: the list downloads as CSV and JSON, with the search’s inputs', async () => {
      const t0 = Date.now();
      await open(page, `${url}?v=1&fsdp=16&tp=4`);
      const run = await findPlans(page);
      const file = await saved(page, '[data-download="plans-csv"]');
      const csv = csvLines(file);
      check(
        'the plan CSV’s inputs: the search’s chips and degrees with their labels and units, and the fidelity',
        csv[0].startsWith('input,label,value,unit,') &&
          csv.some((l) => l.startsWith('fsdp,FSDP,16,chips,')) &&
          csv.some((l) => l.startsWith('tp,Tensor parallel (TP),4,chips,')) &&
          csv.some((l) => l.startsWith('engine.fidelity,Fidelity,calibrated,')),
        csv.slice(0, 7).join(' | '),
      );
      const results = csvResults(csv, 'listed,engine_rank,plan,layout,settings,');
      check(
        'the plan CSV: one row per plan the engine ranked, the columns named',
        file.name === 'scalescope-plans.csv' &&
          results?.rows.length === run.plans &&
          ['step_s', 'mfu_frac', 'memory_bytes', 'fits', 'warnings', 'left_out_because'].every((c) =>
            results.header.includes(c),
          ),
        `${results?.rows.length} rows of ${run.plans}`,
      );
      const want = await page.locator('[data-plan="0"]').getAttribute('data-step');
      check(
        'the plan CSV’s first listed plan is the list’s first, with its step time',
        results?.rows.find((l) => l.startsWith('1,'))?.includes(`,${want},`) === true,
        want,
      );
      const json = JSON.parse((await saved(page, '[data-download="plans-json"]')).body.toString());
      check(
        'the plan JSON: the search sent, the URL state, each ranked plan and the answer',
        json.scenario.query.kind === 'plan_search' &&
          json.url_state === (await stateQuery(page)) &&
          json.plans.length === run.plans &&
          json.plans[0].listed === 1 &&
          json.answer.ok === true,
      );
      figures.planExportMs = Date.now() - t0;
    });

    await step(
      'serving search: the deployments download as CSV and JSON; the frontier chart exports with its title and legend',
      async () => {
        const t0 = Date.now();
        await open(page, `${url}?v=1&mode=serving&sobj=fewest_chips`);
        await servingSearched(page);
        const listed = await page.locator('[data-serving-search] [data-deployment]').count();
        const chips = await page.locator('[data-serving-search] [data-deployment="0"]').getAttribute('data-chips');
        const csv = csvLines(await saved(page, '[data-download="deployments-csv"]'));
        check(
          'the serving CSV’s inputs: the mode and objective set, the chip the engine used',
          csv[0].startsWith('input,label,value,unit,') &&
            csv.some((l) => l.startsWith('mode,Workload,serving,')) &&
            csv.some((l) => l.startsWith('sobj,Best means,fewest_chips,')) &&
            csv.some((l) => l.startsWith('engine.chip,Chip,TPU v5p (tpu-v5p),')),
          csv.slice(0, 7).join(' | '),
        );
        const results = csvResults(csv, 'list,rank,total_chips,replicas,prefill_servers,replica,');
        check(
          'the serving CSV: one row per deployment listed, the columns named',
          results?.rows.length === listed &&
            listed > 0 &&
            results.rows[0].startsWith(`deployment,1,${chips},`) &&
            [
              'weights_dtype',
              'kv_dtype',
              'batch',
              'latency_per_token_s',
              'usd_per_million_output_tokens',
              'meets_targets',
            ].every((c) => results.header.includes(c)),
          `${results?.rows.length} rows, ${listed} listed`,
        );
        const json = JSON.parse((await saved(page, '[data-download="deployments-json"]')).body.toString());
        check(
          'the serving JSON: the search sent, the URL state and the deployments',
          json.scenario.query.kind === 'serving_search' &&
            json.url_state === (await stateQuery(page)) &&
            json.deployments.length === listed &&
            json.list === 'deployment',
        );
        await chartsDrawn(page);
        const sweep = (await saved(page, '[data-download="sweep-svg"]')).body.toString();
        const entries = (sweep.match(/data-legend-entry/g) ?? []).length;
        check(
          'the frontier exports as SVG with its title and its legend (the batch colours, the current batch)',
          (await wellFormed(page, sweep)) &&
            sweep.includes('>Latency against throughput over the batch (the book’s serving frontier)</text>') &&
            entries >= 2 &&
            /batch size \d+ to \d+/.test(sweep) &&
            sweep.includes('>current batch</text>'),
          `${entries} entries`,
        );
        fs.writeFileSync(
          path.join(SHOTS, 'export-frontier.png'),
          (await saved(page, '[data-download="sweep-png"]')).body,
        );
        figures.servingExportMs = Date.now() - t0;
      },
    );

    await step('serving mode', async () => {
      await open(page, url);
      const before = await stateQuery(page);
      await page.locator('ss-controls select[data-key="mode"]').selectOption('serving');
      await settled(page, before);
      await compareWithCli(
        page,
        'serving',
        {
          hardware: { preset: 'tpu-v5p' },
          model: { preset: 'llama-3-70b' },
          mesh: { shape: [2, 2, 2] },
          query: {
            kind: 'serving',
            batch: 32,
            prompt_len: 8192,
            generated_len: 512,
            parallelism: { tensor: ['X', 'Y', 'Z'] },
          },
        },
        SERVING_PAIRS,
      );
      await chartsDrawn(page);
      await page
        .locator('#sweep-chart svg circle')
        .nth(2)
        .waitFor({ timeout: 15000 })
        .catch(() => {});
      check('the batch sweep frontier is drawn', (await page.locator('#sweep-chart svg circle').count()) >= 3);
      const labels = await chartLabels(page, '#sweep-chart');
      check(
        'the frontier’s labels do not run into one another (issue 41 #17)',
        labels.texts.length >= 3 && labels.overlaps.length === 0,
        `${labels.texts.join(' | ')}; overlapping: ${labels.overlaps.join(', ')}`,
      );
      const frontier = async () =>
        (await page.locator('#sweep-chart svg circle').evaluateAll((cs) => cs.map((c) => c.getAttribute('cy')))).join(
          ' ',
        );
      const calibratedFrontier = await frontier();
      for (const fid of ['book', 'calibrated']) {
        const was = await stateQuery(page);
        await page.locator(`[data-headline] [data-fid="${fid}"]`).click();
        await settled(page, was);
        await chartsDrawn(page);
        if (fid === 'book')
          check(
            'the charts’ toggle redraws the frontier at the book’s fidelity, not only the scaling chart (issue 22)',
            (await frontier()) !== calibratedFrontier,
          );
      }
      const unsetParams = await page.locator('ss-controls input.num[data-key="sparams"]').inputValue();
      check(
        'an unset parameter-count override says the model’s own count is used, not 1M (issue 22)',
        unsetParams === 'the model’s own',
        unsetParams,
      );
      const facts = (await page.locator('ss-facts').textContent()) ?? '';
      check(
        'serving facts are serving’s: forward FLOPs and the weights, no Adam or training FLOPs (issue 22)',
        /Forward FLOPs per token/.test(facts) && /Weights \(bf16\)/.test(facts) && !/Adam|Training FLOPs/.test(facts),
        facts.slice(0, 300),
      );
      await shot(page, 'explorer-serving.png');
    });

    await step(
      'serving under a benchmark’s load: the block, the interactivity frontier, a reload reproduces them (issue 35)',
      async () => {
        const link = `${url}?v=1&mode=serving&hw=h200&model=llama-3-70b&conc=64&sbk=trtllm`;
        await open(page, link);
        // Hand-written from docs/api.md: the load block the page must send (the frontier: powers of two up to 512).
        const concurrencies = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512];
        const ref = await compareWithCli(
          page,
          'H200 under load',
          {
            hardware: { preset: 'h200' },
            model: { preset: 'llama-3-70b' },
            mesh: { shape: [8] },
            query: {
              kind: 'serving',
              batch: 32,
              prompt_len: 8192,
              generated_len: 512,
              parallelism: { tensor: ['X'] },
              load: { concurrency: 64, concurrencies, backend: 'trtllm' },
            },
          },
          [
            ['load_ttft_s', 'load.time_to_first_token_s'],
            ['load_tpot_s', 'load.time_per_output_token_s'],
            ['load_tokens_per_s_per_chip', 'load.output_tokens_per_s_per_chip'],
            ['load_tokens_per_s_per_user', 'load.tokens_per_s_per_user'],
            ['load_requests_per_s', 'load.requests_per_s'],
            ['load_in_flight', 'load.in_flight'],
            ['load_queued', 'load.queued'],
          ],
        );
        const block = page.locator('ss-serving-results [data-load]');
        const texts = await block.locator('dd').allTextContents();
        check(
          'the block shows its seven numbers, none blank',
          texts.length === 7 && texts.every((t) => t.trim() !== '' && t.trim() !== '—'),
          texts.join(' | '),
        );
        const runtime = (await block.locator('[data-load-runtime]').textContent()) ?? '';
        check(
          'the block says which runtime priced it: TensorRT-LLM’s, fitted on its measured rows',
          runtime.includes('TensorRT-LLM’s runtime') && runtime.includes(ref.result.load.backend.source),
          runtime,
        );
        const options = (await page.locator('ss-controls select[data-key="sbk"] option').allTextContents()).map((t) =>
          t.trim(),
        );
        check(
          'the serving-engine select offers the engine’s backends and shows the one in the link',
          (await page.locator('ss-controls select[data-key="sbk"] option:checked').textContent())?.trim() ===
            'TensorRT-LLM' && ['SGLang', 'TensorRT-LLM', 'vLLM'].every((n) => options.includes(n)),
          options.join(' | '),
        );
        await chartsDrawn(page);
        await page
          .locator('#load-chart svg circle')
          .nth(5)
          .waitFor({ timeout: 15000 })
          .catch(() => {});
        const title = (await page.locator('[data-load-chart] h3').textContent()) ?? '';
        check(
          'the chart is titled throughput per GPU against tokens/s per user',
          title === 'Throughput per GPU against tokens/s per user',
          title,
        );
        const points = await page.locator('#load-chart svg circle').count();
        check(
          'one point per concurrency the engine answered, and the current one ringed',
          points === ref.result.load.frontier.length + 1,
          `${points} circles, ${ref.result.load.frontier.length} concurrencies`,
        );
        const labels = await chartLabels(page, '#load-chart');
        check(
          'the points are labelled by concurrency, the current one always, none running into another',
          labels.texts[0] === 'current: 64' && labels.texts.length >= 6 && labels.overlaps.length === 0,
          `${labels.texts.join(' | ')}; overlapping: ${labels.overlaps.join(', ')}`,
        );
        const rows = await page.locator('#load-chart table tbody tr').count();
        check('the chart’s numbers are a table too', rows === ref.result.load.frontier.length, `${rows} rows`);
        await shot(page, 'explorer-serving-load.png');
        await page
          .locator('[data-load-chart]')
          .screenshot({ path: path.join(SHOTS, 'explorer-serving-load-chart.png') });
        const shown = async () => ({
          numbers: await block.locator('dd').allTextContents(),
          labels: (await chartLabels(page, '#load-chart')).texts,
        });
        const before = await shown();
        // The address the page keeps (what a reader copies) carries both settings; opening it again draws the same.
        const shared = page.url();
        check(
          'the address carries the concurrency and the serving engine',
          /[?&]conc=64(&|$)/.test(shared) && /[?&]sbk=trtllm(&|$)/.test(shared),
          shared,
        );
        await open(page, shared);
        await chartsDrawn(page);
        await page
          .locator('#load-chart svg circle')
          .nth(5)
          .waitFor({ timeout: 15000 })
          .catch(() => {});
        const after = await shown();
        check(
          'reloading the link reproduces the block and the chart',
          JSON.stringify(after) === JSON.stringify(before),
          `${JSON.stringify(before)} vs ${JSON.stringify(after)}`,
        );
        // No serving engine: the kernels' step prices it; no concurrency: neither the block nor the chart.
        let was = await stateQuery(page);
        await page.locator('ss-controls select[data-key="sbk"]').selectOption('');
        await settled(page, was);
        check(
          'without a serving engine the block says the calibrated kernels’ step priced it',
          /calibrated kernels’ step, no serving engine’s runtime/.test(
            (await block.locator('[data-load-runtime]').textContent()) ?? '',
          ) && !(await stateQuery(page)).includes('sbk='),
        );
        was = await stateQuery(page);
        await page.locator('ss-controls .ctl:has(input.num[data-key="conc"]) button.reset').click();
        await settled(page, was);
        check(
          'with the concurrency unset neither the block nor the chart is there',
          (await page.locator('[data-load], [data-load-chart]').count()) === 0 &&
            !(await stateQuery(page)).includes('conc='),
        );
        // A phone: the block and the chart fit the 390 px screen, their labels clear of one another.
        const phone = await context.newPage();
        collectErrors(phone, consoleErrors, 'phone: ');
        await phone.setViewportSize(PHONE);
        await open(phone, link);
        await chartsDrawn(phone);
        await phone
          .locator('#load-chart svg circle')
          .nth(5)
          .waitFor({ timeout: 15000 })
          .catch(() => {});
        const phoneLabels = await chartLabels(phone, '#load-chart');
        check(
          'phone: the frontier under load is labelled, no label running into another',
          phoneLabels.texts[0] === 'current: 64' && phoneLabels.texts.length >= 3 && phoneLabels.overlaps.length === 0,
          `${phoneLabels.texts.join(' | ')}; overlapping: ${phoneLabels.overlaps.join(', ')}`,
        );
        const wide = await phone.evaluate(() => ({
          sw: document.documentElement.scrollWidth,
          cw: document.documentElement.clientWidth,
        }));
        check('phone: the page under load does not scroll sideways', wide.sw <= wide.cw + 1, `${wide.sw} > ${wide.cw}`);
        await phone
          .locator('ss-serving-results [data-load]')
          .screenshot({ path: path.join(SHOTS, 'explorer-phone-serving-load.png') });
        await phone
          .locator('[data-load-chart]')
          .screenshot({ path: path.join(SHOTS, 'explorer-phone-serving-load-chart.png') });
        await phone.close();
      },
    );

    await step(
      'a measured serving row reproduced from a link: the page gives the validation harness’s prediction (issue 35)',
      async () => {
        // tests/serving/measured-serving.csv, row 2026_04_06_llama_3_1_70b_h200_sxm_trtllm_fp8_agg_1024x1024_c8_tp8_ep1_584:
        // Llama 3.1 70B, TensorRT-LLM FP8 (W8A8, fp8 KV) on 8 H200 at TP 8, 1k/1k, concurrency 8 (measured: TTFT 82 ms,
        // TPOT 6.7 ms). The scenario is the one `scalescope validate-serving` builds for that row (docs/validation.md).
        await open(
          page,
          `${url}?v=1&mode=serving&hw=h200&model=llama-3-70b&chips=8&tp=8&prompt=1024&gen=1024&wdt=fp8&kvdt=fp8&adt=fp8&conc=8&sbk=trtllm`,
        );
        const concurrencies = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512];
        await compareWithCli(
          page,
          'a measured row',
          {
            hardware: { preset: 'h200' },
            model: { preset: 'llama-3-70b' },
            mesh: { shape: [8], axis_names: ['gpus'] },
            query: {
              kind: 'serving',
              batch: 8,
              prompt_len: 1024,
              generated_len: 1024,
              parallelism: { tensor: ['gpus'] },
              dtypes: { weights: 'fp8', kv: 'fp8', activations: 'fp8' },
              load: { concurrency: 8, concurrencies, backend: 'trtllm' },
            },
          },
          [
            ['load_ttft_s', 'load.time_to_first_token_s'],
            ['load_tpot_s', 'load.time_per_output_token_s'],
          ],
        );
      },
    );

    await step(
      'serving search: fewest chips or cheapest for a latency; apply one and the headline shows it',
      async () => {
        await open(page, url + '?v=1&mode=serving&hw=tpu-v5e');
        check(
          'LLaMA-3 70B in bf16 on 8 v5e does not fit (the question the search answers)',
          (await status(page)) === 'no-fit',
          await status(page),
        );
        await servingSearched(page);
        figures.servingSearchEngineMs = await page.evaluate(() => window.__scalescope.servingSearch?.engineMs);
        figures.servingSearchEvaluated = await page.evaluate(() => window.__scalescope.servingSearch?.evaluated);
        check(
          'the search ran in the worker without a button',
          figures.servingSearchEngineMs > 0,
          `${figures.servingSearchEngineMs} ms`,
        );
        const rows = await page.locator('[data-serving-search] [data-deployment]').count();
        check('the best deployments are listed', rows >= 3, `${rows} rows`);
        const header = (await page.locator('[data-serving-search] table thead').textContent()) ?? '';
        check(
          'the table names chips, replica, batch, decode step, latency, TTFT, tokens/s per chip, $ per 1M tokens and memory',
          [
            'Chips',
            'Replica',
            'Batch',
            'Decode step',
            'Latency per token',
            'Time to first token',
            'Tokens/s per chip',
            '$ per 1M output tokens',
            'Memory of HBM',
          ].every((w) => header.includes(w)),
          header,
        );
        check(
          'the ranking says which model made it, with its error band',
          /Ranked by the calibrated estimate \(median .*held-out/.test(
            (await page.locator('[data-serving-search] [data-calibrated-ranking]').textContent()) ?? '',
          ),
        );

        // "For this latency": a target per token starts at the latency on screen; every deployment listed meets it.
        const onScreen = await metric(page, 'latency_per_token_s');
        let before = await stateQuery(page);
        await page.locator('[data-serving-search] input[data-key="slat-on"]').check();
        await settled(page, before);
        await servingSearched(page);
        const target = await page.locator('[data-serving-search] input.num[data-key="slat"]').inputValue();
        check(
          'the latency target starts at the latency on screen (2 significant digits)',
          Number(target) === Number(onScreen.toPrecision(2)),
          `${target} vs ${onScreen}`,
        );
        const latencies = await page
          .locator('[data-serving-search] [data-deployment]')
          .evaluateAll((els) => els.map((e) => [Number(e.dataset.latency), e.dataset.meets]));
        check(
          'every deployment listed meets the target, and the panel says so',
          latencies.length > 0 &&
            latencies.every(([l, m]) => l <= Number(target) && m === 'yes') &&
            /Every deployment listed meets the targets: latency per token at most/.test(
              (await page.locator('[data-targets-met]').textContent()) ?? '',
            ),
          JSON.stringify(latencies.slice(0, 3)),
        );
        before = await stateQuery(page);
        await page.locator('[data-serving-search] select[data-key="sobj"]').selectOption('fewest_chips');
        await settled(page, before);
        await servingSearched(page);
        const chips = await page
          .locator('[data-serving-search] [data-deployment]')
          .evaluateAll((els) => els.map((e) => Number(e.dataset.chips)));
        check(
          'fewest chips first',
          chips.every((c, i) => i === 0 || c >= chips[i - 1]),
          chips.join(','),
        );
        await page.waitForFunction(
          () => ['slat=', 'sobj=fewest_chips'].every((k) => window.location.search.includes(k)),
          null,
          { timeout: 5000 },
        );

        // Apply the best: the headline counts it as the row does (issue 20: one cost definition), the URL reproduces it.
        const row = page.locator('[data-serving-search] [data-deployment="0"]');
        const want = {
          latency: Number(await row.getAttribute('data-latency')),
          ttft: Number(await row.getAttribute('data-ttft')),
          chips: Number(await row.getAttribute('data-chips')),
          usd: Number(await row.getAttribute('data-usd')),
        };
        const latencyBefore = await metric(page, 'latency_per_token_s');
        before = await stateQuery(page);
        await page.locator('[data-apply-deployment="deployment-0"]').focus();
        await page.keyboard.press('Enter');
        await settled(page, before);
        check(
          'apply: the headline changed',
          (await metric(page, 'latency_per_token_s')) !== latencyBefore && (await stateQuery(page)) !== before,
        );
        const got = {
          latency: await metric(page, 'latency_per_token_s'),
          ttft: await metric(page, 'ttft_s'),
          chips: await metric(page, 'chips'),
          usd: await metric(page, 'usd_per_million_output_tokens'),
        };
        check(
          'apply: the headline’s latency per token, TTFT, chips and $ per 1M output tokens are the row’s, to the last digit',
          JSON.stringify(got) === JSON.stringify(want),
          `${JSON.stringify(got)} vs ${JSON.stringify(want)}`,
        );
        check(
          'apply: only the applied row says "Applied"',
          (await page
            .locator('[data-serving-search] [data-apply-deployment]', { hasText: /^\s*Applied\s*$/ })
            .count()) === 1,
        );
        check('apply: the applied deployment fits', ['ok', 'warning'].includes(await status(page)), await status(page));
        check(
          'apply: focus stays on its button, now "Applied", and a status line says what happened',
          (await page.evaluate(
            () =>
              document
                .querySelector('scalescope-explorer')
                .shadowRoot.activeElement?.getAttribute('data-apply-deployment') === 'deployment-0',
          )) &&
            (await page.locator('[data-apply-deployment="deployment-0"]').textContent())?.trim() === 'Applied' &&
            /Applied deployment 1: .*the headline counts it as this row does/.test(
              (await page.locator('[data-serving-search] .sr-only[role="status"]').textContent()) ?? '',
            ),
        );
        await shot(page, 'explorer-serving-search.png');
        await page.waitForFunction(() => window.location.search === '?' + window.__scalescope.stateQuery);
        await open(page, page.url());
        check('a reload keeps the applied deployment', (await metric(page, 'latency_per_token_s')) === want.latency);
        await servingSearched(page);
        check(
          'after the reload the search marks it as on screen',
          (await page.locator('[data-serving-search] [data-deployment="0"][aria-current="true"]').count()) === 1,
        );

        // A target nothing meets is said plainly, with the fastest deployments there are.
        before = await stateQuery(page);
        const field = page.locator('[data-serving-search] input.num[data-key="slat"]');
        await field.fill('0.0001');
        await field.press('Enter');
        await settled(page, before);
        await servingSearched(page);
        check(
          'no deployment meets 0.1 ms per token: said plainly',
          /No deployment meets the targets/.test((await page.locator('[data-no-deployment]').textContent()) ?? ''),
        );
        check(
          'the fastest deployments are listed instead, each marked as missing the target',
          (await page.locator('[data-serving-search] [data-frontier]').count()) > 0 &&
            (await page.locator('[data-serving-search] [data-frontier][data-meets="yes"]').count()) === 0,
        );

        // A time with its unit (issue 20: "50 ms" was silently ignored).
        before = await stateQuery(page);
        await field.fill('50 ms');
        await field.press('Enter');
        await settled(page, before);
        await page
          .waitForFunction(() => new URLSearchParams(window.location.search).get('slat') === '0.05', null, {
            timeout: 5000,
          })
          .catch(() => {});
        check(
          '"50 ms" is a latency target of 0.05 s',
          new URL(page.url()).searchParams.get('slat') === '0.05' &&
            (await field.evaluate((el) => el.validationMessage)) === '',
          page.url(),
        );
      },
    );

    await step('serving: KV context, speculative decoding and efficiency', async () => {
      await open(page, url + '?v=1&mode=serving&hw=tpu-v5e&wdt=int8&kvdt=int8&tp=16');
      await unfold(page);
      await type(page, 'kvctx', '4096');
      let before = await stateQuery(page);
      await page.locator('ss-controls input[type="checkbox"][data-key="spec"]').check();
      await settled(page, before);
      await unfold(page);
      check(
        'speculative controls appear when it is on',
        (await page.locator('ss-controls input.num[data-key="lookahead"]').count()) === 1,
      );
      await type(page, 'eff_flops', '0.5');
      const scenario = {
        hardware: { preset: 'tpu-v5e' },
        model: { preset: 'llama-3-70b' },
        mesh: { shape: [4, 4] },
        query: {
          kind: 'serving',
          batch: 32,
          prompt_len: 8192,
          generated_len: 512,
          dtypes: { weights: 'int8', kv: 'int8' },
          parallelism: { tensor: ['X', 'Y'] },
          kv_context_len: 4096,
          efficiency: { flops_frac: 0.5 },
          speculative: { draft_model: { preset: 'llama-3-8b' }, lookahead: 4, acceptance_rate: 0.8 },
        },
      };
      await compareWithCli(page, 'serving with speculation', scenario, [
        ...SERVING_PAIRS,
        ['spec_latency_per_token_s', 'speculative.latency_per_token_s'],
        ['spec_tokens_per_step', 'speculative.expected_tokens_per_step'],
        ['spec_speedup', 'speculative.speedup'],
      ]);
      await page.waitForFunction(
        () => ['kvctx=4096', 'spec=1', 'eff_flops=0.5'].every((k) => window.location.search.includes(k)),
        null,
        { timeout: 5000 },
      );
      check(
        'with an efficiency below 1 the page no longer calls the numbers an ideal bound',
        (await page.locator('.ideal-bound').count()) === 0,
      );
      await shot(page, 'explorer-speculative.png');
    });

    await step('training: checkpoints remat and efficiency', async () => {
      await open(page, url);
      let before = await stateQuery(page);
      await page.locator('ss-controls select[data-key="remat"]').selectOption('checkpoints');
      await settled(page, before);
      await unfold(page);
      check(
        'checkpoints per layer appears with the checkpoints remat',
        (await page.locator('ss-controls input.num[data-key="ckpt"]').count()) === 1,
      );
      await type(page, 'eff_net', '0.6');
      const s = DEFAULT_TRAINING();
      Object.assign(s.query, { remat: 'checkpoints', checkpoints_per_layer: 4, efficiency: { network_frac: 0.6 } });
      await compareWithCli(page, 'checkpoints remat, 60% network', s, TRAINING_PAIRS.slice(0, 4));
    });

    await step('GPU hardware and a hardware override', async () => {
      await open(page, url + '?v=1&fsdp=16&tp=4');
      const before = await stateQuery(page);
      await page.locator('ss-controls select[data-key="hw"]').selectOption('h100-sxm');
      await settled(page, before);
      await compareWithCli(
        page,
        'h100',
        training({ hw: 'h100-sxm', shape: [16, 4] }, { fsdp: ['X'], tensor: ['Y'] }),
        TRAINING_PAIRS.slice(0, 4),
      );
      await unfold(page);
      // The sources come in their own chunk once the chip fields are shown: each field's title cites its datasheet.
      await page.locator('ss-controls .hwf[title^="source: "]').first().waitFor({ timeout: 10000 });
      check(
        'the chip fields, once shown, cite their sources',
        (await page.locator('ss-controls .hwf[title^="source: "]').count()) >= 3,
      );
      const b2 = await stateQuery(page);
      await page.locator('input[data-hw="hbm_bandwidth_bytes_per_s"]').fill('6.7e12');
      await page.locator('input[data-hw="hbm_bandwidth_bytes_per_s"]').press('Enter');
      await settled(page, b2);
      await page.waitForFunction(() => window.location.search.includes('hw.hbm_bandwidth_bytes_per_s=6700000000000'));
      check('an overridden chip field is marked', (await page.locator('.hwf.overridden .badge').count()) >= 1);
      const s = training({ hw: 'h100-sxm', shape: [16, 4] }, { fsdp: ['X'], tensor: ['Y'] });
      s.hardware.overrides = { hbm_bandwidth_bytes_per_s: 6.7e12 };
      await compareWithCli(page, 'h100 with faster HBM', s, TRAINING_PAIRS.slice(0, 4));
      await shot(page, 'explorer-gpu-override.png');
    });

    await step(
      'today’s models: DeepSeek-V3 (MLA, 3 dense + 58 MoE layers, MTP) with DualPipe and FP8 blocks on H100s',
      async () => {
        await open(
          page,
          url +
            '?v=1&hw=h100-sxm&model=deepseek-v3&fsdp=4&tp=1&ep=8&pp=16&zero=1&sched=dualpipe&mb=32&mm=fp8_blockwise&disp=hierarchical&epov=1',
        );
        const facts = async (id) => (await page.locator(`ss-facts [data-metric="${id}"]`).textContent()) ?? '';
        check(
          'the facts name the latent attention',
          /multi-head latent \(MLA\): 576 KV values/.test(await facts('attention')),
          await facts('attention'),
        );
        check(
          'the facts count the layers by kind',
          (await facts('layers')) === '3 dense + 58 MoE + 1 MTP',
          await facts('layers'),
        );
        const s = training(
          { hw: 'h100-sxm', shape: [16, 4, 8] },
          {
            pipeline: ['X'],
            fsdp: ['Y'],
            expert: ['Z'],
            zero_stage: 1,
            pipeline_schedule: 'dualpipe',
            microbatches: 32,
          },
          4194304,
          { preset: 'deepseek-v3' },
        );
        Object.assign(s.query, {
          precision: { matmul: 'fp8_blockwise' },
          moe: { dispatcher: 'hierarchical', overlap: true },
        });
        await compareWithCli(page, 'DeepSeek-V3, DualPipe', s, TRAINING_PAIRS.slice(0, 4));
        await shot(page, 'explorer-deepseek-v3.png');
        // Issue 41 #17: gpt-oss's card counts 5.13B active (its matmuls); the facts give both counts. Serving opens in
        // the dtype it is published in (MXFP4 experts, priced as fp4), and KV per token is at the context: half its
        // layers keep a 128-token window.
        await open(page, url + '?v=1&mode=serving&hw=h100-sxm&model=gpt-oss-120b&tp=8');
        const inMatmuls = Number(
          await page.locator('ss-facts [data-metric="params_active_in_matmuls"]').getAttribute('data-value'),
        );
        check(
          'gpt-oss-120b: 5.13B active in matmuls, as its card',
          Math.abs(inMatmuls / 5.13e9 - 1) < 0.01,
          String(inMatmuls),
        );
        check(
          'gpt-oss-120b serves in fp4 as published',
          /fp4 \(as published\)/.test(
            (await page.locator('ss-controls select[data-key="wdt"] option:checked').textContent()) ?? '',
          ),
        );
        check(
          'KV per token is at the context for a sliding-window model',
          /if every layer kept every token/.test(await facts('kv_cache_bytes_per_token')),
          await facts('kv_cache_bytes_per_token'),
        );
        await open(page, url + '?v=1&hw=h100-sxm&model=gemma-3-27b&fsdp=8&tp=8');
        check(
          'a sliding-window model says which layers slide',
          /52 of 62 layers sliding \(window 1,024\)|52 of 62 layers sliding \(window 1024\)/.test(
            await facts('attention'),
          ),
          await facts('attention'),
        );
      },
    );

    await step('a pasted Hugging Face config.json is the model, read by the engine', async () => {
      await open(page, url);
      await unfold(page);
      const config = fs.readFileSync(path.join(REPO, 'tests/hf_configs/meta-llama-3-70b.json'), 'utf8');
      await page.locator('#c-hf').fill(config);
      const before = await stateQuery(page);
      await page.locator('#c-hf-use').click();
      await settled(page, before);
      check(
        'the model select names the pasted config',
        /Pasted/.test((await page.locator('ss-controls select[data-key="model"] option:checked').textContent()) ?? ''),
      );
      await compareWithCli(
        page,
        'pasted LLaMA-3 70B config.json',
        { ...DEFAULT_TRAINING(), model: { hf_config: JSON.parse(config) } },
        TRAINING_PAIRS.slice(0, 4),
      );
      const bad = JSON.parse(config);
      bad.rope_wobble = 2;
      await unfold(page);
      await page.locator('#c-hf').fill(JSON.stringify(bad));
      const b2 = await stateQuery(page);
      await page.locator('#c-hf-use').click();
      await settled(page, b2);
      const diag = (await page.locator('[data-hf] [data-diagnostics]').textContent()) ?? '';
      check(
        'an unknown key of the config.json is named by the engine',
        diag.includes("'rope_wobble'"),
        diag.slice(0, 200),
      );
      check('a config the engine rejects cannot run, and the headline says so', (await status(page)) === 'cannot-run');
      // Issue 41 #17: no words about which model made numbers that are not there.
      check(
        'a plan that cannot run has no fidelity note',
        (await page.locator('ss-headline:not(.phone-strip) [data-fidelity]').count()) === 0,
      );
      // Issue 41 #17: text that is not JSON is refused under the box it was typed in, not only in the page's banner.
      await unfold(page);
      await page.locator('#c-hf').fill('{"model_type": "llama", "hidden_size": 8192,');
      await page.locator('#c-hf-use').click();
      const problem = page.locator('[data-hf] [data-hf-problem]');
      await problem.waitFor({ timeout: 5000 });
      check(
        'malformed config.json text is refused under its box',
        /^This is not JSON/.test((await problem.textContent()) ?? ''),
        (await problem.textContent()) ?? '',
      );
      check(
        'the refused text stays in the box to be mended',
        (await page.locator('#c-hf').inputValue()).startsWith('{"model_type": "llama"'),
      );
    });

    await step(
      'a calibration profile of one’s own: loaded from a file, kept by the link, missing in another browser',
      async () => {
        const { file, profile } = ownProfile();
        const id = profile.id;
        const gpuPlan = `${url}?v=1&hw=h100-sxm&fsdp=64`;
        const fidelity = async (p) =>
          (await p.locator('ss-headline:not(.phone-strip) [data-fidelity]').textContent()) ?? '';
        const loadFile = async (p) => {
          const before = await stateQuery(p);
          await p.locator('#c-cal-file').setInputFiles(file);
          await settled(p, before);
          await p.waitForFunction(() => window.location.search.includes('cal='));
        };
        /** The file a link names: the state stays the same, the numbers change to the profile's. */
        const restoreFile = async (p) => {
          await p.locator('#c-cal-file').setInputFiles(file);
          await p.waitForFunction(
            (want) => {
              const h = window.__scalescope;
              const text =
                document
                  .querySelector('scalescope-explorer')
                  .shadowRoot.querySelector('ss-headline:not(.phone-strip) [data-fidelity]')?.textContent ?? '';
              return h.resultQuery === h.stateQuery && text.includes(want);
            },
            `(profile ${id},`,
            { timeout: 15000 },
          );
        };
        await open(page, gpuPlan);
        check('before: the shipped profile', /\(profile h100-sxm,/.test(await fidelity(page)), await fidelity(page));
        await page.locator('[data-profile] > summary').click();
        await loadFile(page);
        check(
          `the headline names the loaded profile (${id}), as the engine's result does, and says it is yours`,
          (await fidelity(page)).includes(`(profile ${id},`) &&
            /; yours, loaded in this browser\)/.test(await fidelity(page)),
          await fidelity(page),
        );
        check(
          'the band comes from the loaded profile’s own runs (the 5-run calibration, issue 18’s round trip)',
          (await fidelity(page)).includes(`runs behind the ${id} profile`) ||
            (await fidelity(page)).includes(`runs of the ${id} profile, each left out of its fit in turn`),
          await fidelity(page),
        );
        check(
          'the loader says it is in use, kept in this browser',
          /In use: yours/.test((await page.locator('[data-profile-status]').textContent()) ?? ''),
        );
        const link = page.url();
        check(
          'the URL names it: cal=<id>~<fingerprint>',
          /[?&]cal=[A-Za-z0-9._-]+%7E[0-9a-f]{8}(&|$)/.test(link),
          link,
        );
        await shot(page, 'explorer-profile-loaded.png');
        await open(page, link);
        check('a reload keeps it', (await fidelity(page)).includes(`(profile ${id},`), await fidelity(page));
        await open(page, link.replace('?v=1&', '?v=1&mode=serving&tp=8&'));
        check('serving uses it too', (await fidelity(page)).includes(`(profile ${id},`), await fidelity(page));

        const other = await launch({ viewport: DESKTOP }); // another browser: nothing kept
        try {
          const fresh = other.context.pages()[0] ?? (await other.context.newPage());
          collectErrors(fresh, consoleErrors, 'other browser: ');
          await open(fresh, link);
          const notice = (await fresh.locator('[data-notice]').textContent()) ?? '';
          check(
            'a browser without the profile says so, and how to get it back',
            notice.includes(`calibration profile '${id}'`) &&
              /has not loaded: the calibrated numbers shown use the shipped profile/.test(notice) &&
              /same fingerprint restores it/.test(notice),
            notice,
          );
          check(
            '… and shows the shipped profile’s numbers',
            (await fidelity(fresh)).includes('(profile h100-sxm,') && !/yours/.test(await fidelity(fresh)),
            await fidelity(fresh),
          );
          check('… and keeps the reference in the URL', fresh.url().includes('cal='));
          await fresh.locator('[data-notice]').screenshot({ path: path.join(SHOTS, 'explorer-profile-notice.png') });
          const phone = await other.context.newPage();
          collectErrors(phone, consoleErrors, 'other browser, phone: ');
          await phone.setViewportSize(PHONE);
          await open(phone, link);
          await shot(phone, 'explorer-profile-missing-phone.png');
          await restoreFile(phone);
          check(
            'loading the same file restores the link’s profile and clears the notice',
            (await fidelity(phone)).includes(`(profile ${id},`) && (await phone.locator('[data-notice]').count()) === 0,
            await fidelity(phone),
          );
          await phone
            .locator('[data-group="efficiency"]')
            .screenshot({ path: path.join(SHOTS, 'explorer-profile-loader-phone.png') });
        } finally {
          await other.close();
        }

        await open(page, link);
        await page.locator('#c-cal').fill('{"id": "my-cluster", "parameters": {');
        await page.locator('#c-cal-use').click();
        const msg = (await page.locator('[data-profile-message]').textContent()) ?? '';
        check(
          'pasted text that is not JSON is refused in words, beside the loader',
          /^This is not JSON/.test(msg.trim()),
          msg,
        );
        await page
          .locator('#c-cal')
          .fill(JSON.stringify({ ...profile, parameters: { ...profile.parameters, overlap_frac: 7 } }));
        const b1 = await stateQuery(page);
        await page.locator('#c-cal-use').click();
        await settled(page, b1);
        const diag = page.locator(
          '[data-profile] [data-diagnostics] li[data-path="/query/calibration/parameters/overlap_frac"]',
        );
        check(
          'a parameter out of range is the engine’s diagnostic, under /query/calibration, beside the loader',
          (await diag.count()) === 1 && /'overlap_frac' must be from/.test((await diag.textContent()) ?? ''),
          (await page.locator('[data-profile]').textContent())?.slice(0, 300),
        );
        check('… and the plan cannot run with it', (await status(page)) === 'cannot-run');
        // A profile written before the kernel models (format 1): the engine's unsupported_version, shown on its own.
        const b3 = await stateQuery(page);
        await page.locator('#c-cal-file').setInputFiles(path.join(REPO, 'web/test/fixtures/profile-format-1.json'));
        await settled(page, b3);
        const format =
          (await page
            .locator('[data-profile] [data-profile-format]')
            .textContent()
            .catch(() => '')) ?? '';
        check(
          'a format-1 profile file: a notice in the engine’s words says to refit it',
          /format is too old/.test(format) &&
            /scalescope\.calibration\/1/.test(format) &&
            /scalescope calibrate/.test(format),
          format.slice(0, 300),
        );
        check('… and the plan cannot run with it', (await status(page)) === 'cannot-run');
        await page.locator('[data-profile]').screenshot({ path: path.join(SHOTS, 'explorer-profile-format-1.png') });
        const b2 = await stateQuery(page);
        await page.locator('#c-cal-clear').click();
        await settled(page, b2);
        await page
          .waitForFunction(() => !window.location.search.includes('cal='), null, { timeout: 5000 })
          .catch(() => {});
        check(
          'back to the shipped profile, and the URL drops the reference',
          (await fidelity(page)).includes('(profile h100-sxm,') && !page.url().includes('cal='),
          `${await fidelity(page)} ${page.url()}`,
        );
      },
    );

    await step('malformed and hostile links', async () => {
      const hostile =
        '?v=1&tp=banana&mode=%3Cimg%20src%3Dx%20onerror%3D%22window.__pwned%3D1%22%3E&hw.nope=1&%3Cscript%3E=1&batch=1e999&pin=%3Cb%3E&cal=%3Cb%3Ex%3C%2Fb%3E%7E12345678';
      await open(page, url + hostile);
      const notice = page.locator('[data-notice]');
      check(
        'a notice explains what was ignored',
        (await notice.count()) === 1 && /tp|Tensor/.test((await notice.textContent()) ?? ''),
      );
      check(
        'a hostile calibration profile reference is named as ignored, in text',
        /Ignored Calibration profile = “<b>x<\/b>~12345678”/.test((await notice.textContent()) ?? ''),
        (await notice.textContent())?.slice(0, 400),
      );
      const injected = await page.evaluate(() => {
        const root = document.querySelector('scalescope-explorer')?.shadowRoot;
        return {
          img: root?.querySelectorAll('img').length ?? -1,
          script: root?.querySelectorAll('script').length ?? -1,
          b: root?.querySelectorAll('b').length ?? -1,
          pwned: window.__pwned === 1,
        };
      });
      check(
        'no markup from the link reaches the page',
        injected.img === 0 && injected.script === 0 && !injected.pwned,
        JSON.stringify(injected),
      );
      check('the page falls back to defaults and still computes', (await metric(page, 'step_s')) !== undefined);
      await shot(page, 'explorer-bad-link.png');
      await page.locator('[data-notice] button').click();
      check(
        'dismissing the notice moves the keyboard to the results, not to nowhere',
        await page.evaluate(
          () => document.querySelector('scalescope-explorer').shadowRoot.activeElement?.id === 'results',
        ),
      );
      // Issue 20: degrees no control can reach (2^30 chips) froze the tab in the axis factoriser for minutes. The bound
      // is a hang's, not a budget: a busy machine is not the page's time.
      await open(page, url + '?v=1&tp=512&fsdp=8192&pp=256');
      const huge = await page.evaluate(() => ({
        ms: window.__scalescope.interactiveMs,
        text:
          document.querySelector('scalescope-explorer').shadowRoot.querySelector('[data-notice]')?.textContent ?? '',
      }));
      check(
        'a link asking for 2^30 chips answers without hanging (within 10 s), with a notice naming its degrees',
        huge.ms < 10000 && /1,073,741,824 chips/.test(huge.text),
        `${Math.round(huge.ms)} ms: ${huge.text.slice(0, 200)}`,
      );
      check(
        '… and opens on the default degrees, which run',
        (await metric(page, 'chips')) === 2048 && (await status(page)) !== 'cannot-run',
      );
      // Issue 41 #2: a 238-character link carrying a 1e9-layer config.json froze the page for 55 s (Mistral) or
      // aborted the engine (Qwen2 with max_window_layers): the engine refuses the count before expanding any layer.
      const layers = 1e9;
      for (const [family, config] of [
        [
          'Mistral',
          {
            model_type: 'mistral',
            hidden_size: 4096,
            intermediate_size: 14336,
            num_hidden_layers: layers,
            num_attention_heads: 32,
            num_key_value_heads: 8,
            vocab_size: 32000,
            sliding_window: 4096,
          },
        ],
        [
          'Qwen2',
          {
            model_type: 'qwen2',
            hidden_size: 4096,
            intermediate_size: 11008,
            num_hidden_layers: layers,
            num_attention_heads: 32,
            num_key_value_heads: 32,
            vocab_size: 151936,
            use_sliding_window: true,
            sliding_window: 4096,
            max_window_layers: layers - 1,
          },
        ],
      ]) {
        await open(page, url + '?v=1&hf=' + encodeURIComponent(JSON.stringify(config)));
        const hf = await page.evaluate(() => {
          // Every text of the page, through the components' shadow roots (the refusal is the model field's).
          const walk = (n) =>
            (n.nodeType === 3 ? n.textContent : '') +
            (n.shadowRoot ? walk(n.shadowRoot) : '') +
            [...n.childNodes].map(walk).join('');
          return { ms: window.__scalescope.interactiveMs, text: walk(document.body) };
        });
        check(
          `a link carrying a 1e9-layer ${family} config.json is refused without hanging (within 10 s), naming num_hidden_layers and its limit`,
          hf.ms < 10000 && /num_hidden_layers/.test(hf.text) && /4096/.test(hf.text),
          `${Math.round(hf.ms)} ms`,
        );
        figures[`hfHugeLinkMs${family}`] = hf.ms;
      }
      await open(page, url + '?v=1&hw=tpu-v5e');
      check(
        'a link to a chip the default degrees do not fit opens fitted, as choosing the chip does, and says so',
        (await metric(page, 'chips')) === 256 &&
          (await status(page)) !== 'cannot-run' &&
          /FSDP 256 → 32/.test((await page.locator('[data-notice]').textContent()) ?? ''),
      );
      for (const q of ['?v=7&tp=8', '?v=1&x=%E0%A4%A', '?' + 'a'.repeat(9000)]) {
        await open(page, url + q);
        check(
          `link ${q.slice(0, 24)}… shows a notice, not a blank page`,
          (await page.locator('[data-notice]').count()) === 1 && (await metric(page, 'step_s')) !== undefined,
        );
      }
    });

    await step('a mesh the chip cannot hold is explained in place', async () => {
      // A link opens on the nearest state that runs (issue 41): FSDP is already 1, so PP halves to fit the pod.
      await open(page, url + '?v=1&hw=tpu-v5e&fsdp=1&pp=64&tp=8');
      check(
        'a link whose degrees no halving of FSDP fits opens fitted: PP 64 → 32 on the 256-chip pod, and says so',
        (await metric(page, 'chips')) === 256 &&
          (await status(page)) !== 'cannot-run' &&
          /PP\) 64 → 32/.test((await page.locator('[data-notice]').textContent()) ?? ''),
      );
      // Typed, the same degrees are the reader's choice: shown, with why they cannot run.
      await open(page, url + '?v=1&hw=tpu-v5e&fsdp=1&pp=32&tp=8');
      const typed = await stateQuery(page);
      const pp = page.locator('ss-controls input.num[data-key="pp"]');
      await pp.fill('64');
      await pp.press('Enter');
      await settled(page, typed);
      const text = (await page.locator('[data-diagnostics]').first().textContent()) ?? '';
      check('a problem is shown in words', /torus|axes|slice/.test(text), text.slice(0, 160));
      check('the headline is labelled "cannot run"', (await status(page)) === 'cannot-run');
      await shot(page, 'explorer-mesh-problem.png');
      await open(page, url);
      const before = await stateQuery(page);
      await page.locator('ss-controls select[data-key="hw"]').selectOption('tpu-v5e');
      await settled(page, before);
      check(
        'choosing a chip whose slice cannot hold the degrees shrinks FSDP until it fits (v5e: FSDP 32 × TP 8 on the 16×16 pod, laid out by the engine)',
        (await status(page)) !== 'cannot-run' && (await metric(page, 'chips')) === 256,
        `${await status(page)} ${await metric(page, 'chips')}`,
      );
    });

    await step('a chip count the degrees cannot split is refused at its field (issue 20: chips = 3)', async () => {
      await open(page, url);
      const field = page.locator('ss-controls input.num[data-key="chips"]');
      await field.fill('3');
      await field.press('Enter');
      await page.locator('ss-controls [data-degree-problem]').waitFor({ timeout: 5000 });
      const said = (await page.locator('ss-controls [data-degree-problem]').textContent()) ?? '';
      check(
        'the field says why, in place',
        /3 chips do not split into the other degrees \(8 chips per FSDP replica\), so the change was not made/.test(
          said,
        ),
        said,
      );
      check(
        'the box, the tick, the URL and the plan still agree on 2048 chips',
        (await field.inputValue()) === '2048' &&
          !(await page.locator('ss-controls #c-chips-fixed').isChecked()) &&
          !new URL(page.url()).searchParams.has('chips') &&
          (await metric(page, 'chips')) === 2048,
        `${await field.inputValue()} ${page.url()}`,
      );
    });

    await step(
      'an engine error shows at the field behind it, with the binary reading to try (issue 20: "16M")',
      async () => {
        await open(page, url);
        const before = await stateQuery(page);
        const field = page.locator('ss-controls input.num[data-key="batch"]');
        await field.fill('16M');
        await field.press('Enter');
        await settled(page, before);
        const problem = page.locator('ss-controls [data-field-problem="batch"]');
        const said = (await problem.textContent()) ?? '';
        check(
          '"16M" tokens: the Global batch field says it is not a whole number of 4096-token sequences, and names the nearest',
          /16000000 tokens is not a whole number of 4096-token sequences; the nearest are 15998976 and 16003072/.test(
            said,
          ),
          said,
        );
        check('… and offers 16Mi', /Try 16Mi = 16,777,216\?/.test(said));
        const again = await stateQuery(page);
        await problem.locator('button[data-try-value]').click();
        await settled(page, again);
        check(
          'taking the offer runs 16,777,216 tokens, and the field is clear',
          new URL(page.url()).searchParams.get('batch') === '16777216' ||
            (await stateQuery(page)).includes('batch=16777216'),
        );
        check(
          '… with no problem left at the field',
          (await page.locator('ss-controls [data-field-problem]').count()) === 0 &&
            (await status(page)) !== 'cannot-run',
        );
      },
    );

    await step('keyboard: a skip link to the results', async () => {
      await open(page, url);
      await page.keyboard.press('Tab');
      const first = await page.evaluate(() => document.activeElement?.className);
      check('the first Tab stop is the skip link', first === 'skip', first);
      await page.keyboard.press('Enter');
      check(
        'Enter on it puts focus on the results',
        await page.evaluate(
          () => document.querySelector('scalescope-explorer').shadowRoot.activeElement?.id === 'results',
        ),
      );
    });

    await step('accessibility audit (axe-core, WCAG 2.1 AA)', async () => {
      await open(page, url);
      await chartsDrawn(page);
      const v = await axeViolations(page);
      check(
        `axe-core ${AXE_VERSION}: no WCAG A/AA violation on the explorer (contrast included)`,
        v.length === 0,
        v.slice(0, 4).join(' || '),
      );
      await open(page, `${url}?v=1&mode=serving`);
      await chartsDrawn(page);
      const vs = await axeViolations(page);
      check('no WCAG A/AA violation in serving mode', vs.length === 0, vs.slice(0, 4).join(' || '));
    });

    await step('phone (390 px): the answer in view, readable bars, scrollable tables', async () => {
      const phone = await context.newPage();
      collectErrors(phone, consoleErrors, 'phone: ');
      await phone.setViewportSize(PHONE);
      await open(phone, url);
      check(
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
      check(
        'after moving the last control the headline strip is inside the window at 390 px',
        await inViewport(phone, '[data-headline-strip]'),
      );
      const sizes = await phone
        .locator('ss-training-results .hb .lbl, ss-training-results .hb .val, ss-training-results .hb .legend span')
        .evaluateAll((els) => els.map((e) => parseFloat(getComputedStyle(e).fontSize)));
      check(
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
      check(
        'the wide plan table scrolls with a visible hint',
        hint.length === 1 && /scroll sideways/.test(hint[0]),
        JSON.stringify(hint),
      );
      const cue = await phone.locator(planTable).evaluate((e) => ({
        image: getComputedStyle(e).backgroundImage,
        attachment: getComputedStyle(e).backgroundAttachment,
      }));
      check(
        '… and a shadow at each edge it scrolls towards (covers that scroll with it over fixed shadows, issue 41 #19)',
        cue.image !== 'none' && cue.attachment === 'local, local, scroll, scroll',
        JSON.stringify(cue),
      );
      const o = await phone.evaluate(() => ({
        sw: document.documentElement.scrollWidth,
        cw: document.documentElement.clientWidth,
      }));
      check('the page itself does not scroll sideways', o.sw <= o.cw + 1, `${o.sw} > ${o.cw}`);
      await shot(phone, 'explorer-phone-plans.png');
      await phone.close();
    });

    await step('phone (390 px): the serving search and the frontier', async () => {
      const phone = await context.newPage();
      collectErrors(phone, consoleErrors, 'phone: ');
      await phone.setViewportSize(PHONE);
      await open(phone, url + '?v=1&mode=serving&hw=tpu-v5e&slat=0.03');
      await servingSearched(phone);
      check(
        'phone: the summary strip names latency per token and time to first token',
        /Latency per token.*Time to first token/.test(
          (await phone.locator('[data-headline-strip]').textContent()) ?? '',
        ),
      );
      // Each deployment is a card of labelled values on a phone (issue 41 #19): its latency and cost in view, nothing to scroll sideways.
      const cells = await phone
        .locator(
          'ss-serving-search tbody td:is([data-label="Latency per token"], [data-label="$ per 1M output tokens"])',
        )
        .evaluateAll((els) => els.map((e) => e.getBoundingClientRect()).map((r) => ({ left: r.left, right: r.right })));
      const rows = await phone.locator('ss-serving-search tbody tr').count();
      check(
        'phone: every deployment’s latency and cost are within the 390 px screen',
        rows > 0 && cells.length === 2 * rows && cells.every((c) => c.left >= 0 && c.right <= PHONE.width),
        `${cells.length} cells for ${rows} rows, rightmost at ${Math.max(...cells.map((c) => c.right))} px`,
      );
      const wrap = await phone
        .locator('ss-serving-search .table-wrap')
        .evaluate((e) => ({ sw: e.scrollWidth, cw: e.clientWidth }));
      check('phone: the deployment table does not scroll sideways', wrap.sw <= wrap.cw + 1, `${wrap.sw} > ${wrap.cw}`);
      const o2 = await phone.evaluate(() => ({
        sw: document.documentElement.scrollWidth,
        cw: document.documentElement.clientWidth,
      }));
      check(
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
      check(
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
      check(
        'phone: every frontier point, labelled or not, tells its batch on hover',
        tips.length >= 3 && tips.every((t) => /batch \d+/.test(t)) && new Set(tips).size === tips.length,
        tips.join(' / '),
      );
      await phone.mouse.move(0, 0);
      await phone.locator('#sweep-chart').screenshot({ path: path.join(SHOTS, 'explorer-phone-frontier.png') });
      await phone.close();
    });

    await step('frame-wait baseline', async () => {
      // What "to the next paint" costs on a page that does nothing: the wait for the next frame alone.
      const blank = await context.newPage();
      await blank.setContent('<p id="x">0</p>');
      const waits = await blank.evaluate(async () => {
        const out = [];
        for (let i = 0; i < 60; i++) {
          await new Promise((r) => setTimeout(r, Math.random() * 17));
          const t0 = performance.now();
          document.getElementById('x').textContent = String(i);
          await new Promise((res) =>
            requestAnimationFrame(() => {
              const ch = new MessageChannel();
              ch.port1.onmessage = () => res(undefined);
              ch.port2.postMessage(null);
            }),
          );
          out.push(performance.now() - t0);
        }
        return out;
      });
      figures.blankPaintMedianMs = percentile(waits, 0.5);
      figures.blankPaintP95Ms = percentile(waits, 0.95);
      await blank.close();
      check('frame-wait baseline measured', waits.length === 60);
    });

    const csp = await cspViolations(page);
    check(
      'no Content-Security-Policy violation (securitypolicyviolation events)',
      csp.length === 0,
      csp.slice(0, 3).join(' | '),
    );
    check(
      'no console errors (a CSP violation would be one)',
      consoleErrors.length === 0,
      consoleErrors.slice(0, 3).join(' | '),
    );
    const meta = fs.readFileSync(path.join(SITE, 'index.html'), 'utf8');
    check(
      'the explorer page carries a strict Content-Security-Policy',
      /http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'self' 'wasm-unsafe-eval';/.test(
        meta,
      ),
    );
  } finally {
    await browser.close();
    server.close();
  }

  const files = walk(SITE);
  figures.wasmGzipBytes = gzipSize(path.join(SITE, 'engine/scalescope_engine.wasm'));
  figures.totalGzipBytes = files.reduce((a, f) => a + gzipSize(f), 0);
  check(
    'engine wasm under 300 KB gzipped (docs/design.md budget)',
    figures.wasmGzipBytes < 300 * 1024,
    `${figures.wasmGzipBytes} B`,
  );
  if (figures.firstLoadGzipBytes !== undefined)
    check(
      'the explorer’s first load is at most 350 KB gzipped (issue 20)',
      figures.firstLoadGzipBytes <= 350 * 1024,
      `${figures.firstLoadGzipBytes} B: ${figures.firstLoadFiles.join(', ')}`,
    );
  fs.writeFileSync(path.join(REPO, 'build/web-figures.json'), JSON.stringify(figures, null, 2));
  const f1 = (x) => (typeof x === 'number' ? x.toFixed(1) : String(x));
  const over = (x, budget) => (x > budget ? ', OVER this budget on this run' : '');
  console.log('\nweb figures (Chromium headless, this machine):');
  console.log(
    `  slider-to-paint over ${figures.sliderMoves} moves (input event to the end of the frame that shows the numbers): median ${f1(figures.paintMedianMs)} ms, p95 ${f1(figures.paintP95Ms)} ms (budget: p95 16 ms${over(figures.paintP95Ms, 16)})`,
  );
  console.log(
    `    numbers in the DOM after the input: median ${f1(figures.renderMedianMs)} ms, p95 ${f1(figures.renderP95Ms)} ms (engine ${f1(figures.engineMedianMs)} ms, Lit's update ${f1(figures.litUpdateMedianMs)} ms); answered on the page for ${(100 * figures.localShare).toFixed(0)}% of moves, ${f1(figures.tripsPerMove)} worker round trips per move`,
  );
  console.log(
    `    the moved slider itself paints (first frame after the input): median ${f1(figures.inputFrameMedianMs)} ms, p95 ${f1(figures.inputFrameP95Ms)} ms; the numbers painted in that same frame for ${(100 * figures.sameFrameShare).toFixed(0)}% of moves`,
  );
  if (figures.chartLagP95Ms !== undefined)
    console.log(
      `  charts while a slider is dragged (one input per frame, ${figures.dragMoves} moves timed): ${figures.chartDrawsInDrag} redraws, behind the numbers by median ${f1(figures.chartLagMedianMs)} ms, p95 ${f1(figures.chartLagP95Ms)} ms (budget 50 ms${over(figures.chartLagP95Ms, 50)})`,
    );
  console.log(
    `    for scale, a page that only changes one text node paints after: median ${f1(figures.blankPaintMedianMs)} ms, p95 ${f1(figures.blankPaintP95Ms)} ms (the wait for the next frame)`,
  );
  if (figures.servingSearchEngineMs !== undefined)
    console.log(
      `  serving search (v5e, LLaMA-3 70B): ${figures.servingSearchEvaluated} deployments evaluated and ranked in ${f1(figures.servingSearchEngineMs)} ms in the engine (worker)`,
    );
  if (figures.planSearchEngineMs !== undefined)
    console.log(
      `  plan search (v5p 16×16×8, LLaMA-3 70B, the page's default, its first search): ${figures.planSearchEvaluated} plans evaluated and ranked in ${f1(figures.planSearchWallMs)} ms from the click, ${figures.planSearchChunks} chunks (${f1(figures.planSearchEngineMs)} ms in the engine, worker; budget 1 s${over(figures.planSearchWallMs, 1000)}; the worker's warm-up chunk took ${f1(figures.warmUpMs)} ms after load)`,
    );
  for (const [name, what] of [
    ['h100', 'LLaMA-3 70B on 4096 H100s'],
    ['pod', 'LLaMA-3 70B on a full v5p pod (28×20×16)'],
  ]) {
    const f = figures[`planSearch_${name}`];
    if (f)
      console.log(
        `  plan search (${what}): ${f.evaluated} plans in ${f1(f.wallMs)} ms from the click, ${f.chunks} chunks (${f1(f.engineMs)} ms in the engine, worker; budget 1 s${over(f.wallMs, 1000)})`,
      );
  }
  if (figures.hfHugeLinkMsMistral !== undefined)
    console.log(
      `  a link carrying a 1e9-layer config.json, open to interactive: Mistral ${f1(figures.hfHugeLinkMsMistral)} ms, Qwen2 ${f1(figures.hfHugeLinkMsQwen2)} ms (refused; it froze the page for 55 s before issue 41)`,
    );
  console.log(
    `  engine wasm gzipped: ${(figures.wasmGzipBytes / 1024).toFixed(1)} KB; whole site gzipped: ${(figures.totalGzipBytes / 1024).toFixed(1)} KB (the explorer's first load, what the page fetches before it is interactive: ${(figures.firstLoadGzipBytes / 1024).toFixed(1)} KB, budget 350 KB)`,
  );
  console.log(
    `  time to interactive: median ${f1(figures.interactiveMedianMs)} ms of three fresh browsers (${(figures.interactiveRunsMs ?? []).map(f1).join(', ')} ms; budget 600 ms${over(figures.interactiveMedianMs, 600)}; engines loaded ${f1(figures.engineLoadMs)} ms after the page started them in the first); screenshots in build/screenshots/`,
  );
  process.exitCode = t.finish();
}

main().catch((e) => {
  console.error(e);
  check('the browser test ran to the end', false, e instanceof Error ? e.message : String(e));
  process.exitCode = t.finish() || 1;
});
