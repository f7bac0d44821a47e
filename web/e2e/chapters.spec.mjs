// The chapter pages and the widgets (build/site/chapters, build/site/widgets.js). Every chapter page loads with its
// title, links and engine numbers; every widget on every page starts when scrolled near, renders numbers from the
// engine, answers one keyboard input with new numbers, and logs no console error; every "open in the explorer" link,
// a widget's or one in the text, lands on a state that fits; pages fit a phone's width; a bare page on another origin
// holding only the script tag and one widget works. Screenshots: build/screenshots/chapters/.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { AXE_VERSION, axeViolations, cspViolations } from './page-checks.mjs';
import { CLI, PHONE, REPO, SHOTS as ALL_SHOTS, check, collectErrors, test } from './fixtures.mjs';

const CHAPTERS = path.join(REPO, 'chapters');
const SHOTS = path.join(ALL_SHOTS, 'chapters');
const NUMBERS = JSON.parse(fs.readFileSync(path.join(CHAPTERS, 'numbers.json'), 'utf8'));
const DESK = { width: 1400, height: 900 };
test.use({ viewport: DESK });

/** The engine's value of a numbers.json reference, from the native CLI (the text shows it formatted). */
function referenceValue(ref) {
  const def = NUMBERS[ref];
  const out = JSON.parse(execFileSync(CLI, ['-'], { input: JSON.stringify(def.scenario) }).toString());
  return def.path
    .split('/')
    .slice(1)
    .reduce((o, k) => (o == null ? undefined : o[k]), out);
}
/** Front matter and widget elements of each page, read from the Markdown (what the build must have rendered). */
function sources() {
  return fs
    .readdirSync(CHAPTERS)
    .filter((f) => /^\d\d-[a-z0-9-]+\.md$/.test(f))
    .sort()
    .map((f) => {
      const text = fs.readFileSync(path.join(CHAPTERS, f), 'utf8');
      const fm = Object.fromEntries(
        [...text.split('---')[1].matchAll(/^([a-z_]+):\s*(.*)$/gm)].map((m) => [
          m[1],
          m[2]
            .trim()
            .replace(/^"(.*)"$/, '$1')
            .replace(/\s+#.*$/, ''),
        ]),
      );
      const widgets = [...text.matchAll(/<scalescope-widget view="([^"]+)"/g)].map((m) => m[1]);
      return { slug: f.slice(0, -3), fm, widgets };
    });
}

/** Waits until a widget shows numbers computed for the state on screen (after `before`, the previous state, if given). */
async function widgetSettled(w, before = null) {
  await w.evaluate(async (el, b) => {
    const deadline = performance.now() + 20000;
    for (;;) {
      const s = el.getAttribute('data-status');
      const q = el.getAttribute('data-state-query');
      if ((s === 'ready' && el.getAttribute('data-result-query') === q && q !== b) || s === 'error') return;
      if (performance.now() > deadline)
        throw new Error(`widget ${el.getAttribute('view')} did not settle (status ${s})`);
      await new Promise((r) => setTimeout(r, 25));
    }
  }, before);
}

async function metrics(w) {
  return w.evaluate((el) =>
    [...el.shadowRoot.querySelectorAll('[data-metric]')].map(
      (m) => `${m.getAttribute('data-metric')}=${m.getAttribute('data-value')}|${m.textContent}`,
    ),
  );
}

async function chartDrawn(w) {
  const has = await w.evaluate((el) => el.shadowRoot.querySelector('.chart') !== null);
  if (!has) return true;
  await w.evaluate(async (el) => {
    const deadline = performance.now() + 20000;
    while (el.shadowRoot.querySelector('.chart')?.getAttribute('data-drawn') !== el.getAttribute('data-result-query')) {
      if (performance.now() > deadline) throw new Error('chart not drawn');
      await new Promise((r) => setTimeout(r, 25));
    }
  });
  return w.evaluate((el) => el.shadowRoot.querySelector('.chart svg, .chart figure') !== null);
}

/** Checks one widget: numbers, one keyboard input changes them, chart drawn, links. */
async function exerciseWidget(page, w, label) {
  await w.scrollIntoViewIfNeeded();
  await widgetSettled(w);
  const status = await w.getAttribute('data-status');
  const problems = await w.evaluate((el) =>
    [...el.shadowRoot.querySelectorAll('[data-problem], [data-error]')].map((p) => p.textContent.trim().slice(0, 200)),
  );
  await check(
    `${label}: renders numbers from the engine`,
    status === 'ready' && problems.length === 0 && (await metrics(w)).length > 0,
    `${status} ${problems.join(' | ')}`,
  );
  await check(`${label}: chart drawn (where it has one)`, await chartDrawn(w));
  // One input: the first slider, moved one step down by the keyboard (up at the bottom of its range). Down keeps
  // the book's configurations valid (e.g. the training-roofline figure's 4096 chips to 2048; 8192 would not fit a v5p slice).
  const slider = w.locator('input[type="range"]').first();
  const before = await metrics(w);
  const q0 = await w.getAttribute('data-state-query');
  await slider.focus();
  const atMin = await slider.evaluate((el) => Number(el.value) <= Number(el.min));
  await page.keyboard.press(atMin ? 'ArrowRight' : 'ArrowLeft');
  await widgetSettled(w, q0);
  const after = await metrics(w);
  const key = await slider.getAttribute('data-key');
  const numInput = await w.locator(`input.num[data-key="${key}"]`).inputValue();
  const problemsAfter = await w.evaluate((el) =>
    [...el.shadowRoot.querySelectorAll('[data-problem], [data-error]')].map((p) => p.textContent.trim().slice(0, 200)),
  );
  await check(
    `${label}: moving “${key}” by keyboard changes the numbers`,
    JSON.stringify(before) !== JSON.stringify(after) &&
      (await w.getAttribute('data-status')) === 'ready' &&
      problemsAfter.length === 0,
    `${before.slice(0, 2)} -> ${after.slice(0, 2)} ${problemsAfter.join(' | ')}`,
  );
  const inState = new URLSearchParams(await w.getAttribute('data-state-query')).get(key);
  await check(
    `${label}: the numeric input follows the slider`,
    numInput !== '' && (inState === null || Number(inState) === Number(numInput)),
    `${numInput} vs ${inState}`,
  );
  const href = await w.locator('[data-explorer-link]').getAttribute('href');
  const embed = await w.locator('textarea.embed').inputValue();
  const q1 = await w.getAttribute('data-state-query');
  await check(
    `${label}: "open in explorer" carries the state and "copy embed code" the element`,
    /\/index\.html\?v=1/.test(href) &&
      embed.includes('/widgets.js"></script>') &&
      embed.includes(`state="${q1.replace(/&/g, '&amp;')}"`),
    `${href} | ${embed.slice(0, 160)}`,
  );
  await chartDrawn(w);
}

/** The widget's defaults show the numbers of the paragraph beside it (its `reproduces` attribute). */
async function reproduces(w, label) {
  const spec = (await w.getAttribute('reproduces')) ?? '';
  if (!spec) return;
  await w.scrollIntoViewIfNeeded();
  await widgetSettled(w);
  for (const pair of spec.split(/\s+/)) {
    const [metric, ref] = pair.split(':');
    const shown = Number(await w.locator(`[data-metric="${metric}"]`).first().getAttribute('data-value'));
    const want = referenceValue(ref);
    await check(
      `${label}: its default ${metric} is the text's {{${ref}}}`,
      Number.isFinite(shown) && Math.abs(shown - want) <= 1e-9 * Math.abs(want),
      `widget ${shown}, text ${want}`,
    );
  }
}

/**
 * Opens an explorer link in a page of its own and checks where it lands, once the explorer's engine has computed the
 * link's state (its result is for the state on screen): no notice (unknown keys, values out of range), no error in
 * the diagnostics, no console error, and a plan that fits with no warning ("ok"), or with warnings when `mayWarn`.
 */
async function explorerLands(context, href, label, what, mayWarn = false) {
  const p = await context.newPage();
  const own = [];
  collectErrors(p, own, `${label} explorer: `);
  await p.goto(href);
  await p.waitForFunction(
    () =>
      window.__scalescope?.ready &&
      window.__scalescope.renders > 0 &&
      window.__scalescope.resultQuery === window.__scalescope.stateQuery,
    null,
    { timeout: 20000 },
  );
  const st = await p.locator('ss-headline:not(.phone-strip) [data-status]').getAttribute('data-status');
  const errs = await p.locator('[data-diagnostics] li.err').allTextContents();
  const notices = await p.locator('[data-notice]').allTextContents();
  const text = await p.locator('ss-headline:not(.phone-strip) [data-status-text]').textContent();
  await check(
    `${label}: ${what} gives a state that runs and fits, with no ${mayWarn ? 'errors' : 'warning or error'}`,
    (st === 'ok' || (st === 'warning' && mayWarn)) && errs.length === 0 && notices.length === 0 && own.length === 0,
    `${st}: ${text} ${errs.join(' | ')} ${notices.join(' | ').trim().slice(0, 300)} ${own.join(' | ')} ${href}`,
  );
  await p.close();
}

/**
 * "Open in the explorer" from the widget gives the explorer a state it can run, once the widget's engine has checked
 * the link (data-link-checked). A model-free view's link carries a model that also warns of nothing; a view of a
 * model's plan may warn about it (the applied-training chapter's planner: 1024 sequences over 560 shards).
 */
async function explorerLink(context, w, label) {
  const link = w.locator('[data-explorer-link][data-link-checked]');
  await link.waitFor({ timeout: 20000 });
  const href = await link.getAttribute('href');
  const fitted = (await link.getAttribute('data-link-model-fitted')) !== null;
  await explorerLands(context, href, label, '"open in the explorer"', !fitted);
}

/**
 * The explorer links in a page's text (`[Open in the explorer](../index.html?v=1&…)`; the widgets' own links sit in
 * their shadow roots, which document.querySelectorAll does not enter): as many as the Markdown has, and each lands on
 * what its paragraph shows, a state that fits with no warning (issue 39).
 */
async function proseExplorerLinks(context, page, slug, label) {
  const md = fs.readFileSync(path.join(CHAPTERS, `${slug}.md`), 'utf8');
  const inSource = [...md.matchAll(/\]\((\.\.\/index\.html\?v=1[^)\s]*)\)/g)].map((m) => ({
    href: m[1],
    line: md.slice(0, m.index).split('\n').length,
  }));
  const links = await page.evaluate(() =>
    [...document.querySelectorAll('article a[href*="index.html?v=1"]')].map((a) => ({
      href: a.href,
      raw: a.getAttribute('href'),
    })),
  );
  await check(
    `${label}: every explorer link of the text is on the page (${inSource.length})`,
    links.length === inSource.length && links.every((l, i) => l.raw === inSource[i].href),
    `${links.map((l) => l.raw).join(' ')} vs ${inSource.map((l) => l.href).join(' ')}`,
  );
  for (const [i, l] of links.entries()) {
    await explorerLands(
      context,
      l.href,
      `${label} text link ${i + 1} (chapters/${slug}.md:${inSource[i]?.line})`,
      'the link',
    );
  }
}

/** The planner asks the engine's plan search and applies its best plan: the widget then shows that plan's step. */
async function suggestAndUse(w, label) {
  await w.scrollIntoViewIfNeeded();
  await widgetSettled(w);
  await w.locator('[data-suggest]').click();
  const row = w.locator('[data-suggestions] tbody tr').first();
  await row.waitFor({ timeout: 20000 });
  const want = await row.getAttribute('data-step');
  const q0 = await w.getAttribute('data-state-query');
  await row.locator('[data-use-plan]').click();
  await widgetSettled(w, q0);
  const shown = await w.locator('[data-metric="step_s"]').getAttribute('data-value');
  await check(
    `${label}: "suggest the best plan" applies the engine's best plan (its step time is shown)`,
    shown === want && (await w.getAttribute('data-state-query')).includes('layout='),
    `${shown} vs ${want}`,
  );
}

async function noOverflow(page) {
  return page.evaluate(() => ({ sw: document.documentElement.scrollWidth, cw: document.documentElement.clientWidth }));
}

/**
 * The boxes that scroll sideways at this width (display formulas, tables, and in widgets their charts and tables), each
 * with whether it has the scroll cue: shadows fixed at its edges under covers that scroll with it (charts/scroll-cue.ts).
 */
async function sidewaysScrollers(page) {
  return page.evaluate(() => {
    const roots = [
      document,
      ...[...document.querySelectorAll('scalescope-widget')].map((w) => w.shadowRoot).filter(Boolean),
    ];
    return roots
      .flatMap((root) => [...root.querySelectorAll('.math, .table-wrap, .chart, .scroll')])
      .filter((el) => el.scrollWidth > el.clientWidth + 1)
      .map((el) => {
        const s = getComputedStyle(el);
        return {
          kind: el.classList[0],
          cue: s.backgroundImage !== 'none' && s.backgroundAttachment === 'local, local, scroll, scroll',
        };
      });
  });
}

/** A screenshot of the page's first formula wider than the screen, with the text around it; false if there is none. */
async function shotWideFormula(page) {
  const formula = page.locator('.math').filter({ has: page.locator('.katex-display') });
  const i = await formula.evaluateAll((els) => els.findIndex((el) => el.scrollWidth > el.clientWidth + 1));
  if (i < 0) return false;
  await formula.nth(i).evaluate((el) => el.scrollIntoView({ block: 'center' }));
  const box = await formula.nth(i).boundingBox();
  await page.screenshot({
    path: path.join(SHOTS, 'phone-wide-formula.png'),
    clip: { x: 0, y: Math.max(0, box.y - 80), width: PHONE.width, height: box.height + 160 },
  });
  return true;
}

const pages = sources();

test('chapter index', async ({ page, url }) => {
  await page.goto(url + 'chapters/index.html');
  const items = await page.locator('ol.toc > li').count();
  await check('the index lists every chapter', items === pages.length, `${items} of ${pages.length}`);
  await page.screenshot({ path: path.join(SHOTS, '00-index.png'), fullPage: true });
  await page.goto(url);
  const link = page.locator('a[href*="chapters/"]').first();
  await check('the explorer links to the chapters', (await link.count()) === 1);
  await link.click();
  await page.waitForURL(/chapters\/(index\.html)?$/);
  await check('the link opens the chapter index', (await page.locator('ol.toc').count()) === 1);
});

for (const src of pages) {
  test(`page ${src.slug}`, async ({ page, url, context }) => {
    const label = src.slug;
    await page.goto(`${url}chapters/${src.slug}.html`);
    await check(
      `${label}: title from the front matter`,
      (await page.title()).startsWith(src.fm.title.slice(0, 30)),
      await page.title(),
    );
    const book = await page.locator('[data-book-link]').getAttribute('href');
    await check(`${label}: links to the book's chapter`, book === src.fm.book_chapter_url, book);
    // A first or last page has no such link (counted, not waited for).
    const pagerLink = async (rel) => {
      const a = page.locator(`.pager a[rel="${rel}"]`);
      return (await a.count()) ? a.getAttribute('href') : null;
    };
    const prev = await pagerLink('prev');
    const next = await pagerLink('next');
    await check(
      `${label}: prev/next links follow the front matter`,
      (src.fm.prev === 'null' ? prev === null : prev === `${src.fm.prev}.html`) &&
        (src.fm.next === 'null' ? next === null : next === `${src.fm.next}.html`),
      `${prev} ${next}`,
    );
    const text = await page.locator('article').evaluate((a) => {
      const clone = a.cloneNode(true);
      clone.querySelectorAll('code, pre, scalescope-widget').forEach((n) => n.remove());
      return clone.textContent;
    });
    const nums = await page.locator('article .num').count();
    await check(
      `${label}: every reference is an engine number (no {{…}} left)`,
      !text.includes('{{') && nums > 0,
      `${nums} numbers`,
    );
    const katex = await page.locator('.katex').count();
    const fontsOk = await page.evaluate(async () => {
      await document.fonts.ready;
      return [...document.fonts].filter((f) => f.family.includes('KaTeX') && f.status === 'error').length === 0;
    });
    await check(
      `${label}: math typeset by KaTeX, fonts load`,
      (katex > 0 || !fs.readFileSync(path.join(CHAPTERS, `${src.slug}.md`), 'utf8').includes('$')) && fontsOk,
      `${katex} formulas`,
    );
    const widgets = page.locator('article scalescope-widget');
    const n = await widgets.count();
    await check(`${label}: ${src.widgets.length} widget(s) on the page`, n === src.widgets.length, `${n}`);
    // Work starts only near the viewport: a widget far below the fold is still idle.
    if (n > 0) {
      const far = await page.evaluate(() =>
        [...document.querySelectorAll('article scalescope-widget')]
          .filter((el) => el.getBoundingClientRect().top > window.innerHeight + 1200)
          .map((el) => el.getAttribute('data-status')),
      );
      if (far.length)
        await check(
          `${label}: widgets far below the fold wait (IntersectionObserver)`,
          far.every((s) => s === 'idle'),
          far.join(','),
        );
    }
    for (let i = 0; i < n; i++) {
      const wl = `${label} widget ${i + 1} (${src.widgets[i]})`;
      await reproduces(widgets.nth(i), wl);
      await explorerLink(context, widgets.nth(i), wl);
    }
    await proseExplorerLinks(context, page, src.slug, label);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: path.join(SHOTS, `${src.slug}.png`), fullPage: true });
    const csp = await cspViolations(page);
    await check(`${label}: no Content-Security-Policy violation`, csp.length === 0, csp.slice(0, 3).join(' | '));
    const a11y = await axeViolations(page);
    await check(
      `${label}: axe-core ${AXE_VERSION} finds no WCAG A/AA violation`,
      a11y.length === 0,
      a11y.slice(0, 3).join(' || '),
    );
    for (let i = 0; i < n; i++) {
      if (src.widgets[i] === 'training-planner') await suggestAndUse(widgets.nth(i), label);
      await exerciseWidget(page, widgets.nth(i), `${label} widget ${i + 1} (${src.widgets[i]})`);
    }
  });
}

test('phone width', async ({ page, url }) => {
  await page.setViewportSize(PHONE);
  const wide = [];
  const scrollers = [];
  let formulaShot = false;
  for (const src of pages) {
    await page.goto(`${url}chapters/${src.slug}.html`);
    const widgets = page.locator('article scalescope-widget');
    for (let i = 0; i < (await widgets.count()); i++) {
      await widgets.nth(i).scrollIntoViewIfNeeded();
      await widgetSettled(widgets.nth(i));
    }
    const o = await noOverflow(page);
    if (o.sw > o.cw + 1) wide.push(`${src.slug} (${o.sw}px)`);
    scrollers.push(...(await sidewaysScrollers(page)).map((b) => ({ ...b, page: src.slug })));
    formulaShot ||= await shotWideFormula(page);
    if (src.widgets.length) {
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.screenshot({ path: path.join(SHOTS, `phone-${src.slug}.png`), fullPage: true });
    }
  }
  await check('every page fits a 390px phone screen (no sideways scrolling)', wide.length === 0, wide.join(', '));
  const formulas = scrollers.filter((b) => b.kind === 'math');
  await check(
    'at 390 px some display formulas are wider than the column and scroll sideways',
    formulas.length > 0,
    `${formulas.length}`,
  );
  const bare = scrollers.filter((b) => !b.cue);
  await check(
    'every box that scrolls sideways at 390 px shows the scroll cue (issue 41 #19)',
    bare.length === 0,
    `${bare.length} of ${scrollers.length} without: ${bare.map((b) => `${b.page} .${b.kind}`).join(', ')}`,
  );
  await page.setViewportSize({ width: 1400, height: 900 });
});

test('bare page on another origin', async ({ context, url }) => {
  const bare = `<!doctype html><meta charset="utf-8"><title>bare</title>
<script type="module" src="${url}widgets.js"></script>
<p>A page that only embeds one widget.</p>
<scalescope-widget view="collective" state="v=1&amp;hw=tpu-v5e&amp;op=all_reduce&amp;tp=16"></scalescope-widget>
<scalescope-widget view="no-such-view"></scalescope-widget>`;
  // The one server a test starts itself: the check needs a second origin (a page elsewhere that only holds the
  // script tag), which `vite preview` cannot be. The site answers its requests as GitHub Pages would: vite
  // preview's CORS lets any 127.0.0.1 origin load widgets.js and the engine.
  const other = http.createServer((_req, res) =>
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(bare),
  );
  await new Promise((r) => other.listen(0, '127.0.0.1', r));
  try {
    const p2 = await context.newPage();
    const own = [];
    collectErrors(p2, own, 'bare page: ');
    await p2.goto(`http://127.0.0.1:${other.address().port}/`);
    const w = p2.locator('scalescope-widget[view="collective"]');
    await exerciseWidget(p2, w, 'bare page (cross-origin) collective');
    const unknown = await p2.locator('scalescope-widget[view="no-such-view"] [data-error]').textContent();
    await check('an unknown view is explained in place', /Unknown widget view/.test(unknown ?? ''), unknown ?? '');
    await check('the bare page logs no console errors', own.length === 0, own.slice(0, 3).join(' | '));
    await p2.screenshot({ path: path.join(SHOTS, 'bare-page.png'), fullPage: true });
    // The explorer link of a widget opens the explorer with that state and no notice about unknown keys.
    const href = await w.locator('[data-explorer-link]').getAttribute('href');
    await p2.goto(href);
    await p2.waitForFunction(() => window.__scalescope?.ready && window.__scalescope.renders > 0, null, {
      timeout: 20000,
    });
    await check(
      'the explorer opens a widget’s state without a notice',
      (await p2.locator('[data-notice]').count()) === 0 &&
        p2.url().includes('hw=tpu-v5e') &&
        p2.url().includes('tp=16'),
      p2.url(),
    );
    await p2.close();
  } finally {
    other.close();
  }
});

test('embed page', async ({ context, url }) => {
  const p3 = await context.newPage();
  const own = [];
  collectErrors(p3, own, 'embed page: ');
  await p3.goto(`${url}embed.html?view=roofline&state=${encodeURIComponent('v=1&hw=tpu-v5e&ai=30')}`);
  const w = p3.locator('scalescope-widget');
  await widgetSettled(w);
  await check(
    'embed.html shows the widget its URL names, with that state',
    (await w.getAttribute('view')) === 'roofline' && (await w.getAttribute('data-state-query')).includes('ai=30'),
  );
  await p3.goto(`${url}embed.html?view=%3Cimg%20src%3Dx%3E&state=%3Cb%3E`);
  const unknown = await p3.locator('scalescope-widget [data-error]').textContent();
  await check(
    'embed.html puts URL text in attributes only: an unknown view is explained, no markup injected',
    /Unknown widget view/.test(unknown ?? '') &&
      (await p3.evaluate(() => document.querySelectorAll('img, b').length)) === 0,
  );
  const csp = await cspViolations(p3);
  await check(
    'embed.html: a Content-Security-Policy and no violation',
    csp.length === 0 && (await p3.locator('meta[http-equiv="Content-Security-Policy"]').count()) === 1,
    csp.join(' | '),
  );
  await check('embed.html logs no console errors', own.length === 0, own.slice(0, 3).join(' | '));
  await p3.screenshot({ path: path.join(SHOTS, 'embed-page.png'), fullPage: true });
  await p3.close();
});
