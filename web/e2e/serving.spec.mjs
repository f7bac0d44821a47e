// Serving: the numbers against the CLI, the batch-sweep frontier, the load block and its interactivity frontier
// (issue 35), the serving search and its targets, KV context and speculative decoding (issues 20, 22, 35, 41).
import path from 'node:path';
import {
  f1,
  PHONE,
  SERVING_PAIRS,
  SHOTS,
  chartLabels,
  chartsDrawn,
  check,
  compareWithCli,
  metric,
  open,
  press,
  recordFigures,
  servingSearched,
  settled,
  shot,
  stateQuery,
  status,
  test,
  training,
  type,
  unfold,
} from './fixtures.mjs';

test('serving mode', async ({ page, url, context }) => {
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
  await check('the batch sweep frontier is drawn', (await page.locator('#sweep-chart svg circle').count()) >= 3);
  const labels = await chartLabels(page, '#sweep-chart');
  await check(
    'the frontier’s labels do not run into one another (issue 41 #17)',
    labels.texts.length >= 3 && labels.overlaps.length === 0,
    `${labels.texts.join(' | ')}; overlapping: ${labels.overlaps.join(', ')}`,
  );
  const frontier = async () =>
    (await page.locator('#sweep-chart svg circle').evaluateAll((cs) => cs.map((c) => c.getAttribute('cy')))).join(' ');
  const calibratedFrontier = await frontier();
  for (const fid of ['book', 'calibrated']) {
    const was = await stateQuery(page);
    await page.locator(`[data-headline] [data-fid="${fid}"]`).click();
    await settled(page, was);
    await chartsDrawn(page);
    if (fid === 'book')
      await check(
        'the charts’ toggle redraws the frontier at the book’s fidelity, not only the scaling chart (issue 22)',
        (await frontier()) !== calibratedFrontier,
      );
  }
  const unsetParams = await page.locator('ss-controls input.num[data-key="sparams"]').inputValue();
  await check(
    'an unset parameter-count override says the model’s own count is used, not 1M (issue 22)',
    unsetParams === 'the model’s own',
    unsetParams,
  );
  const facts = (await page.locator('ss-facts').textContent()) ?? '';
  await check(
    'serving facts are serving’s: forward FLOPs and the weights, no Adam or training FLOPs (issue 22)',
    /Forward FLOPs per token/.test(facts) && /Weights \(bf16\)/.test(facts) && !/Adam|Training FLOPs/.test(facts),
    facts.slice(0, 300),
  );
  await shot(page, 'explorer-serving.png');
});

test('serving under a benchmark’s load: the block, the interactivity frontier, a reload reproduces them (issue 35)', async ({
  page,
  url,
  context,
}) => {
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
  await check(
    'the block shows its seven numbers, none blank',
    texts.length === 7 && texts.every((t) => t.trim() !== '' && t.trim() !== '—'),
    texts.join(' | '),
  );
  const runtime = (await block.locator('[data-load-runtime]').textContent()) ?? '';
  await check(
    'the block says which runtime priced it: TensorRT-LLM’s, fitted on its measured rows',
    runtime.includes('TensorRT-LLM’s runtime') && runtime.includes(ref.result.load.backend.source),
    runtime,
  );
  const options = (await page.locator('ss-controls select[data-key="sbk"] option').allTextContents()).map((t) =>
    t.trim(),
  );
  await check(
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
  await check(
    'the chart is titled throughput per GPU against tokens/s per user',
    title === 'Throughput per GPU against tokens/s per user',
    title,
  );
  const points = await page.locator('#load-chart svg circle').count();
  await check(
    'one point per concurrency the engine answered, and the current one ringed',
    points === ref.result.load.frontier.length + 1,
    `${points} circles, ${ref.result.load.frontier.length} concurrencies`,
  );
  const labels = await chartLabels(page, '#load-chart');
  await check(
    'the points are labelled by concurrency, the current one always, none running into another',
    labels.texts[0] === 'current: 64' && labels.texts.length >= 6 && labels.overlaps.length === 0,
    `${labels.texts.join(' | ')}; overlapping: ${labels.overlaps.join(', ')}`,
  );
  const rows = await page.locator('#load-chart table tbody tr').count();
  await check('the chart’s numbers are a table too', rows === ref.result.load.frontier.length, `${rows} rows`);
  await shot(page, 'explorer-serving-load.png');
  await page.locator('[data-load-chart]').screenshot({ path: path.join(SHOTS, 'explorer-serving-load-chart.png') });
  const shown = async () => ({
    numbers: await block.locator('dd').allTextContents(),
    labels: (await chartLabels(page, '#load-chart')).texts,
  });
  const before = await shown();
  // The address the page keeps (what a reader copies) carries both settings; opening it again draws the same.
  const shared = page.url();
  await check(
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
  await check(
    'reloading the link reproduces the block and the chart',
    JSON.stringify(after) === JSON.stringify(before),
    `${JSON.stringify(before)} vs ${JSON.stringify(after)}`,
  );
  // No serving engine: the kernels' step prices it; no concurrency: neither the block nor the chart.
  let was = await stateQuery(page);
  await page.locator('ss-controls select[data-key="sbk"]').selectOption('');
  await settled(page, was);
  await check(
    'without a serving engine the block says the calibrated kernels’ step priced it',
    /calibrated kernels’ step, no serving engine’s runtime/.test(
      (await block.locator('[data-load-runtime]').textContent()) ?? '',
    ) && !(await stateQuery(page)).includes('sbk='),
  );
  was = await stateQuery(page);
  await page.locator('ss-controls .ctl:has(input.num[data-key="conc"]) button.reset').click();
  await settled(page, was);
  await check(
    'with the concurrency unset neither the block nor the chart is there',
    (await page.locator('[data-load], [data-load-chart]').count()) === 0 && !(await stateQuery(page)).includes('conc='),
  );
  // A phone: the block and the chart fit the 390 px screen, their labels clear of one another.
  const phone = await context.newPage();
  await phone.setViewportSize(PHONE);
  await open(phone, link);
  await chartsDrawn(phone);
  await phone
    .locator('#load-chart svg circle')
    .nth(5)
    .waitFor({ timeout: 15000 })
    .catch(() => {});
  const phoneLabels = await chartLabels(phone, '#load-chart');
  await check(
    'phone: the frontier under load is labelled, no label running into another',
    phoneLabels.texts[0] === 'current: 64' && phoneLabels.texts.length >= 3 && phoneLabels.overlaps.length === 0,
    `${phoneLabels.texts.join(' | ')}; overlapping: ${phoneLabels.overlaps.join(', ')}`,
  );
  const wide = await phone.evaluate(() => ({
    sw: document.documentElement.scrollWidth,
    cw: document.documentElement.clientWidth,
  }));
  await check('phone: the page under load does not scroll sideways', wide.sw <= wide.cw + 1, `${wide.sw} > ${wide.cw}`);
  await phone
    .locator('ss-serving-results [data-load]')
    .screenshot({ path: path.join(SHOTS, 'explorer-phone-serving-load.png') });
  await phone
    .locator('[data-load-chart]')
    .screenshot({ path: path.join(SHOTS, 'explorer-phone-serving-load-chart.png') });
  await phone.close();
});

test('a measured serving row reproduced from a link: the page gives the validation harness’s prediction (issue 35)', async ({
  page,
  url,
  context,
}) => {
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
});

test('serving search: fewest chips or cheapest for a latency; apply one and the headline shows it', async ({
  page,
  url,
  context,
}) => {
  const figures = {};
  await open(page, url + '?v=1&mode=serving&hw=tpu-v5e');
  await check(
    'LLaMA-3 70B in bf16 on 8 v5e does not fit (the question the search answers)',
    (await status(page)) === 'no-fit',
    await status(page),
  );
  await servingSearched(page);
  figures.servingSearchEngineMs = await page.evaluate(() => window.__scalescope.servingSearch?.engineMs);
  figures.servingSearchEvaluated = await page.evaluate(() => window.__scalescope.servingSearch?.evaluated);
  await check(
    'the search ran in the worker without a button',
    figures.servingSearchEngineMs > 0,
    `${figures.servingSearchEngineMs} ms`,
  );
  const rows = await page.locator('[data-serving-search] [data-deployment]').count();
  await check('the best deployments are listed', rows >= 3, `${rows} rows`);
  const header = (await page.locator('[data-serving-search] table thead').textContent()) ?? '';
  await check(
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
  await check(
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
  await check(
    'the latency target starts at the latency on screen (2 significant digits)',
    Number(target) === Number(onScreen.toPrecision(2)),
    `${target} vs ${onScreen}`,
  );
  const latencies = await page
    .locator('[data-serving-search] [data-deployment]')
    .evaluateAll((els) => els.map((e) => [Number(e.dataset.latency), e.dataset.meets]));
  await check(
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
  await check(
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
  await check(
    'apply: the headline changed',
    (await metric(page, 'latency_per_token_s')) !== latencyBefore && (await stateQuery(page)) !== before,
  );
  const got = {
    latency: await metric(page, 'latency_per_token_s'),
    ttft: await metric(page, 'ttft_s'),
    chips: await metric(page, 'chips'),
    usd: await metric(page, 'usd_per_million_output_tokens'),
  };
  await check(
    'apply: the headline’s latency per token, TTFT, chips and $ per 1M output tokens are the row’s, to the last digit',
    JSON.stringify(got) === JSON.stringify(want),
    `${JSON.stringify(got)} vs ${JSON.stringify(want)}`,
  );
  await check(
    'apply: only the applied row says "Applied"',
    (await page.locator('[data-serving-search] [data-apply-deployment]', { hasText: /^\s*Applied\s*$/ }).count()) === 1,
  );
  await check('apply: the applied deployment fits', ['ok', 'warning'].includes(await status(page)), await status(page));
  await check(
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
  await check('a reload keeps the applied deployment', (await metric(page, 'latency_per_token_s')) === want.latency);
  await servingSearched(page);
  await check(
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
  await check(
    'no deployment meets 0.1 ms per token: said plainly',
    /No deployment meets the targets/.test((await page.locator('[data-no-deployment]').textContent()) ?? ''),
  );
  await check(
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
  await check(
    '"50 ms" is a latency target of 0.05 s',
    new URL(page.url()).searchParams.get('slat') === '0.05' &&
      (await field.evaluate((el) => el.validationMessage)) === '',
    page.url(),
  );
  recordFigures(figures);
  console.log(
    `serving search (v5e, LLaMA-3 70B): ${figures.servingSearchEvaluated} deployments evaluated and ranked in ${f1(figures.servingSearchEngineMs)} ms in the engine (worker)`,
  );
});

test('serving: KV context, speculative decoding and efficiency', async ({ page, url, context }) => {
  await open(page, url + '?v=1&mode=serving&hw=tpu-v5e&wdt=int8&kvdt=int8&tp=16');
  await unfold(page);
  await type(page, 'kvctx', '4096');
  let before = await stateQuery(page);
  await page.locator('ss-controls input[type="checkbox"][data-key="spec"]').check();
  await settled(page, before);
  await unfold(page);
  await check(
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
  await check(
    'with an efficiency below 1 the page no longer calls the numbers an ideal bound',
    (await page.locator('.ideal-bound').count()) === 0,
  );
  await shot(page, 'explorer-speculative.png');
});
