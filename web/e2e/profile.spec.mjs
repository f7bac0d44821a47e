// The profile page (build/site/profile.html, issue 37): the sample trace and dropped files (gzipped or not) are read
// in the page's worker and give the CLI's numbers exactly (the same engine, `scalescope trace --json`); the chip can
// be changed; a bad file and a 1 GB one behave as docs/api.md "Traces" says; the page passes axe-core and fits a
// phone. The 100 MB trace and the read times are the performance project's (performance.spec.mjs). Screenshots:
// build/screenshots/profile/.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { axeViolations } from './page-checks.mjs';
import { SHOTS, TRACES, check, openProfile, test, traceAnswer, traceRead } from './fixtures.mjs';

const PROFILE_SHOTS = path.join(SHOTS, 'profile');
test.use({ viewport: { width: 1280, height: 900 } });

let tmp;
test.beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'scalescope-profile-'));
});
test.afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** Reads the sample trace; returns what the page shows. */
async function readSample(page) {
  await page.getByRole('button', { name: /Try a sample/ }).click();
  return traceRead(page);
}

test("the sample trace gives the CLI's answer", async ({ page, url }) => {
  await openProfile(page, url);
  const { status, answer } = await readSample(page);
  const want = traceAnswer(path.join(TRACES, 'b200_vllm_gpt_oss_tp8_rank0.json'));
  await check('the sample is read (gzipped, in the worker)', status === 'ready', status);
  await check(
    "its answer is the CLI's, number for number",
    JSON.stringify(answer) === JSON.stringify(want),
    `${answer?.result?.kernel_time_s} vs ${want.result.kernel_time_s}`,
  );
  const moe = await page.locator('tr[data-class="moe"]').count();
  await check('the class table shows MoE', moe === 1);
  await page.locator('.chart svg').first().waitFor({ timeout: 15000 });
  await check('the roofline chart is drawn with the priced ops', (await page.locator('.chart svg circle').count()) > 0);
  const gaps = await page.locator('table.gaps tbody tr').count();
  await check('the largest losses are listed with reasons', gaps >= 3, `${gaps} rows`);
  await page.screenshot({ path: path.join(PROFILE_SHOTS, 'sample.png'), fullPage: true });
});

test('a dropped gzipped file and another chip', async ({ page, url }) => {
  await openProfile(page, url);
  const gz = path.join(tmp, 'a100.pt.trace.json.gz');
  fs.writeFileSync(gz, zlib.gzipSync(fs.readFileSync(path.join(TRACES, 'a100_dlrm_8rank_rank3.json'))));
  await page.locator('input[type=file]').setInputFiles(gz);
  const { status, answer } = await traceRead(page);
  await check(
    "a dropped .json.gz gives the CLI's answer",
    status === 'ready' && JSON.stringify(answer) === JSON.stringify(traceAnswer(gz)),
    status,
  );
  await page.locator('select').selectOption('h100-sxm');
  await page.waitForFunction(
    () => document.querySelector('scalescope-profile')?.answer?.result?.hardware?.id === 'h100-sxm',
    null,
    { timeout: 60000 },
  );
  const onH100 = await page.locator('scalescope-profile').evaluate((e) => e.answer);
  await check(
    'choosing a chip prices the same trace on it, as --hardware does',
    JSON.stringify(onH100) === JSON.stringify(traceAnswer(gz, '--hardware', 'h100-sxm')),
  );
  await page.locator('select').selectOption('');
});

test('a file that is not a trace', async ({ page, url }) => {
  await openProfile(page, url);
  const bad = path.join(tmp, 'notes.json');
  fs.writeFileSync(bad, 'not a trace');
  await page.locator('input[type=file]').setInputFiles(bad);
  const { status } = await traceRead(page);
  const shown = await page.locator('.diagnostics').innerText();
  await check(
    "is refused with the engine's words",
    status === 'error' && shown.includes('a trace is a JSON object'),
    shown,
  );
});

test('a 1 GB file', async ({ page, url }) => {
  await openProfile(page, url);
  const huge = path.join(tmp, 'huge.json');
  fs.closeSync(fs.openSync(huge, 'w'));
  fs.truncateSync(huge, 1_100_000_000); // sparse: nothing is written
  await page.locator('input[type=file]').setInputFiles(huge);
  const { status, error } = await traceRead(page);
  await check(
    'is refused at once with the limit and what to do',
    status === 'error' && /over the 1 GB/.test(error),
    error,
  );
});

test('accessibility, a phone’s width and the page’s policy, with a trace read', async ({ page, url }) => {
  await openProfile(page, url);
  await readSample(page);
  const axe = await axeViolations(page);
  await check('no accessibility violations (axe-core, WCAG 2.1 AA)', axe.length === 0, axe.slice(0, 3).join(' | '));
  await page.setViewportSize({ width: 390, height: 844 });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth);
  await check("fits a phone's width", overflow <= 391, `${overflow} px`);
  await page.screenshot({ path: path.join(PROFILE_SHOTS, 'phone.png'), fullPage: true });
  // No Content-Security-Policy violation and no console error: the test's context checks both (fixtures.mjs).
});
