// The performance project (playwright.config.ts): issue 20's figures, measured and printed (and merged into
// ../build/playwright/figures.json), never a pass/fail on a wall-clock time (a busy machine is not the page's time: a
// fresh clone's run once failed at "time to interactive 611 ms > 600"). Slider-to-paint, charts during a drag and the
// frame-wait baseline for scale, time to interactive, the plan searches' wall times, site weight (its byte budgets
// are checks: sizes, not times) and the profile page's trace read times. The checks here hold what the figures rest
// on (the numbers are answered on the page, the searches complete), none of them a time.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  SITE,
  REPO,
  TRACES,
  DESKTOP,
  chartsDrawn,
  check,
  f1,
  findPlans,
  firstLoad,
  gzipSize,
  open,
  openProfile,
  percentile,
  press,
  recordFigures,
  test,
  traceRead,
} from './fixtures.mjs';

const MOVES = Number(process.env.SCALESCOPE_SLIDER_MOVES ?? 60);
const over = (x, budget) => (x > budget ? ', OVER this budget on this run' : '');
const walk = (dir) =>
  fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((d) => (d.isDirectory() ? walk(path.join(dir, d.name)) : [path.join(dir, d.name)]));

test('time to interactive: the median of three fresh browsers (issue 20, reported)', async ({
  playwright,
  launchOptions,
  url,
}) => {
  // Three first navigations, each in a new browser with an empty profile: one slow start of the machine is not the
  // page's time.
  const times = [];
  let engineLoadMs;
  for (let i = 0; i < 3; i++) {
    const fresh = await playwright.chromium.launch({ ...launchOptions, headless: true });
    try {
      const p = await fresh.newPage({ viewport: DESKTOP });
      await open(p, url);
      times.push(await p.evaluate(() => window.__scalescope.interactiveMs));
      engineLoadMs ??= await p.evaluate(() => window.__scalescope.engineLoadMs);
    } finally {
      await fresh.close();
    }
  }
  await check(
    'time to interactive is measured',
    times.every((t) => Number.isFinite(t)),
    times.join(', '),
  );
  const figures = { interactiveRunsMs: times, interactiveMedianMs: percentile(times, 0.5), engineLoadMs };
  recordFigures(figures);
  console.log(
    `time to interactive: median ${f1(figures.interactiveMedianMs)} ms of three fresh browsers (${times.map(f1).join(', ')} ms; budget 600 ms${over(figures.interactiveMedianMs, 600)}; engines loaded ${f1(engineLoadMs)} ms after the page started them in the first)`,
  );
});

test('slider to paint: the numbers paint in the slider’s own frame', async ({ page, url, context }) => {
  const figures = {};
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
  await check(
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
  await check(`timed at least 50 of ${MOVES} slider moves`, lat.length >= Math.min(50, MOVES), `${lat.length}`);
  // One wasm call a move (issue 39): the mesh question and the numbers on the mesh the engine lays out, together
  // (a sequence move changes the mesh question too: CP's stops depend on it).
  await check(
    'every move was answered by the page’s own engine in one wasm call: no worker round trip',
    lat.every((l) => l.local && l.trips === 0 && l.calls === 1),
    JSON.stringify(lat.find((l) => !l.local || l.trips > 0 || l.calls !== 1)),
  );
  recordFigures(figures);
  console.log(
    `slider-to-paint over ${figures.sliderMoves} moves (input event to the end of the frame that shows the numbers): median ${f1(figures.paintMedianMs)} ms, p95 ${f1(figures.paintP95Ms)} ms (budget: p95 16 ms${over(figures.paintP95Ms, 16)})`,
  );
  console.log(
    `  numbers in the DOM after the input: median ${f1(figures.renderMedianMs)} ms, p95 ${f1(figures.renderP95Ms)} ms (engine ${f1(figures.engineMedianMs)} ms, Lit's update ${f1(figures.litUpdateMedianMs)} ms); answered on the page for ${(100 * figures.localShare).toFixed(0)}% of moves, ${f1(figures.tripsPerMove)} worker round trips per move`,
  );
  console.log(
    `  the moved slider itself paints (first frame after the input): median ${f1(figures.inputFrameMedianMs)} ms, p95 ${f1(figures.inputFrameP95Ms)} ms; the numbers painted in that same frame for ${(100 * figures.sameFrameShare).toFixed(0)}% of moves`,
  );
});

test('charts follow a drag: one input per frame for a second, the charts at most 50 ms behind the numbers', async ({
  page,
  url,
  context,
}) => {
  const figures = {};
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
  await check(
    'the charts redraw while the slider moves, not only when it rests',
    lags.length >= 3,
    `${lags.length} draws in 60 frames`,
  );
  recordFigures(figures);
  console.log(
    `charts while a slider is dragged (one input per frame, ${figures.dragMoves} moves timed): ${figures.chartDrawsInDrag} redraws, behind the numbers by median ${f1(figures.chartLagMedianMs)} ms, p95 ${f1(figures.chartLagP95Ms)} ms (budget 50 ms${over(figures.chartLagP95Ms, 50)})`,
  );
});

test('plan search: the page’s first search, from the click (issue 20, reported)', async ({ page, url }) => {
  await open(page, url);
  // A reader's first click comes once the page has drawn; by then the worker has run its warm-up chunk (the
  // explorer's warmUpSearch), so the first search does not pay for the wasm reaching its optimising tier.
  await chartsDrawn(page);
  await page.waitForFunction(() => window.__scalescope.warmUpMs !== undefined, null, { timeout: 10000 });
  const warmUpMs = await page.evaluate(() => window.__scalescope.warmUpMs);
  const run = await findPlans(page);
  await check('the search completes with plans listed', run.complete && run.plans > 0, JSON.stringify(run.fracs));
  const figures = {
    warmUpMs,
    planSearchWallMs: run.wallMs,
    planSearchChunks: run.chunks,
    planSearchEngineMs: run.engineMs,
    planSearchEvaluated: run.evaluated,
  };
  recordFigures(figures);
  console.log(
    `plan search (v5p 16×16×8, LLaMA-3 70B, the page's default, its first search): ${figures.planSearchEvaluated} plans evaluated and ranked in ${f1(figures.planSearchWallMs)} ms from the click, ${figures.planSearchChunks} chunks (${f1(figures.planSearchEngineMs)} ms in the engine, worker; budget 1 s${over(figures.planSearchWallMs, 1000)}; the worker's warm-up chunk took ${f1(warmUpMs)} ms after load)`,
  );
});

test('plan search: the whole space for LLaMA-3 70B on 4096 H100s and on a full v5p pod, in the worker', async ({
  page,
  url,
  context,
}) => {
  const figures = {};
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
    await check(
      `${name}: the whole space searched with progress shown, best plans listed`,
      run.complete && run.plans > 0 && run.seen.at(-1) === 100,
      JSON.stringify(figures[`planSearch_${name}`]),
    );
  }
  recordFigures(figures);
  for (const [name, what] of [
    ['h100', 'LLaMA-3 70B on 4096 H100s'],
    ['pod', 'LLaMA-3 70B on a full v5p pod (28×20×16)'],
  ]) {
    const f = figures[`planSearch_${name}`];
    console.log(
      `plan search (${what}): ${f.evaluated} plans in ${f1(f.wallMs)} ms from the click, ${f.chunks} chunks (${f1(f.engineMs)} ms in the engine, worker; budget 1 s${over(f.wallMs, 1000)})`,
    );
  }
});

test('frame-wait baseline', async ({ page, url, context }) => {
  const figures = {};
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
  await check('frame-wait baseline measured', waits.length === 60);
  recordFigures(figures);
  console.log(
    `for scale, a page that only changes one text node paints after: median ${f1(figures.blankPaintMedianMs)} ms, p95 ${f1(figures.blankPaintP95Ms)} ms (the wait for the next frame)`,
  );
});

test('site weight: the engine, the explorer’s first load, the whole site and the widgets (byte budgets)', async ({
  page,
  url,
}) => {
  await open(page, url);
  const first = await firstLoad(page);
  const gz = (f) => gzipSize(path.join(SITE, f));
  const entry = fs.readFileSync(path.join(SITE, 'widgets.js'), 'utf8');
  const staticDeps = [...entry.matchAll(/from"\.\/(assets\/[^"]+\.js)"/g)].map((m) => m[1]);
  const figures = {
    wasmGzipBytes: gz('engine/scalescope_engine.wasm'),
    totalGzipBytes: walk(SITE).reduce((a, f) => a + gzipSize(f), 0),
    firstLoadFiles: first.files,
    firstLoadGzipBytes: first.gzipBytes,
    widgetsJsGzipBytes: gz('widgets.js'),
    widgetsFirstLoadGzipBytes: gz('widgets.js') + staticDeps.reduce((a, f) => a + gz(f), 0),
  };
  await check(
    'engine wasm under 300 KB gzipped (docs/design.md budget)',
    figures.wasmGzipBytes < 300 * 1024,
    `${figures.wasmGzipBytes} B`,
  );
  await check(
    // 350 KB (issue 20) until the engine's nearest_fit (issue 39, 9 KB of wasm gzipped): docs/architecture.md "Size".
    'the explorer’s first load is at most 360 KB gzipped (issue 20; issue 39)',
    figures.firstLoadGzipBytes <= 360 * 1024,
    `${figures.firstLoadGzipBytes} B: ${figures.firstLoadFiles.join(', ')}`,
  );
  const buildFile = path.join(REPO, 'build/chapters-build.json');
  const build = fs.existsSync(buildFile) ? JSON.parse(fs.readFileSync(buildFile, 'utf8')) : {};
  recordFigures({ ...figures, chapterBuild: build });
  console.log(
    `engine wasm gzipped: ${(figures.wasmGzipBytes / 1024).toFixed(1)} KB; whole site gzipped: ${(figures.totalGzipBytes / 1024).toFixed(1)} KB (the explorer's first load, what the page fetches before it is interactive: ${(figures.firstLoadGzipBytes / 1024).toFixed(1)} KB, budget 360 KB)`,
  );
  console.log(
    `widgets.js gzipped: ${(figures.widgetsJsGzipBytes / 1024).toFixed(1)} KB; with the chunks it imports: ${(figures.widgetsFirstLoadGzipBytes / 1024).toFixed(1)} KB (then the engine wasm; Plot only for widgets with charts)`,
  );
  console.log(
    `chapter build: ${build.pages} pages, ${build.references} references (${build.numbers} engine numbers), ${build.widgets} widgets in ${Number(build.ms).toFixed(0)} ms`,
  );
});

test('trace read time: the sample trace (gzipped, in the worker)', async ({ page, url }) => {
  await openProfile(page, url);
  const t0 = Date.now();
  await page.getByRole('button', { name: /Try a sample/ }).click();
  const { status } = await traceRead(page);
  const sampleReadMs = Date.now() - t0;
  await check('the sample is read', status === 'ready', status);
  recordFigures({ sampleReadMs });
  console.log(`sample trace (740 KB, gzipped) read and drawn: ${sampleReadMs} ms`);
});

/** A synthetic trace of about `megabytes` MB: the B200 fixture's events repeated, each copy later in time. */
function bigTrace(file, megabytes) {
  const base = JSON.parse(fs.readFileSync(path.join(TRACES, 'b200_vllm_gpt_oss_tp8_rank0.json'), 'utf8'));
  const events = base.traceEvents;
  const span = Math.max(...events.map((e) => e.ts + (e.dur ?? 0))) - Math.min(...events.map((e) => e.ts));
  const fd = fs.openSync(file, 'w');
  fs.writeSync(fd, `{"deviceProperties":${JSON.stringify(base.deviceProperties)},"traceEvents":[`);
  let written = 0,
    copy = 0;
  while (written < megabytes * 1e6) {
    const shift = copy * (span + 1000),
      ids = copy * 1e7;
    const text = events
      .map((e) =>
        JSON.stringify({
          ...e,
          ts: e.ts + shift,
          args: {
            ...e.args,
            ...(e.args['External id'] !== undefined ? { 'External id': e.args['External id'] + ids } : {}),
            ...(e.args.correlation !== undefined ? { correlation: e.args.correlation + ids } : {}),
          },
        }),
      )
      .join(',');
    fs.writeSync(fd, (copy ? ',' : '') + text);
    written += text.length;
    copy++;
  }
  fs.writeSync(fd, ']}');
  fs.closeSync(fd);
  return written;
}

test('a 100 MB trace', async ({ page, url }) => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'scalescope-profile-'));
  try {
    await openProfile(page, url);
    const big = path.join(tmp, 'big.json');
    const bytes = bigTrace(big, 100);
    const t0 = Date.now();
    await page.locator('input[type=file]').setInputFiles(big);
    // While it reads: the progress bar moves and the page keeps painting frames.
    const during = await page.evaluate(async () => {
      let frames = 0,
        progress = 0;
      const stop = performance.now() + 1000;
      while (performance.now() < stop) {
        await new Promise((r) => requestAnimationFrame(r));
        frames++;
        const p = document.querySelector('scalescope-profile')?.shadowRoot?.querySelector('progress');
        if (p) progress = Math.max(progress, Number(p.value));
      }
      return { frames, progress };
    });
    const { status, answer } = await traceRead(page, 120000);
    const figures = { bigReadMs: Date.now() - t0, bigMegabytes: bytes / 1e6, framesInFirstSecondOfRead: during.frames };
    await check(
      'is read, with its progress shown',
      status === 'ready' && during.progress > 0,
      `${status}, progress ${during.progress}`,
    );
    // How many frames it paints in that second is the machine's speed (reported); that it paints is the page's.
    await check('the page paints while it reads', during.frames >= 2, `${during.frames} frames in 1 s`);
    await check("its kernels are every copy's", answer?.result?.kernels > 929 * 100, `${answer?.result?.kernels}`);
    recordFigures(figures);
    console.log(
      `${figures.bigMegabytes.toFixed(0)} MB trace read in the browser: ${(figures.bigReadMs / 1000).toFixed(1)} s (${during.frames} frames painted in its first second)`,
    );
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
});
