// The roofline chart draws the engine's main ops (issue 39): the ops the step prices, named as the engine names them,
// so an MLA model shows its latent projections and no QKV projection, and a dense model still draws its own.
import { chartsDrawn, check, open, shot, test } from './fixtures.mjs';

/** The op names in the roofline chart's table (its last row is the ridge). */
async function roofOps(page) {
  await chartsDrawn(page);
  const rows = page.locator('#roofline-chart details table tbody tr');
  await rows.first().waitFor({ state: 'attached', timeout: 15000 });
  const names = await rows.evaluateAll((trs) => trs.map((tr) => tr.querySelector('td, th')?.textContent?.trim() ?? ''));
  return { names, dots: await page.locator('#roofline-chart svg circle, #roofline-chart svg path[d]').count() };
}

test('roofline: DeepSeek-V3 draws MLA’s ops and no QKV projection', async ({ page, url }) => {
  await open(page, `${url}?v=1&hw=h100-sxm&model=deepseek-v3&fsdp=1&zero=1&tp=1&ep=256`);
  const { names } = await roofOps(page);
  await check('no QKV projection', names.length > 3 && !names.some((n) => /qkv/i.test(n)), names.join(', '));
  await check(
    'MLA’s latent projections',
    names.includes('kv_down_projection') && names.includes('q_down_projection'),
    names.join(', '),
  );
  await check('the routed experts and the logits', names.includes('experts_up') && names.includes('logits'));
  await shot(page, 'roofline-deepseek-v3.png');
});

test('roofline: serving DeepSeek-V3 draws decode and prefill ops, absorbed MLA in decode', async ({ page, url }) => {
  await open(page, `${url}?v=1&mode=serving&hw=h100-sxm&model=deepseek-v3&tp=8`);
  const { names } = await roofOps(page);
  await check(
    'decode and prefill ops, no QKV projection',
    names.includes('decode: q_absorb_k_up') &&
      names.includes('prefill: kv_up_projection') &&
      !names.some((n) => /qkv/i.test(n)),
    names.join(', '),
  );
});

test('roofline: a dense model still draws its QKV projection and MLP', async ({ page, url }) => {
  await open(page, url);
  const { names, dots } = await roofOps(page);
  await check(
    'LLaMA-3 70B’s ops',
    ['qkv_projection', 'attention', 'mlp_up', 'mlp_down', 'logits'].every((n) => names.includes(n)),
    names.join(', '),
  );
  await check('its points are drawn', dots > 0, `${dots}`);
});
