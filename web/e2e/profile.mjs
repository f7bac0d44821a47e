// Browser test of the profile page (build/site/profile.html, issue 37) in Debian's Chromium: the sample trace and
// dropped files (gzipped or not) are read in the page's worker and give the CLI's numbers exactly (the same
// engine, `scalescope trace --json`); the chip can be changed; a bad file, a 1 GB file and a 100 MB one (with its
// progress, the page staying responsive) behave as docs/api.md "Traces" says. Screenshots:
// build/screenshots/profile/. Prints "profile: N passed, 0 failed" and the read times.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { serve } from '../scripts/serve.mjs';
import { checker, collectErrors, launch } from './chromium.mjs';
import { axeViolations, cspViolations, watchCsp } from './page-checks.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const REPO = path.resolve(here, '../..');
const SITE = process.env.SCALESCOPE_SITE ?? path.join(REPO, 'build/site');
const CLI = process.env.SCALESCOPE_CLI ?? path.join(REPO, 'build/release/scalescope');
const SHOTS = path.join(REPO, 'build/screenshots/profile');
const TRACES = path.join(REPO, 'tests/traces');
const TOP = '15'; // the page asks for 15 rows

const t = checker('profile');

/** The CLI's answer for a trace file, as the page must show it. */
function cliAnswer(file, ...args) {
  try {
    return JSON.parse(
      execFileSync(CLI, ['trace', file, '--json', '--top', TOP, ...args], { maxBuffer: 1 << 26 }).toString(),
    );
  } catch (e) {
    return JSON.parse(e.stdout.toString()); // exit status 1: the answer names what is wrong
  }
}

/** Waits for the page's read to end; returns its status and the engine's answer it shows. */
async function settled(page, timeoutMs = 60000) {
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

async function main() {
  fs.mkdirSync(SHOTS, { recursive: true });
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'scalescope-profile-'));
  const { server, url } = await serve(SITE, 0);
  const browser = await launch();
  const errors = [];
  const figures = {};
  try {
    await watchCsp(browser.context);
    const page = await browser.context.newPage();
    collectErrors(page, errors);
    await page.goto(new URL('profile.html', url).href);
    await page.locator('scalescope-profile .drop').waitFor();

    await t.step("the sample trace gives the CLI's answer", async () => {
      const t0 = Date.now();
      await page.getByRole('button', { name: /Try a sample/ }).click();
      const { status, answer } = await settled(page);
      figures.sampleReadMs = Date.now() - t0;
      const want = cliAnswer(path.join(TRACES, 'b200_vllm_gpt_oss_tp8_rank0.json'));
      t.check('the sample is read (gzipped, in the worker)', status === 'ready', status);
      t.check(
        "its answer is the CLI's, number for number",
        JSON.stringify(answer) === JSON.stringify(want),
        `${answer?.result?.kernel_time_s} vs ${want.result.kernel_time_s}`,
      );
      const moe = await page.locator('tr[data-class="moe"]').count();
      t.check('the class table shows MoE', moe === 1);
      await page.locator('.chart svg').first().waitFor({ timeout: 15000 });
      t.check('the roofline chart is drawn with the priced ops', (await page.locator('.chart svg circle').count()) > 0);
      const gaps = await page.locator('table.gaps tbody tr').count();
      t.check('the largest losses are listed with reasons', gaps >= 3, `${gaps} rows`);
      await page.screenshot({ path: path.join(SHOTS, 'sample.png'), fullPage: true });
    });

    await t.step('a dropped gzipped file and another chip', async () => {
      const gz = path.join(tmp, 'a100.pt.trace.json.gz');
      fs.writeFileSync(gz, zlib.gzipSync(fs.readFileSync(path.join(TRACES, 'a100_dlrm_8rank_rank3.json'))));
      await page.locator('input[type=file]').setInputFiles(gz);
      const { status, answer } = await settled(page);
      t.check(
        "a dropped .json.gz gives the CLI's answer",
        status === 'ready' && JSON.stringify(answer) === JSON.stringify(cliAnswer(gz)),
        status,
      );
      await page.locator('select').selectOption('h100-sxm');
      await page.waitForFunction(
        () => document.querySelector('scalescope-profile')?.answer?.result?.hardware?.id === 'h100-sxm',
        null,
        { timeout: 60000 },
      );
      const onH100 = await page.locator('scalescope-profile').evaluate((e) => e.answer);
      t.check(
        'choosing a chip prices the same trace on it, as --hardware does',
        JSON.stringify(onH100) === JSON.stringify(cliAnswer(gz, '--hardware', 'h100-sxm')),
      );
      await page.locator('select').selectOption('');
    });

    await t.step('a file that is not a trace', async () => {
      const bad = path.join(tmp, 'notes.json');
      fs.writeFileSync(bad, 'not a trace');
      await page.locator('input[type=file]').setInputFiles(bad);
      const { status } = await settled(page);
      const shown = await page.locator('.diagnostics').innerText();
      t.check(
        "is refused with the engine's words",
        status === 'error' && shown.includes('a trace is a JSON object'),
        shown,
      );
    });

    await t.step('a 1 GB file', async () => {
      const huge = path.join(tmp, 'huge.json');
      fs.closeSync(fs.openSync(huge, 'w'));
      fs.truncateSync(huge, 1_100_000_000); // sparse: nothing is written
      await page.locator('input[type=file]').setInputFiles(huge);
      const { status, error } = await settled(page);
      t.check(
        'is refused at once with the limit and what to do',
        status === 'error' && /over the 1 GB/.test(error),
        error,
      );
    });

    await t.step('a 100 MB trace', async () => {
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
      const { status, answer } = await settled(page, 120000);
      figures.bigReadMs = Date.now() - t0;
      figures.bigMegabytes = bytes / 1e6;
      t.check(
        'is read, with its progress shown',
        status === 'ready' && during.progress > 0,
        `${status}, progress ${during.progress}`,
      );
      t.check('the page paints while it reads', during.frames >= 10, `${during.frames} frames in 1 s`);
      t.check("its kernels are every copy's", answer?.result?.kernels > 929 * 100, `${answer?.result?.kernels}`);
    });

    const axe = await axeViolations(page);
    t.check('no accessibility violations (axe-core, WCAG 2.1 AA)', axe.length === 0, axe.slice(0, 3).join(' | '));
    await page.setViewportSize({ width: 390, height: 844 });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth);
    t.check("fits a phone's width", overflow <= 391, `${overflow} px`);
    await page.screenshot({ path: path.join(SHOTS, 'phone.png'), fullPage: true });
    const csp = await cspViolations(page);
    t.check('no Content-Security-Policy violations', csp.length === 0, csp.slice(0, 3).join(' | '));
    t.check('no console errors', errors.length === 0, errors.slice(0, 3).join(' | '));
  } finally {
    await browser.close();
    server.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  console.log('\nprofile figures:');
  console.log(`  sample trace (740 KB, gzipped) read and drawn: ${figures.sampleReadMs} ms`);
  console.log(
    `  ${figures.bigMegabytes?.toFixed(0)} MB trace read in the browser: ${((figures.bigReadMs ?? NaN) / 1000).toFixed(1)} s`,
  );
  process.exitCode = t.finish();
}

main().catch((e) => {
  console.error(e);
  t.check('the profile test ran to the end', false, e instanceof Error ? e.message : String(e));
  process.exitCode = t.finish() || 1;
});
