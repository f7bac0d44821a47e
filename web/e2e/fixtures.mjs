// What the browser tests share (web/playwright.config.ts runs them in Debian's Chromium, never a downloaded browser;
// the site is build/site served by `vite preview`):
// - `test`, whose context watches every page it opens for console errors, page errors, HTTP errors and
//   Content-Security-Policy violations, and fails the test on any (the old suites' closing "no console errors");
// - `check(name, ok, detail)`: one of the old suites' checks, now a test step of that name holding a soft expect (a
//   failed check fails the test and the test goes on, as it did), its detail in the failure;
// - `recordFigures`: the measured figures, merged into ../build/playwright/figures.json (printed, never checked);
// - the explorer's page helpers (open, settled, metric, press, type, the plan and serving searches, downloads) and
//   the comparison with the native CLI (build/release/scalescope).
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { execFileSync } from 'node:child_process';
import { test as base, expect as baseExpect } from '@playwright/test';
import { cspViolations, watchCsp } from './page-checks.mjs';
import { CLI, FIGURES, REPO, SHOTS, SITE } from './paths.mjs';

export { CLI, FIGURES, REPO, SHOTS, SITE };
export const DESKTOP = { width: 1400, height: 1000 };
export const PHONE = { width: 390, height: 844 };

export const expect = baseExpect.extend({
  /** A boolean check that says its detail when it fails. */
  toHold(received, detail = '') {
    const pass = received === true || (received !== false && Boolean(received));
    return {
      pass,
      name: 'toHold',
      message: () => (pass ? 'held' : `did not hold${detail ? `: ${detail}` : ''} (got ${String(received)})`),
    };
  },
});

/** One check: a step named `name` with a soft expect, so that a failure is reported and the test continues. */
export async function check(name, ok, detail = '') {
  await base.step(
    name,
    async () => {
      expect.soft(ok, name).toHold(typeof detail === 'string' ? detail : String(detail));
    },
    { box: true },
  );
}

/** Collects console errors, page errors and HTTP errors of a page into `into` (prefixed with `label`). */
export function collectErrors(page, into, label = '') {
  page.on('console', (m) => {
    if (m.type() === 'error') into.push(`${label}${m.text()}`);
  });
  // The first frames of the stack say where: a message alone cannot be found again from CI's log.
  page.on('pageerror', (e) =>
    into.push(
      `${label}page error: ${e.message}${(e.stack ?? '')
        .split('\n')
        .slice(1, 4)
        .map((l) => ` ${l.trim()}`)
        .join('')}`,
    ),
  );
  page.on('response', (r) => {
    if (r.status() >= 400) into.push(`${label}HTTP ${r.status()} for ${r.url()}`);
  });
}

export const test = base.extend({
  /** The site's address (the config's baseURL: `vite preview` of build/site), ending in '/'. */
  url: async ({ baseURL }, use) => {
    await use(baseURL.endsWith('/') ? baseURL : `${baseURL}/`);
  },
  /** Every page of the test's context is watched; the test fails on a console error or a CSP violation. */
  context: async ({ context }, use) => {
    const errors = [];
    let n = 0;
    await watchCsp(context);
    context.on('page', (p) => collectErrors(p, errors, n++ ? `page ${n}: ` : ''));
    await use(context);
    const csp = [];
    for (const p of context.pages())
      if (/^https?:/.test(p.url())) csp.push(...(await cspViolations(p).catch(() => [])));
    expect(csp, 'no Content-Security-Policy violation (securitypolicyviolation events)').toEqual([]);
    expect(errors, 'no console errors (a CSP violation would be one)').toEqual([]);
  },
});

/** Merges measured figures into ../build/playwright/figures.json (one worker: no two writers). */
export function recordFigures(figures) {
  const old = fs.existsSync(FIGURES) ? JSON.parse(fs.readFileSync(FIGURES, 'utf8')) : {};
  fs.mkdirSync(path.dirname(FIGURES), { recursive: true });
  fs.writeFileSync(FIGURES, JSON.stringify({ ...old, ...figures }, null, 2));
}

export const f1 = (x) => (typeof x === 'number' ? x.toFixed(1) : String(x));

export function percentile(xs, q) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * (s.length - 1) + 0.5))];
}

export const gzipSize = (file) => zlib.gzipSync(fs.readFileSync(file), { level: 9 }).length;

// ------------------------------------------------------------------------------------------------ the native CLI

export function cli(scenario) {
  let out;
  try {
    out = execFileSync(CLI, ['-'], { input: JSON.stringify(scenario) }).toString();
  } catch (e) {
    out = e.stdout?.toString() ?? '';
  }
  return JSON.parse(out);
}

const get = (obj, p) => p.split('.').reduce((o, k) => (o == null ? undefined : o[k]), obj);

export async function compareWithCli(page, name, scenario, pairs) {
  const ref = cli(scenario);
  await check(
    `${name}: the CLI answers the same scenario`,
    ref.ok === true,
    JSON.stringify(ref.diagnostics ?? []).slice(0, 300),
  );
  for (const [id, p] of pairs) {
    const shown = await metric(page, id);
    const want = get(ref.result, p);
    await check(
      `${name}: ${id} on the page equals the CLI's ${p}`,
      shown !== undefined && shown === want,
      `page ${shown}, CLI ${want}`,
    );
  }
  return ref;
}

export const TRAINING_PAIRS = [
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
export const SERVING_PAIRS = [
  ['ttft_s', 'time_to_first_token_s'],
  ['latency_per_token_s', 'latency_per_token_s'],
  ['tokens_per_s', 'tokens_per_s'],
  ['usd_per_million_output_tokens', 'usd_per_million_output_tokens'],
  ['replica_memory_bytes', 'memory.total_bytes'],
];

// Hand-written, from docs/api.md: what the page must send for these controls (engine defaults left out).
export const training = (mesh, par, batch = 4194304, model = { preset: 'llama-3-70b' }) => ({
  hardware: { preset: mesh.hw ?? 'tpu-v5p' },
  model,
  mesh: { shape: mesh.shape },
  query: { kind: 'training_step', batch_tokens: batch, seq_len: 4096, parallelism: par, train_tokens: 15e12 },
});
export const DEFAULT_TRAINING = () => training({ shape: [16, 16, 8] }, { fsdp: ['X', 'Y'], tensor: ['Z'] });

// ------------------------------------------------------------------------------------------------ page helpers

export async function metric(page, id) {
  const v = await page
    .locator(
      `ss-headline:not(.phone-strip) [data-metric="${id}"], ss-serving-results [data-metric="${id}"], ss-facts [data-metric="${id}"]`,
    )
    .first()
    .getAttribute('data-value');
  return v === null || v === '' ? undefined : Number(v);
}

/** Waits until the numbers on screen were computed for the controls on screen (after `before` changed). */
export async function settled(page, before) {
  await page.waitForFunction(
    (b) => {
      const h = window.__scalescope;
      return h && h.ready && h.resultQuery === h.stateQuery && h.stateQuery !== b;
    },
    before,
    { timeout: 15000 },
  );
}

export const stateQuery = (page) => page.evaluate(() => window.__scalescope?.stateQuery ?? '');

export async function open(page, url) {
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
export async function chartsDrawn(page) {
  await page.waitForFunction(() => window.__scalescope.chartsQuery === window.__scalescope.stateQuery, null, {
    timeout: 15000,
  });
}

export async function shot(page, name) {
  await chartsDrawn(page).catch(() => {});
  // From the top: the sticky headline would otherwise be captured where the last scroll left it.
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: path.join(SHOTS, name), fullPage: true });
}

/** Opens every folded "More" section so its controls can be used. */
export async function unfold(page) {
  await page.evaluate(() => {
    for (const d of document.querySelector('scalescope-explorer').shadowRoot.querySelectorAll('ss-controls details'))
      d.open = true;
  });
}

export async function press(page, key, keyName) {
  const before = await stateQuery(page);
  await page.locator(`ss-controls input[type="range"][data-key="${key}"]`).focus();
  await page.keyboard.press(keyName);
  await settled(page, before);
}

export async function type(page, key, text) {
  const before = await stateQuery(page);
  const field = page.locator(`ss-controls input.num[data-key="${key}"]`);
  await field.fill(text);
  await field.press('Enter');
  await settled(page, before);
}

export async function status(page) {
  return page.locator('ss-headline:not(.phone-strip) [data-status]').getAttribute('data-status');
}

/** Clicks a download button and returns the file the page saved (playwright's download event). */
export async function saved(page, selector) {
  const [dl] = await Promise.all([page.waitForEvent('download'), page.locator(selector).click()]);
  return { name: dl.suggestedFilename(), body: fs.readFileSync(await dl.path()) };
}

/** A downloaded CSV's records (RFC 4180: CRLF after each; none of the fields checked here spans lines). */
// A downloaded CSV starts with the UTF-8 byte-order mark (state/csv.ts CSV_FILE_START); its records after it.
export const csvLines = (file) => {
  const text = file.body.toString('utf8');
  return (text.startsWith('\uFEFF') ? text.slice(1) : 'NO BYTE-ORDER MARK ' + text).split('\r\n').slice(0, -1);
};

/** The records under a CSV's results header (the block after the inputs). */
export function csvResults(lines, header) {
  const at = lines.findIndex((l) => l.startsWith(header));
  return at < 0 ? null : { header: lines[at].split(','), rows: lines.slice(at + 1) };
}

/** Does a downloaded SVG parse as XML (what an image viewer, or an <img>, needs)? Parsed in a blank page: the file's style rules are not the site's to allow. */
export async function wellFormed(page, svg) {
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
export async function launchShot(page, name, scope = '[data-plans]') {
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
export async function servingSearched(page) {
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
export async function findPlans(page) {
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
export const listedTp = (page) =>
  page.locator('[data-plan]').evaluateAll((els) => els.map((e) => Number(e.dataset.tp)));

/** Is the element's box inside the window (the whole height of it, at least 1 px wide)? */
export async function inViewport(page, selector) {
  return page
    .locator(selector)
    .first()
    .evaluate((el) => {
      const r = el.getBoundingClientRect();
      return r.width > 0 && r.top >= -1 && r.bottom <= window.innerHeight + 1;
    });
}

/** The chart labels drawn under `selector` (charts/labels.ts), and each pair whose boxes, as drawn, overlap. */
export async function chartLabels(page, selector) {
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
export async function shotBetween(page, from, to, name) {
  const [a, b, scrollY] = [await from.boundingBox(), await to.boundingBox(), await page.evaluate(() => window.scrollY)];
  await page.screenshot({
    path: path.join(SHOTS, name),
    fullPage: true,
    clip: { x: 0, y: a.y + scrollY, width: page.viewportSize().width, height: b.y + b.height - a.y },
  });
}

/**
 * The explorer's first load: every file of the site the page fetched before it was interactive (the document, its
 * scripts, the engine's glue and wasm), each at its gzipped size. Plot, the chapters and the worker come after.
 */
export async function firstLoad(page) {
  const fetched = await page.evaluate(() => [
    location.href,
    ...performance
      .getEntriesByType('resource')
      .filter((e) => e.startTime < window.__scalescope.interactiveMs)
      .map((e) => e.name),
  ]);
  const files = [...new Set(fetched.map((u) => new URL(u).pathname.replace(/^\//, '') || 'index.html'))]
    .map((rel) => path.join(SITE, rel.endsWith('/') ? `${rel}index.html` : rel))
    .filter((f) => fs.existsSync(f));
  return { files: files.map((f) => path.relative(SITE, f)), gzipBytes: files.reduce((a, f) => a + gzipSize(f), 0) };
}

// ------------------------------------------------------------------------------------------------ the profile page

export const TRACES = path.join(REPO, 'tests/traces');
const TOP = '15'; // the page asks for 15 rows

/** The CLI's answer for a trace file, as the page must show it. */
export function traceAnswer(file, ...args) {
  try {
    return JSON.parse(
      execFileSync(CLI, ['trace', file, '--json', '--top', TOP, ...args], { maxBuffer: 1 << 26 }).toString(),
    );
  } catch (e) {
    return JSON.parse(e.stdout.toString()); // exit status 1: the answer names what is wrong
  }
}

/** Waits for the profile page's read to end; returns its status and the engine's answer it shows. */
export async function traceRead(page, timeoutMs = 60000) {
  const el = page.locator('scalescope-profile');
  await page.waitForFunction(
    () => {
      const s = document.querySelector('scalescope-profile')?.getAttribute('data-status');
      return s === 'ready' || s === 'error';
    },
    null,
    { timeout: timeoutMs },
  );
  return el.evaluate((e) => ({ status: e.getAttribute('data-status'), answer: e.answer, error: e.error }));
}

/** Opens the profile page, ready for a file. */
export async function openProfile(page, url) {
  await page.goto(new URL('profile.html', url).href);
  await page.locator('scalescope-profile .drop').waitFor();
}
