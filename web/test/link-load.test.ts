// A link reaches only the states the controls could, and opens on one that runs (state/link-load.ts): the Chips
// field's range, then the engine's nearest runnable state. Issue 20: `?v=1&tp=512&fsdp=8192&pp=256` froze the tab in
// the page's axis factoriser; `?v=1&hw=tpu-v5e` opened on "2048 chips in these degrees do not fit one TPU v5e slice".
import { beforeAll, describe, expect, it } from 'vitest';
import type { EngineModule } from '../src/engine/types';
import { loadLink, type LoadedLink } from '../src/state/link-load';
import { decodeState } from '../src/state/url';
import { defaultState, param } from '../src/state/params';
import { meshFor } from '../src/state/scenario';
import type { AskNow } from '../src/state/plan-mesh';
import { askNowOf, loadEngine } from './engine';

let engine: EngineModule;
let ask: AskNow;
beforeAll(async () => {
  engine = await loadEngine();
  ask = askNowOf(engine);
});

const load = (q: string): LoadedLink => loadLink(decodeState(q), ask)!;

describe('a link under the controls’ rules', () => {
  it('waits for the engine: no answer, no rules applied yet', () => {
    expect(loadLink(decodeState('?v=1&hw=tpu-v5e'), () => null)).toBeNull();
  });

  it('refuses degrees beyond the Chips field, quickly, and names them', () => {
    const t0 = performance.now();
    const l = load('?v=1&tp=512&fsdp=8192&pp=256');
    expect(performance.now() - t0).toBeLessThan(200);
    const defaults = defaultState();
    for (const k of ['tp', 'fsdp', 'pp']) expect(l.state.values[k]).toBe(defaults.values[k]);
    expect(l.notices.join(' ')).toMatch(
      /FSDP 8192 × Tensor parallel \(TP\) 512 × Pipeline \(PP\) 256.*1,073,741,824 chips.*65,536/,
    );
    expect(meshFor(l.state, ask).ok).toBe(true);
  });

  it('opens on the engine’s nearest runnable degrees for the link’s chip, saying what changed', () => {
    const l = load('?v=1&hw=tpu-v5e&fsdp=256&chips=2048');
    expect(l.state.values['fsdp']).toBe(32);
    expect(l.state.values['chips']).toBeNull();
    expect(l.notices.join(' ')).toMatch(/FSDP 256 → 32: so that the degrees fit one TPU v5e slice.*no longer fixed/);
    // 512 chips on a 256-chip pod with FSDP already 1: the balancing degree cannot shrink, so the largest other one
    // does (issue 41: the nearest state always runs).
    const shrunk = load('?v=1&hw=tpu-v5e&fsdp=1&pp=64&tp=8');
    expect(shrunk.state.values['pp']).toBe(32);
    expect(shrunk.notices.join(' ')).toMatch(/PP\) 64 → 32: so that the degrees fit one TPU v5e slice/);
    expect(meshFor(shrunk.state, ask).ok).toBe(true);
  });

  it('fits the default degrees to the link’s chip, as choosing the chip does', () => {
    const l = load('?v=1&hw=tpu-v5e');
    expect(meshFor(l.state, ask).ok).toBe(true);
    expect(l.state.values['fsdp']).toBe(32); // FSDP 32 × TP 8: the 16×16 pod (the controls' fit, browser test)
    expect(l.notices.join(' ')).toMatch(/FSDP 256 → 32.*TPU v5e/);
  });

  it('applies a fixed chip count to the degrees, and drops one they cannot split', () => {
    expect(load('?v=1&chips=64&tp=8').state.values['fsdp']).toBe(8);
    const odd = load('?v=1&chips=63&tp=8');
    expect(odd.state.values['chips']).toBeNull(); // the chips field refuses 63 under TP 8; so does a link
    expect(odd.notices.join(' ')).toMatch(
      /Chips 63 is no longer fixed: 63 chips do not split into the other degrees \(8 chips per FSDP replica\)\./,
    );
  });

  it('rounds a batch that is not whole sequences, and a TP the heads do not split', () => {
    const l = load('?v=1&batch=16000000&tp=3');
    expect(l.state.values['batch']).toBe(15_998_976);
    expect(l.state.values['tp']).toBe(4);
    expect(l.notices).toHaveLength(2);
  });

  it('a link with nothing to change is read as is', () => {
    expect(load('?v=1&tp=4').notices).toEqual([]);
    expect(param('chips').max).toBe(65536);
  });
});
