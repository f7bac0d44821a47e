// Sliders, text fields and degrees: sliders move the numbers and the URL and announce real values, fields take 16M,
// 8k, 4Ki and 1.5e6, sliders stop at valid degrees, the headline stays in view, and a problem is shown at the
// field behind it (issues 11, 20, 41).
import {
  TRAINING_PAIRS,
  check,
  compareWithCli,
  inViewport,
  metric,
  open,
  press,
  settled,
  shot,
  stateQuery,
  status,
  test,
  training,
  type,
  unfold,
} from './fixtures.mjs';

test('sliders move numbers and the URL; sliders announce real values', async ({ page, url, context }) => {
  await open(page, url);
  const before = await metric(page, 'tokens_per_s');
  await press(page, 'tp', 'ArrowLeft'); // TP 8 -> 4
  await press(page, 'batch', 'ArrowLeft'); // 4M -> 2M tokens
  await check('throughput changed', (await metric(page, 'tokens_per_s')) !== before);
  await page.waitForFunction(
    () => window.location.search.includes('tp=4') && window.location.search.includes('batch=2097152'),
    null,
    { timeout: 5000 },
  );
  await check(
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
  await check(
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
  await check(
    `every slider (${sliders.length}) has aria-valuetext with its value`,
    sliders.length >= 20 && bad.length === 0,
    JSON.stringify(bad.slice(0, 3)),
  );
  await shot(page, 'explorer-moved.png');
});

test('text fields take 16M, 8k, 4Ki and 1.5e6', async ({ page, url, context }) => {
  await open(page, url);
  await type(page, 'batch', '16M');
  await check('"16M" is accepted as 16,000,000 tokens', (await stateQuery(page)).includes('batch=16000000'));
  await type(page, 'seq', '8k');
  await check('"8k" is accepted as 8000', (await stateQuery(page)).includes('seq=8000'));
  await type(page, 'seq', '4Ki');
  await check('"4Ki" is accepted as 4096 (the default again)', !(await stateQuery(page)).includes('seq='));
  await type(page, 'batch', '1.5e6');
  await check('"1.5e6" is accepted', (await stateQuery(page)).includes('batch=1500000'));
  const slider = await page.locator('ss-controls input[type="range"][data-key="seq"]').inputValue();
  await check('the slider follows the text field (4096 is the 6th power of two from 128)', slider === '5', slider);
  const field = page.locator('ss-controls input.num[data-key="batch"]');
  await field.fill('lots');
  await field.press('Enter');
  const msg = await field.evaluate((el) => el.validationMessage);
  await check(
    'a value it cannot read is refused in words, and the field keeps the text',
    /16M, 8k, 4Ki and 1\.5e6/.test(msg) && (await field.inputValue()) === 'lots',
    msg,
  );
  await type(page, 'batch', '4194304');
});

test('fixed chip count and valid degrees only', async ({ page, url, context }) => {
  await open(page, `${url}?v=1&chips=2048`);
  await press(page, 'tp', 'ArrowRight'); // 8 -> 16: FSDP takes the rest
  const q = await stateQuery(page);
  await check(
    'moving TP with the chip count fixed rebalances FSDP (2048 = 128 × 16)',
    q.includes('chips=2048') && q.includes('fsdp=128') && q.includes('tp=16'),
    q,
  );
  await check(
    'chips is a URL key',
    (await page.evaluate(() => window.location.search)).includes('chips=2048') || q.includes('chips=2048'),
  );
  await check(
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
  await check(
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
  await check(
    'PP steps through every stage count, not only divisors of the 80 layers',
    stages.join(',') === '1,2,3,4,5',
    stages.join(','),
  );
  await open(page, `${url}?v=1&chips=1024`);
  await check(
    'a link with chips=1024 sets FSDP to 128 (TP 8)',
    (await stateQuery(page)).includes('fsdp=128') && (await metric(page, 'chips')) === 1024,
  );
});

test('the headline stays in view after moving the last control (1400 px)', async ({ page, url, context }) => {
  await open(page, url);
  await unfold(page);
  const last = page.locator('ss-controls input[type="range"]').last();
  const key = await last.getAttribute('data-key');
  const before = await stateQuery(page);
  await last.scrollIntoViewIfNeeded();
  await last.focus();
  await page.keyboard.press('ArrowLeft');
  await settled(page, before);
  await check(
    `after moving the last control (${key}) the headline is inside the window at 1400 px`,
    await inViewport(page, '[data-headline]'),
  );
  await check(
    'and its numbers are the new ones',
    (await status(page)) !== null &&
      (await page.locator('[data-headline] [data-metric="step_s"]').getAttribute('data-value')) !== '',
  );
});

test('a mesh the chip cannot hold is explained in place', async ({ page, url, context }) => {
  // A link opens on the nearest state that runs (issue 41): FSDP is already 1, so PP halves to fit the pod.
  await open(page, url + '?v=1&hw=tpu-v5e&fsdp=1&pp=64&tp=8');
  await check(
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
  await check('a problem is shown in words', /torus|axes|slice/.test(text), text.slice(0, 160));
  await check('the headline is labelled "cannot run"', (await status(page)) === 'cannot-run');
  await shot(page, 'explorer-mesh-problem.png');
  await open(page, url);
  const before = await stateQuery(page);
  await page.locator('ss-controls select[data-key="hw"]').selectOption('tpu-v5e');
  await settled(page, before);
  await check(
    'choosing a chip whose slice cannot hold the degrees shrinks FSDP until it fits (v5e: FSDP 32 × TP 8 on the 16×16 pod, laid out by the engine)',
    (await status(page)) !== 'cannot-run' && (await metric(page, 'chips')) === 256,
    `${await status(page)} ${await metric(page, 'chips')}`,
  );
});

test('a plan that does not fit offers the nearest that does, and says what moved (nearest_fit)', async ({
  page,
  url,
}) => {
  // scaling-book/training's LLaMA-3 70B on a 64-chip v5p slice at 4M tokens needs more than the chip's 96 GB.
  await open(page, url + '?v=1&chips=64');
  await check('the plan does not fit', (await status(page)) === 'no-fit');
  const before = await stateQuery(page);
  await page.locator('[data-fit-nearest]').click();
  await settled(page, before);
  const notes = (await page.locator('[data-fit-notes]').textContent()) ?? '';
  await check(
    "the engine's nearest plan fits, and each change is said with its reason",
    (await status(page)) === 'ok' && /→/.test(notes) && /fits in HBM/.test(notes),
    `${await status(page)}: ${notes}`,
  );
  await check('the button goes once the plan fits', (await page.locator('[data-fit-nearest]').count()) === 0);
  await shot(page, 'explorer-nearest-fit.png');
});

test('a chip count the degrees cannot split is refused at its field (issue 20: chips = 3)', async ({
  page,
  url,
  context,
}) => {
  await open(page, url);
  const field = page.locator('ss-controls input.num[data-key="chips"]');
  await field.fill('3');
  await field.press('Enter');
  await page.locator('ss-controls [data-degree-problem]').waitFor({ timeout: 5000 });
  const said = (await page.locator('ss-controls [data-degree-problem]').textContent()) ?? '';
  await check(
    'the field says why, in place',
    /3 chips do not split into the other degrees \(8 chips per FSDP replica\), so the change was not made/.test(said),
    said,
  );
  await check(
    'the box, the tick, the URL and the plan still agree on 2048 chips',
    (await field.inputValue()) === '2048' &&
      !(await page.locator('ss-controls #c-chips-fixed').isChecked()) &&
      !new URL(page.url()).searchParams.has('chips') &&
      (await metric(page, 'chips')) === 2048,
    `${await field.inputValue()} ${page.url()}`,
  );
});

test('an engine error shows at the field behind it, with the binary reading to try (issue 20: "16M")', async ({
  page,
  url,
  context,
}) => {
  await open(page, url);
  const before = await stateQuery(page);
  const field = page.locator('ss-controls input.num[data-key="batch"]');
  await field.fill('16M');
  await field.press('Enter');
  await settled(page, before);
  const problem = page.locator('ss-controls [data-field-problem="batch"]');
  const said = (await problem.textContent()) ?? '';
  await check(
    '"16M" tokens: the Global batch field says it is not a whole number of 4096-token sequences, and names the nearest',
    /16000000 tokens is not a whole number of 4096-token sequences; the nearest are 15998976 and 16003072/.test(said),
    said,
  );
  await check('… and offers 16Mi', /Try 16Mi = 16,777,216\?/.test(said));
  const again = await stateQuery(page);
  await problem.locator('button[data-try-value]').click();
  await settled(page, again);
  await check(
    'taking the offer runs 16,777,216 tokens, and the field is clear',
    new URL(page.url()).searchParams.get('batch') === '16777216' || (await stateQuery(page)).includes('batch=16777216'),
  );
  await check(
    '… with no problem left at the field',
    (await page.locator('ss-controls [data-field-problem]').count()) === 0 && (await status(page)) !== 'cannot-run',
  );
});
