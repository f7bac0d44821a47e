// The page keeps no engine rule (issue 39): web/scripts/page-rules.mjs reads web/src for the four kinds of rule the
// page kept before (an engine enum copied, an engine default restated, an enum-to-enum table, a formula on a model's
// shape), and finds none. Each kind is shown caught on a line the page held at commit 13d74cc (stop 57), where the
// same reading found 40.
import { describe, expect, it } from 'vitest';
import { findingsIn, pageRuleFindings, schemaFacts } from '../scripts/page-rules.mjs';

const facts = schemaFacts();
const rulesIn = (text: string): string[] => findingsIn('snippet.ts', text, facts).map((f: { rule: string }) => f.rule);

describe('the page keeps no engine rule', () => {
  it('web/src computes no engine formula and copies no engine list, default or table', () => {
    expect(pageRuleFindings()).toEqual([]);
  });

  it('finds each kind on a line the page held before', () => {
    // state/params.ts: the schedules the engine takes, typed out.
    expect(
      rulesIn(`const S = ['gpipe', '1f1b', 'interleaved', 'zero_bubble', 'dualpipe', 'dualpipe_v'] as const;`),
    ).toEqual(['enum-copy']);
    // ui/plan-words.ts: the engine's ZeRO stage when a plan leaves it out.
    expect(rulesIn('const zero = `ZeRO-${par.zero_stage ?? 3}`;')).toEqual(['default-copy']);
    // state/scenario.ts: the dtype each training recipe runs its matmuls in.
    expect(rulesIn(`const RECIPE_DTYPES = { fp8_blockwise: 'fp8', mxfp8: 'fp8', nvfp4: 'fp4' };`)).toEqual([
      'enum-table',
    ]);
    // state/scenario.ts effectiveModel: the model-size scaling rule.
    expect(rulesIn('const d = roundTo(m.d_model * f, 128);')).toEqual(['shape-formula']);
    expect(rulesIn('m.layers = Math.max(1, Math.round(m.layers * f));')).toEqual(['shape-formula']);
    expect(rulesIn('const group = Math.round(m.heads / Math.max(1, m.kv_heads));')).toContain('shape-formula');
  });

  it('leaves what is the page’s own: a row’s meaning, a widget’s subset, its own order, words for values', () => {
    expect(rulesIn('const ff_ratio = Number((m.d_ff / m.d_model).toFixed(3));')).toEqual([]);
    expect(rulesIn(`const choices = ['bf16', 'fp8', 'int8', 'fp4'];`)).toEqual([]);
    expect(rulesIn(`const STRATEGIES = ['data', 'fsdp', 'context', 'expert', 'pipeline', 'tensor'] as const;`)).toEqual(
      [],
    );
    expect(rulesIn(`const LABEL = { gpipe: 'GPipe', '1f1b': '1F1B' };`)).toEqual([]);
    expect(rulesIn('const mb = par.microbatches ?? 1;')).toEqual([]); // no machine-readable default in the schema
  });
});
