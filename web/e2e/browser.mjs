// Browser test of the built site (build/site) in Debian's Chromium through playwright-core (never a downloaded
// browser). Serves the site on 127.0.0.1 itself, drives the explorer like a reader (keyboard on sliders, selects,
// links), compares the page's numbers with the native CLI for the same scenarios, and measures slider-to-paint,
// site weight and time to interactive. Screenshots go to build/screenshots/. Prints "browser: N passed, 0 failed".
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { serve } from '../scripts/serve.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const REPO = path.resolve(here, '../..');
const SITE = process.env.SCALESCOPE_SITE ?? path.join(REPO, 'build/site');
const CLI = process.env.SCALESCOPE_CLI ?? path.join(REPO, 'build/release/scalescope');
const SHOTS = path.join(REPO, 'build/screenshots');
const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
const MOVES = Number(process.env.SCALESCOPE_SLIDER_MOVES ?? 60);
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--disable-quic'];

let passed = 0;
let failed = 0;
const failures = [];
const consoleErrors = [];

function check(name, ok, detail = '') {
  if (ok) {
    passed++;
    console.log(`  ok   ${name}`);
  } else {
    failed++;
    failures.push(`${name}${detail ? ': ' + detail : ''}`);
    console.log(`  FAIL ${name}${detail ? ': ' + detail : ''}`);
  }
}

async function step(name, fn) {
  try {
    await fn();
  } catch (e) {
    check(name, false, e instanceof Error ? e.message.split('\n')[0] : String(e));
  }
}

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

function gzipSize(file) {
  return zlib.gzipSync(fs.readFileSync(file), { level: 9 }).length;
}

function walk(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((d) => (d.isDirectory() ? walk(path.join(dir, d.name)) : [path.join(dir, d.name)]));
}

// ------------------------------------------------------------------------------------------------ page helpers

async function metric(page, id) {
  const v = await page.locator(`[data-metric="${id}"]`).first().getAttribute('data-value');
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

async function stateQuery(page) {
  return page.evaluate(() => window.__scalescope?.stateQuery ?? '');
}

async function open(page, url) {
  await page.goto(url);
  await page.waitForFunction(() => window.__scalescope?.ready && window.__scalescope.resultQuery === window.__scalescope.stateQuery && window.__scalescope.renders > 0, null, { timeout: 20000 });
}

/** Waits for the charts of the state on screen (they follow the numbers once the controls rest). */
async function chartsDrawn(page) {
  await page.waitForFunction(() => window.__scalescope.chartsQuery === window.__scalescope.stateQuery, null, { timeout: 15000 });
}

async function shot(page, name) {
  await chartsDrawn(page);
  await page.screenshot({ path: path.join(SHOTS, name), fullPage: true });
}

async function findPlans(page) {
  await page.locator('#find-plans').click();
  await page.waitForFunction(() => (window.__scalescope.search?.plans ?? 0) > 0 && document.querySelector('scalescope-explorer')?.shadowRoot?.querySelector('[data-plan]'), null, { timeout: 20000 });
}

async function press(page, key, keyName) {
  const before = await stateQuery(page);
  await page.locator(`input[type="range"][data-key="${key}"]`).focus();
  await page.keyboard.press(keyName);
  await settled(page, before);
}

async function compareWithCli(page, name, scenario, pairs) {
  const ref = cli(scenario);
  check(`${name}: the CLI answers the same scenario`, ref.ok === true, JSON.stringify(ref.diagnostics ?? []).slice(0, 300));
  for (const [id, p] of pairs) {
    const shown = await metric(page, id);
    const want = get(ref.result, p);
    check(`${name}: ${id} on the page equals the CLI's ${p}`, shown !== undefined && shown === want, `page ${shown}, CLI ${want}`);
  }
}

const TRAINING_PAIRS = [
  ['step_s', 'time.step_s'], ['mfu_frac', 'mfu_frac'], ['tokens_per_s', 'tokens_per_s'], ['memory_bytes', 'memory.total_bytes'],
  ['train_time_s', 'cost.train_time_s'], ['usd_per_hour', 'cost.usd_per_hour'], ['train_usd', 'cost.train_usd'],
];
const SERVING_PAIRS = [
  ['ttft_s', 'prefill.time_s'], ['latency_per_token_s', 'latency_per_token_s'], ['tokens_per_s', 'tokens_per_s'],
  ['usd_per_million_output_tokens', 'usd_per_million_output_tokens'], ['memory_bytes', 'memory.total_bytes'],
];

// Hand-written, from docs/api.md: what the page must send for these controls (engine defaults left out).
const training = (mesh, par, batch = 4194304) => ({
  hardware: { preset: mesh.hw ?? 'tpu-v5p' }, model: { preset: 'llama-3-70b' }, mesh: { shape: mesh.shape },
  query: { kind: 'training_step', batch_tokens: batch, seq_len: 4096, parallelism: par, train_tokens: 15e12 },
});

// ------------------------------------------------------------------------------------------------ run

async function main() {
  if (!fs.existsSync(path.join(SITE, 'index.html'))) throw new Error(`${SITE} has no index.html: run vite build first`);
  if (!fs.existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install chromium (scripts/setup.sh does)`);
  fs.mkdirSync(SHOTS, { recursive: true });
  const { server, url } = await serve(SITE, 0);
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'scalescope-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM, headless: true, args: FLAGS, viewport: { width: 1400, height: 1000 },
  });
  const figures = {};
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    page.on('console', (m) => {
      if (m.type() === 'error') consoleErrors.push(m.text());
    });
    page.on('pageerror', (e) => consoleErrors.push(`page error: ${e.message}`));

    await step('opens the explorer', async () => {
      await page.goto(url);
      const loadingSeen = await page.locator('scalescope-explorer').count();
      check('the explorer element is on the page', loadingSeen === 1);
      await open(page, url);
      figures.interactiveMs = await page.evaluate(() => window.__scalescope.interactiveMs);
      figures.engineLoadMs = await page.evaluate(() => window.__scalescope.engineLoadMs);
      check('time to interactive is measured', Number.isFinite(figures.interactiveMs));
      await shot(page, 'explorer-default.png');
      check('the URL carries the version key', new URL(page.url()).search === '' || page.url().includes('v=1'));
    });

    await step('default numbers equal the CLI', async () => {
      await compareWithCli(page, 'default', training({ shape: [4, 4, 4] }, { fsdp: ['X', 'Y'], tensor: ['Z'] }), TRAINING_PAIRS);
      const bars = await page.locator('figure.bars').count();
      check('time and memory bars are drawn', bars >= 2, `${bars} bar figures`);
      const thr = await page.locator('[data-threshold]').count();
      check('thresholds are listed in words', thr >= 1);
    });

    await step('sliders move numbers and the URL', async () => {
      const before = await metric(page, 'step_s');
      await press(page, 'tp', 'ArrowRight'); // TP 4 -> 8
      await press(page, 'batch', 'ArrowLeft'); // 4M -> 2M tokens
      const after = await metric(page, 'step_s');
      check('step time changed', after !== before, `${before} -> ${after}`);
      await page.waitForFunction(() => window.location.search.includes('tp=8') && window.location.search.includes('batch=2097152'), null, { timeout: 5000 });
      check('URL holds the moved values', true);
      const numInput = await page.locator('input.num[data-key="tp"]').inputValue();
      check('the numeric input beside the slider follows it', numInput === '8', numInput);
      await compareWithCli(page, 'after moves', training({ shape: [4, 4, 8] }, { fsdp: ['X', 'Y'], tensor: ['Z'] }, 2097152), TRAINING_PAIRS);
      await shot(page, 'explorer-moved.png');
    });

    await step('typing in a numeric input', async () => {
      const before = await stateQuery(page);
      await page.locator('input.num[data-key="seq"]').fill('8192');
      await page.locator('input.num[data-key="seq"]').press('Enter');
      await settled(page, before);
      const slider = await page.locator('input[type="range"][data-key="seq"]').inputValue();
      check('the slider follows the numeric input', slider === '13', slider);
      const b2 = await stateQuery(page);
      await page.locator('input.num[data-key="seq"]').fill('4096');
      await page.locator('input.num[data-key="seq"]').press('Enter');
      await settled(page, b2);
    });

    await step('reload from the URL', async () => {
      const ids = TRAINING_PAIRS.map(([id]) => id);
      const before = await Promise.all(ids.map((id) => metric(page, id)));
      await page.waitForFunction(() => window.location.search === '?' + window.__scalescope.stateQuery);
      await open(page, page.url());
      const after = await Promise.all(ids.map((id) => metric(page, id)));
      check('a reload restores every number', JSON.stringify(before) === JSON.stringify(after), `${before} vs ${after}`);
      const tp = await page.locator('input.num[data-key="tp"]').inputValue();
      check('a reload restores the controls', tp === '8', tp);
    });

    await step('compare: pin and change', async () => {
      await page.locator('#pin').click();
      await press(page, 'tp', 'ArrowLeft'); // back to 4
      const rows = await page.locator('table.compare tbody tr').count();
      const delta = await page.locator('[data-delta="step_s"]').textContent();
      check('the compare table shows pinned vs now with deltas', rows >= 5 && /%|same/.test(delta ?? ''), `${rows} rows, delta ${delta}`);
      await shot(page, 'explorer-compare.png');
      await page.locator('#unpin').click();
    });

    await step('slider-to-paint timing', async () => {
      await open(page, url);
      await page.evaluate(() => {
        window.__scalescope.latencies.length = 0;
      });
      // A walk over distinct (batch, sequence) pairs, so that no move is answered from the worker's cache.
      let dir = 'ArrowLeft';
      let batchPos = 22; // log2 of the default batch
      for (let i = 0; i < MOVES; i++) {
        if ((dir === 'ArrowLeft' && batchPos <= 13) || (dir === 'ArrowRight' && batchPos >= 27)) {
          await press(page, 'seq', 'ArrowRight');
          dir = dir === 'ArrowLeft' ? 'ArrowRight' : 'ArrowLeft';
          continue;
        }
        await press(page, 'batch', dir);
        batchPos += dir === 'ArrowLeft' ? -1 : 1;
      }
      const lat = await page.evaluate(() => window.__scalescope.latencies);
      const painted = lat.map((l) => l.painted);
      const rendered = lat.map((l) => l.rendered);
      figures.sliderMoves = lat.length;
      figures.paintMedianMs = percentile(painted, 0.5);
      figures.paintP95Ms = percentile(painted, 0.95);
      figures.renderMedianMs = percentile(rendered, 0.5);
      figures.renderP95Ms = percentile(rendered, 0.95);
      figures.receivedMedianMs = percentile(lat.map((l) => l.received), 0.5);
      figures.engineMedianMs = percentile(lat.map((l) => l.engine), 0.5);
      figures.litUpdateMedianMs = percentile(lat.map((l) => l.update), 0.5);
      // The paint is frame-aligned: after the DOM is ready the page waits for the next frame to begin. Without that
      // last wait, what is left is the engine, the render, the slider's own frame and the frame's style, layout, paint.
      const work = lat.map((l) => l.painted - l.frameWait);
      figures.frameWaitMedianMs = percentile(lat.map((l) => l.frameWait), 0.5);
      const inputFrames = lat.map((l) => l.inputFrame).filter((x) => Number.isFinite(x));
      figures.inputFrameMedianMs = percentile(inputFrames, 0.5);
      figures.inputFrameP95Ms = percentile(inputFrames, 0.95);
      // Moves whose numbers were painted in the very frame that showed the moved slider.
      figures.sameFrameShare = lat.filter((l) => Number.isFinite(l.inputFrame) && l.painted - l.inputFrame < 1).length / lat.length;
      figures.workMedianMs = percentile(work, 0.5);
      figures.workP95Ms = percentile(work, 0.95);
      figures.tripsPerMove = lat.reduce((a, l) => a + l.trips, 0) / lat.length;
      figures.wasmCallsPerMove = lat.reduce((a, l) => a + l.calls, 0) / lat.length;
      figures.cachedPerMove = lat.reduce((a, l) => a + l.cached, 0) / lat.length;
      check(`timed at least 50 of ${MOVES} slider moves`, lat.length >= Math.min(50, MOVES), `${lat.length}`);
      check('a slider move costs at most one worker round trip and one wasm call', lat.every((l) => l.trips <= 1 && l.calls <= 1), JSON.stringify(lat.find((l) => l.trips > 1 || l.calls > 1)));
    });

    await step('plan search: find, list, apply (TPU)', async () => {
      await open(page, url);
      await findPlans(page);
      const rows = await page.locator('[data-plan]').count();
      check('the best plans are listed', rows >= 3, `${rows} rows`);
      const header = (await page.locator('table.plans thead').textContent()) ?? '';
      check('the plan table names step, MFU, memory, binding threshold, time and cost to train', ['Step', 'MFU', 'Memory', 'Binding', 'Time and cost to train'].every((w) => header.includes(w)), header);
      figures.planSearchEngineMs = await page.evaluate(() => window.__scalescope.search?.engineMs);
      figures.planSearchEvaluated = await page.evaluate(() => window.__scalescope.search?.evaluated);
      // Apply the third plan (one that is not what the page shows already), then the first.
      for (const i of [2, 0]) {
        const want = Number(await page.locator(`[data-plan="${i}"]`).getAttribute('data-step'));
        const before = await stateQuery(page);
        await page.locator(`[data-apply="${i}"]`).click();
        await settled(page, before);
        const shown = await metric(page, 'step_s');
        check(`apply plan ${i + 1}: the step time shown equals the plan's step_s`, shown === want, `page ${shown}, plan ${want}`);
        check(`apply plan ${i + 1}: the plan is marked as the one on screen`, (await page.locator(`[data-plan="${i}"]`).getAttribute('aria-current')) === 'true');
      }
      await page.waitForFunction(() => window.location.search.includes('layout='), null, { timeout: 5000 });
      check('the URL carries the plan (degrees and layout)', true);
      await shot(page, 'explorer-plans.png');
      // A reload reproduces the applied plan exactly.
      const step = await metric(page, 'step_s');
      await page.waitForFunction(() => window.location.search === '?' + window.__scalescope.stateQuery);
      await open(page, page.url());
      check('a reload keeps the applied plan’s step time', (await metric(page, 'step_s')) === step);
      // Moving a degree returns to the page's own layout.
      await press(page, 'tp', 'ArrowRight');
      check('moving a degree drops the plan’s layout', !(await stateQuery(page)).includes('layout='));
    });

    await step('plan search on a GPU: the plan’s own mesh', async () => {
      await open(page, url + '?v=1&hw=h100-sxm&fsdp=32&tp=8');
      await findPlans(page);
      const want = Number(await page.locator('[data-plan="0"]').getAttribute('data-step'));
      const before = await stateQuery(page);
      await page.locator('[data-apply="0"]').click();
      await settled(page, before);
      check('GPU: the step time shown equals the first plan’s step_s', (await metric(page, 'step_s')) === want, `page ${await metric(page, 'step_s')}, plan ${want}`);
      const chips = await metric(page, 'chips');
      check('GPU: the plan keeps the chip count', chips === 256, String(chips));
    });

    await step('serving mode', async () => {
      await open(page, url);
      const before = await stateQuery(page);
      await page.locator('select[data-key="mode"]').selectOption('serving');
      await settled(page, before);
      await compareWithCli(page, 'serving', {
        hardware: { preset: 'tpu-v5p' }, model: { preset: 'llama-3-70b' }, mesh: { shape: [2, 2] },
        query: { kind: 'serving', batch: 32, prompt_len: 8192, generated_len: 512, parallelism: { tensor: ['X', 'Y'] } },
      }, SERVING_PAIRS);
      await page.waitForFunction(() => window.location.search.includes('mode=serving'));
      // The sweep chart follows the numbers once the controls rest: wait for it, then for its third dot (the Plot
      // module may still be loading on a busy machine), rather than counting at once.
      await chartsDrawn(page);
      await page.locator('#sweep-chart svg circle').nth(2).waitFor({ timeout: 15000 }).catch(() => {});
      const sweepDots = await page.locator('#sweep-chart svg circle').count();
      check('the batch sweep frontier is drawn', sweepDots >= 3, `${sweepDots} dots`);
      await shot(page, 'explorer-serving.png');
    });

    await step('serving: KV context, speculative decoding and efficiency', async () => {
      await open(page, url + '?v=1&mode=serving&hw=tpu-v5e&wdt=int8&kvdt=int8&tp=16');
      let before = await stateQuery(page);
      await page.locator('input.num[data-key="kvctx"]').fill('4096');
      await page.locator('input.num[data-key="kvctx"]').press('Enter');
      await settled(page, before);
      before = await stateQuery(page);
      await page.locator('input[type="checkbox"][data-key="spec"]').check();
      await settled(page, before);
      check('speculative controls appear when it is on', (await page.locator('input.num[data-key="lookahead"]').count()) === 1);
      before = await stateQuery(page);
      await page.locator('input.num[data-key="eff_flops"]').fill('0.5');
      await page.locator('input.num[data-key="eff_flops"]').press('Enter');
      await settled(page, before);
      const scenario = {
        hardware: { preset: 'tpu-v5e' }, model: { preset: 'llama-3-70b' }, mesh: { shape: [4, 4] },
        query: { kind: 'serving', batch: 32, prompt_len: 8192, generated_len: 512, dtypes: { weights: 'int8', kv: 'int8' }, parallelism: { tensor: ['X', 'Y'] },
          kv_context_len: 4096, efficiency: { flops_frac: 0.5 }, speculative: { draft_model: { preset: 'llama-3-8b' }, lookahead: 4, acceptance_rate: 0.8 } },
      };
      await compareWithCli(page, 'serving with speculation', scenario, [...SERVING_PAIRS, ['spec_latency_per_token_s', 'speculative.latency_per_token_s'], ['spec_tokens_per_step', 'speculative.expected_tokens_per_step'], ['spec_speedup', 'speculative.speedup']]);
      await page.waitForFunction(() => ['kvctx=4096', 'spec=1', 'eff_flops=0.5'].every((k) => window.location.search.includes(k)), null, { timeout: 5000 });
      check('the URL holds the KV context, speculation and efficiency', true);
      await shot(page, 'explorer-speculative.png');
    });

    await step('training: checkpoints remat and efficiency', async () => {
      await open(page, url);
      let before = await stateQuery(page);
      await page.locator('select[data-key="remat"]').selectOption('checkpoints');
      await settled(page, before);
      check('checkpoints per layer appears with the checkpoints remat', (await page.locator('input.num[data-key="ckpt"]').count()) === 1);
      before = await stateQuery(page);
      await page.locator('input.num[data-key="eff_net"]').fill('0.6');
      await page.locator('input.num[data-key="eff_net"]').press('Enter');
      await settled(page, before);
      const s = training({ shape: [4, 4, 4] }, { fsdp: ['X', 'Y'], tensor: ['Z'] });
      Object.assign(s.query, { remat: 'checkpoints', checkpoints_per_layer: 4, efficiency: { network_frac: 0.6 } });
      await compareWithCli(page, 'checkpoints remat, 60% network', s, TRAINING_PAIRS.slice(0, 4));
    });

    await step('GPU hardware and a hardware override', async () => {
      await open(page, url);
      let before = await stateQuery(page);
      await page.locator('select[data-key="hw"]').selectOption('h100-sxm');
      await settled(page, before);
      await compareWithCli(page, 'h100', training({ hw: 'h100-sxm', shape: [16, 4] }, { fsdp: ['X'], tensor: ['Y'] }), TRAINING_PAIRS.slice(0, 4));
      await page.locator('details.hwfields summary').click();
      before = await stateQuery(page);
      await page.locator('input[data-hw="hbm_bandwidth_bytes_per_s"]').fill('6.7e12');
      await page.locator('input[data-hw="hbm_bandwidth_bytes_per_s"]').press('Enter');
      await settled(page, before);
      await page.waitForFunction(() => window.location.search.includes('hw.hbm_bandwidth_bytes_per_s=6700000000000'));
      const badge = await page.locator('.hwf.overridden .badge').count();
      check('an overridden chip field is marked', badge >= 1);
      const s = training({ hw: 'h100-sxm', shape: [16, 4] }, { fsdp: ['X'], tensor: ['Y'] });
      s.hardware.overrides = { hbm_bandwidth_bytes_per_s: 6.7e12 };
      await compareWithCli(page, 'h100 with faster HBM', s, TRAINING_PAIRS.slice(0, 4));
      await shot(page, 'explorer-gpu-override.png');
    });

    await step('malformed and hostile links', async () => {
      const hostile = '?v=1&tp=banana&mode=%3Cimg%20src%3Dx%20onerror%3D%22window.__pwned%3D1%22%3E&hw.nope=1&%3Cscript%3E=1&batch=1e999';
      await open(page, url + hostile);
      const notice = page.locator('[data-notice]');
      check('a notice explains what was ignored', (await notice.count()) === 1 && /tp|Tensor/.test((await notice.textContent()) ?? ''));
      const injected = await page.evaluate(() => {
        const root = document.querySelector('scalescope-explorer')?.shadowRoot;
        return { img: root?.querySelectorAll('img').length ?? -1, script: root?.querySelectorAll('script').length ?? -1, pwned: window.__pwned === 1 };
      });
      check('no markup from the link reaches the page', injected.img === 0 && injected.script === 0 && !injected.pwned, JSON.stringify(injected));
      check('the page falls back to defaults and still computes', (await metric(page, 'step_s')) !== undefined);
      await shot(page, 'explorer-bad-link.png');
      for (const q of ['?v=7&tp=8', '?v=1&x=%E0%A4%A', '?' + 'a'.repeat(9000)]) {
        await open(page, url + q);
        check(`link ${q.slice(0, 24)}… shows a notice, not a blank page`, (await page.locator('[data-notice]').count()) === 1 && (await metric(page, 'step_s')) !== undefined);
      }
    });

    await step('a mesh the chip cannot hold is explained in place', async () => {
      await open(page, url + '?v=1&hw=tpu-v5e&dp=2');
      const text = (await page.locator('[data-diagnostics]').first().textContent()) ?? '';
      check('a problem is shown in words', /torus|axes/.test(text), text.slice(0, 160));
      await shot(page, 'explorer-mesh-problem.png');
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
          await new Promise((res) => requestAnimationFrame(() => {
            const ch = new MessageChannel();
            ch.port1.onmessage = () => res(undefined);
            ch.port2.postMessage(null);
          }));
          out.push(performance.now() - t0);
        }
        return out;
      });
      figures.blankPaintMedianMs = percentile(waits, 0.5);
      figures.blankPaintP95Ms = percentile(waits, 0.95);
      await blank.close();
      check('frame-wait baseline measured', waits.length === 60);
    });

    check('no console errors', consoleErrors.length === 0, consoleErrors.slice(0, 3).join(' | '));
  } finally {
    await context.close();
    server.close();
    fs.rmSync(profile, { recursive: true, force: true });
  }

  const files = walk(SITE);
  figures.wasmGzipBytes = gzipSize(path.join(SITE, 'engine/scalescope_engine.wasm'));
  figures.totalGzipBytes = files.reduce((a, f) => a + gzipSize(f), 0);
  figures.firstLoadGzipBytes = files.filter((f) => !/plots-/.test(f)).reduce((a, f) => a + gzipSize(f), 0);
  check('engine wasm under 300 KB gzipped (DESIGN.md budget)', figures.wasmGzipBytes < 300 * 1024, `${figures.wasmGzipBytes} B`);
  fs.writeFileSync(path.join(REPO, 'build/web-figures.json'), JSON.stringify(figures, null, 2));
  const f1 = (x) => (typeof x === 'number' ? x.toFixed(1) : String(x));
  console.log('\nweb figures (Chromium headless, this machine):');
  console.log(`  slider-to-paint over ${figures.sliderMoves} moves, frame-aligned (input event to the end of the frame that shows the numbers): median ${f1(figures.paintMedianMs)} ms, p95 ${f1(figures.paintP95Ms)} ms`);
  console.log(`    engine + render (input to numbers in the DOM): median ${f1(figures.renderMedianMs)} ms, p95 ${f1(figures.renderP95Ms)} ms; answer back from the worker: median ${f1(figures.receivedMedianMs)} ms, of which engine ${f1(figures.engineMedianMs)} ms; Lit's DOM update of the results: median ${f1(figures.litUpdateMedianMs)} ms`);
  console.log(`    input to paint less the final wait for a frame to begin (engine, render, the slider's own frame, the paint): median ${f1(figures.workMedianMs)} ms, p95 ${f1(figures.workP95Ms)} ms; frame wait median ${f1(figures.frameWaitMedianMs)} ms`);
  console.log(`    the moved slider itself paints (first frame after the input): median ${f1(figures.inputFrameMedianMs)} ms, p95 ${f1(figures.inputFrameP95Ms)} ms; numbers in that same frame for ${(100 * figures.sameFrameShare).toFixed(0)}% of moves (Chromium holds the worker's answer until that frame is done, so the numbers usually paint one frame later)`);
  console.log(`    per move: ${f1(figures.tripsPerMove)} worker round trips, ${f1(figures.wasmCallsPerMove)} wasm calls, ${f1(figures.cachedPerMove)} scenarios from the page's cache`);
  if (figures.planSearchEngineMs !== undefined) console.log(`  plan search (v5p 4×4×4, LLaMA-3 70B): ${figures.planSearchEvaluated} plans evaluated and ranked in ${f1(figures.planSearchEngineMs)} ms in the engine (worker)`);
  console.log(`  for scale, a page that only changes one text node paints after: median ${f1(figures.blankPaintMedianMs)} ms, p95 ${f1(figures.blankPaintP95Ms)} ms (waiting for the next frame)`);
  console.log(`  engine wasm gzipped: ${(figures.wasmGzipBytes / 1024).toFixed(1)} KB; whole site gzipped: ${(figures.totalGzipBytes / 1024).toFixed(1)} KB (${(figures.firstLoadGzipBytes / 1024).toFixed(1)} KB before the lazily loaded charts)`);
  console.log(`  time to interactive: ${f1(figures.interactiveMs)} ms (engine load ${f1(figures.engineLoadMs)} ms); screenshots in build/screenshots/`);
  if (failures.length) console.log('\nfailures:\n  ' + failures.join('\n  '));
  console.log(`browser: ${passed} passed, ${failed} failed`);
  process.exitCode = failed ? 1 : 0;
}

main().catch((e) => {
  console.error(e);
  console.log(`browser: ${passed} passed, ${failed + 1} failed`);
  process.exitCode = 1;
});
