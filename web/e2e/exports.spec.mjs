// Taking results away: JSON, CSV, chart SVG and PNG, the CLI command; the plan and deployment lists as CSV and JSON;
// the launch config button (MaxText, Megatron-Bridge, vLLM, SGLang), whose engine loads on the click.
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { axeViolations } from './page-checks.mjs';
import {
  CLI,
  SHOTS,
  chartsDrawn,
  check,
  cli,
  csvLines,
  csvResults,
  findPlans,
  launchShot,
  metric,
  open,
  recordFigures,
  saved,
  servingSearched,
  stateQuery,
  test,
  training,
  wellFormed,
} from './fixtures.mjs';

test('launch config: a searched plan as MaxText overrides and Megatron-Bridge YAML, a replica as vLLM and SGLang commands; the launch engine loads on the click', async ({
  page,
  url,
  context,
}) => {
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
    await check(
      'launch config: nothing of it (its code, its worker, scalescope_launch.wasm) is fetched before a reader asks',
      fetched.length === 0,
      fetched.join(', '),
    );
    const tp = Number(await page.locator('[data-plan="0"]').getAttribute('data-tp'));
    await page.locator('[data-launch-plan="0"]').click();
    await panelText.waitFor({ timeout: 20000 });
    await check(
      'launch config: the click fetches its code, its own worker and scalescope_launch.wasm',
      fetched.some((f) => f.endsWith('/engine/scalescope_launch.wasm')) &&
        fetched.some((f) => /launch-worker/.test(f)) &&
        fetched.some((f) => /launch-config/.test(f)),
      fetched.join(', '),
    );
    const tpuOptions = await page.locator('[data-launch-framework] option').evaluateAll((os) => os.map((o) => o.value));
    await check(
      'a TPU training plan: the engine writes it for MaxText alone',
      JSON.stringify(tpuOptions) === '["maxtext"]',
      JSON.stringify(tpuOptions),
    );
    const maxtext = (await panelText.textContent()) ?? '';
    await check(
      'plan #1 as MaxText overrides: ici_fsdp_parallelism and the row’s TP',
      maxtext.includes('python3 -m MaxText.train') &&
        maxtext.includes('ici_fsdp_parallelism=') &&
        maxtext.includes(`ici_tensor_parallelism=${tp}`),
      maxtext.slice(0, 400),
    );
    await check(
      'what the engine leaves to the reader is listed under the text',
      (await page.locator('[data-launch-undecided] li').count()) > 0,
    );
    await page
      .waitForFunction(
        () =>
          /Copied/.test(
            document.querySelector('scalescope-explorer').shadowRoot.querySelector('[data-launch-said]')?.textContent ??
              '',
          ),
        null,
        { timeout: 5000 },
      )
      .catch(() => {});
    const clipboard = await page.evaluate(() => navigator.clipboard.readText()).catch((e) => `(unread: ${e.message})`);
    await check(
      'the click copies the text to the clipboard',
      clipboard === maxtext,
      `${await said()} | ${clipboard.slice(0, 80)}`,
    );
    const v = await axeViolations(page);
    await check('no WCAG A/AA violation with a launch config open', v.length === 0, v.slice(0, 4).join(' || '));
    await launchShot(page, 'launch-config.png');

    await open(page, url + '?v=1&hw=h100-sxm&fsdp=32&tp=8');
    await findPlans(page);
    const gpuTp = Number(await page.locator('[data-plan="0"]').getAttribute('data-tp'));
    await page.locator('[data-launch-plan="0"]').click();
    await panelText.waitFor({ timeout: 20000 });
    const gpuOptions = await page.locator('[data-launch-framework] option').evaluateAll((os) => os.map((o) => o.value));
    await check(
      'a GPU training plan: Megatron-LM, Megatron-Bridge, MaxText and DeepSpeed',
      JSON.stringify(gpuOptions) === '["megatron","megatron-bridge","maxtext","deepspeed"]',
      JSON.stringify(gpuOptions),
    );
    await page.locator('[data-launch-framework]').selectOption('megatron-bridge');
    await page.waitForFunction(
      () =>
        document.querySelector('scalescope-explorer').shadowRoot.querySelector('[data-launch-text]')?.dataset.format ===
        'yaml',
      null,
      { timeout: 5000 },
    );
    const bridge = (await panelText.textContent()) ?? '';
    await check(
      'plan #1 as Megatron-Bridge YAML: tensor_model_parallel_size is the row’s TP',
      bridge.includes(`tensor_model_parallel_size: ${gpuTp}`),
      bridge.slice(0, 400),
    );
    await page.locator('[data-launch-copy]').click();
    await page
      .waitForFunction(
        () =>
          /Copied: Megatron-Bridge/.test(
            document.querySelector('scalescope-explorer').shadowRoot.querySelector('[data-launch-said]')?.textContent ??
              '',
          ),
        null,
        { timeout: 5000 },
      )
      .catch(() => {});
    await check(
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
    await check(
      'the replica on screen: vLLM, SGLang and TensorRT-LLM on GPUs',
      JSON.stringify(servingOptions) === '["vllm","sglang","trtllm"]',
      JSON.stringify(servingOptions),
    );
    await check(
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
    await check(
      'a searched deployment as an SGLang command',
      sglang.includes('python3 -m sglang.launch_server') && /--tp-size \d+/.test(sglang),
      sglang.slice(0, 300),
    );
    await launchShot(page, 'launch-config-serving.png', '[data-serving-search]');
  } finally {
    page.off('request', onRequest);
  }
});

test('take it away: JSON, CSV, charts and the CLI command', async ({ page, url, context }) => {
  const figures = {};
  const t0 = Date.now();
  await open(page, `${url}?v=1&eff_flops=0.5`);
  await chartsDrawn(page);
  const json = await saved(page, '[data-download="json"]');
  const parsed = JSON.parse(json.body.toString());
  await check(
    'Download JSON: the scenario and the engine’s answer, equal to the page',
    json.name.endsWith('.json') &&
      parsed.answer.result.time.step_s === (await metric(page, 'step_s')) &&
      parsed.scenario.query.kind === 'training_step',
  );
  await check(
    'Download JSON carries the inputs: the URL state and the non-default parameters',
    parsed.url_state === (await stateQuery(page)) &&
      parsed.inputs.some((r) => r.key === 'eff_flops' && r.value === 0.5),
  );
  const csv = csvLines(await saved(page, '[data-download="csv"]'));
  const profile = parsed.answer.result.calibration?.profile.id;
  await check(
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
  await check(
    'then path,value,unit rows with units, equal to the page',
    results !== null && results.rows.includes(`/time/step_s,${await metric(page, 'step_s')},s,`),
    csv.slice(0, 8).join(' | '),
  );
  const roof = (await saved(page, '[data-download="roofline-svg"]')).body.toString();
  const ops = (await page.locator('#roofline-chart details table tbody tr').count()) - 1; // less the ridge row
  await check(
    'a chart downloads as SVG, with its title and one legend entry per series (the curve, each main op, the ridge)',
    (await wellFormed(page, roof)) &&
      roof.includes('xmlns="http://www.w3.org/2000/svg"') &&
      roof.includes('>Roofline: the workload’s main ops on one chip</text>') &&
      (roof.match(/data-legend-entry/g) ?? []).length === ops + 2,
    `${(roof.match(/data-legend-entry/g) ?? []).length} entries, ${ops} ops`,
  );
  const png = await saved(page, '[data-download="scaling-png"]');
  fs.writeFileSync(path.join(SHOTS, 'export-scaling.png'), png.body);
  await check(
    'a chart downloads as PNG',
    png.name.endsWith('.png') && png.body.subarray(1, 4).toString() === 'PNG' && png.body.length > 2000,
    `${png.body.length} B`,
  );
  fs.writeFileSync(path.join(SHOTS, 'export-roofline.png'), (await saved(page, '[data-download="roofline-png"]')).body);
  figures.exportMs = Date.now() - t0;
  const cmd = (await page.locator('[data-cli]').textContent()) ?? '';
  const scenarioText = /^echo '(.*)' \| build\/release\/scalescope --summary -$/s
    .exec(cmd.trim())?.[1]
    ?.replace(/'\\''/g, "'");
  const fromCli = scenarioText ? cli(JSON.parse(scenarioText)) : null;
  await check(
    'the CLI command shown reproduces the page’s step time',
    fromCli?.result?.time?.step_s === (await metric(page, 'step_s')),
    cmd.slice(0, 120),
  );
  const summary = execFileSync(CLI, ['--summary', '-'], { input: scenarioText ?? '' }).toString();
  await check(
    'the command’s summary is a few readable lines',
    summary.split('\n').length < 16 && /step .* MFU/.test(summary) && /Try next:/.test(summary),
    summary.slice(0, 200),
  );
  recordFigures(figures);
});

test('plan search: the list downloads as CSV and JSON, with the search’s inputs', async ({ page, url, context }) => {
  const figures = {};
  const t0 = Date.now();
  await open(page, `${url}?v=1&fsdp=16&tp=4`);
  const run = await findPlans(page);
  const file = await saved(page, '[data-download="plans-csv"]');
  const csv = csvLines(file);
  await check(
    'the plan CSV’s inputs: the search’s chips and degrees with their labels and units, and the fidelity',
    csv[0].startsWith('input,label,value,unit,') &&
      csv.some((l) => l.startsWith('fsdp,FSDP,16,chips,')) &&
      csv.some((l) => l.startsWith('tp,Tensor parallel (TP),4,chips,')) &&
      csv.some((l) => l.startsWith('engine.fidelity,Fidelity,calibrated,')),
    csv.slice(0, 7).join(' | '),
  );
  const results = csvResults(csv, 'listed,engine_rank,plan,layout,settings,');
  await check(
    'the plan CSV: one row per plan the engine ranked, the columns named',
    file.name === 'scalescope-plans.csv' &&
      results?.rows.length === run.plans &&
      ['step_s', 'mfu_frac', 'memory_bytes', 'fits', 'warnings', 'left_out_because'].every((c) =>
        results.header.includes(c),
      ),
    `${results?.rows.length} rows of ${run.plans}`,
  );
  const want = await page.locator('[data-plan="0"]').getAttribute('data-step');
  await check(
    'the plan CSV’s first listed plan is the list’s first, with its step time',
    results?.rows.find((l) => l.startsWith('1,'))?.includes(`,${want},`) === true,
    want,
  );
  const json = JSON.parse((await saved(page, '[data-download="plans-json"]')).body.toString());
  await check(
    'the plan JSON: the search sent, the URL state, each ranked plan and the answer',
    json.scenario.query.kind === 'plan_search' &&
      json.url_state === (await stateQuery(page)) &&
      json.plans.length === run.plans &&
      json.plans[0].listed === 1 &&
      json.answer.ok === true,
  );
  figures.planExportMs = Date.now() - t0;
  recordFigures(figures);
});

test('serving search: the deployments download as CSV and JSON; the frontier chart exports with its title and legend', async ({
  page,
  url,
  context,
}) => {
  const figures = {};
  const t0 = Date.now();
  await open(page, `${url}?v=1&mode=serving&sobj=fewest_chips`);
  await servingSearched(page);
  const listed = await page.locator('[data-serving-search] [data-deployment]').count();
  const chips = await page.locator('[data-serving-search] [data-deployment="0"]').getAttribute('data-chips');
  const csv = csvLines(await saved(page, '[data-download="deployments-csv"]'));
  await check(
    'the serving CSV’s inputs: the mode and objective set, the chip the engine used',
    csv[0].startsWith('input,label,value,unit,') &&
      csv.some((l) => l.startsWith('mode,Workload,serving,')) &&
      csv.some((l) => l.startsWith('sobj,Best means,fewest_chips,')) &&
      csv.some((l) => l.startsWith('engine.chip,Chip,TPU v5p (tpu-v5p),')),
    csv.slice(0, 7).join(' | '),
  );
  const results = csvResults(csv, 'list,rank,total_chips,replicas,prefill_servers,replica,');
  await check(
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
  await check(
    'the serving JSON: the search sent, the URL state and the deployments',
    json.scenario.query.kind === 'serving_search' &&
      json.url_state === (await stateQuery(page)) &&
      json.deployments.length === listed &&
      json.list === 'deployment',
  );
  await chartsDrawn(page);
  const sweep = (await saved(page, '[data-download="sweep-svg"]')).body.toString();
  const entries = (sweep.match(/data-legend-entry/g) ?? []).length;
  await check(
    'the frontier exports as SVG with its title and its legend (the batch colours, the current batch)',
    (await wellFormed(page, sweep)) &&
      sweep.includes('>Latency against throughput over the batch (the book’s serving frontier)</text>') &&
      entries >= 2 &&
      /batch size \d+ to \d+/.test(sweep) &&
      sweep.includes('>current batch</text>'),
    `${entries} entries`,
  );
  fs.writeFileSync(path.join(SHOTS, 'export-frontier.png'), (await saved(page, '[data-download="sweep-png"]')).body);
  figures.servingExportMs = Date.now() - t0;
  recordFigures(figures);
});
