// A link reaches only the states the controls could (state/link-load.ts): the Chips field's range, a fixed chip
// count, and the chip fit that choosing a chip applies. Issue 20: `?v=1&tp=512&fsdp=8192&pp=256` froze the tab in
// the axis factoriser; `?v=1&hw=tpu-v5e` opened on "2048 chips in these degrees do not fit one TPU v5e slice".
import { describe, expect, it } from 'vitest';
import { loadLink } from '../src/state/link-load';
import { decodeState } from '../src/state/url';
import { defaultState, param } from '../src/state/params';
import { meshFor } from '../src/state/scenario';
import { divisors, factorisations, planMesh } from '../src/state/mesh';
import { degreeMesh } from '../src/state/degree-mesh';
import { hardwarePreset } from '../src/state/params';

const load = (q: string) => loadLink(decodeState(q));
const deg = { data: 1, fsdp: 8192, context: 1, expert: 1, pipeline: 256, tensor: 512 };

describe('a link under the controls’ rules', () => {
  it('refuses degrees beyond the Chips field, quickly, and names them', () => {
    const t0 = performance.now();
    const l = load('?v=1&tp=512&fsdp=8192&pp=256');
    const ms = performance.now() - t0;
    expect(ms).toBeLessThan(200);
    const defaults = defaultState();
    for (const k of ['tp', 'fsdp', 'pp']) expect(l.state.values[k]).toBe(defaults.values[k]);
    expect(l.notices.join(' ')).toMatch(/FSDP 8192 × Tensor parallel \(TP\) 512 × Pipeline \(PP\) 256.*1,073,741,824 chips.*65,536/);
    expect(meshFor(l.state).ok).toBe(true);
  });

  it('fits the degrees to the link’s chip as choosing the chip does, and keeps those no halving fits', () => {
    const l = load('?v=1&hw=tpu-v5e&fsdp=256&chips=2048');
    expect(l.state.values['fsdp']).toBe(32);
    expect(l.state.values['chips']).toBeNull();
    expect(l.notices.join(' ')).toMatch(/FSDP 256 → 32.*TPU v5e slice.*no longer fixed/);
    const kept = load('?v=1&hw=tpu-v5e&fsdp=1&pp=64&tp=8'); // 512 chips on a 256-chip pod, FSDP already 1
    expect(kept.state.values['pp']).toBe(64);
    expect(kept.notices).toEqual([]);
    const m = meshFor(kept.state);
    expect(m.ok ? '' : m.problem).toMatch(/512 chips in these degrees do not fit one TPU v5e slice/);
  });

  it('fits the default degrees to the link’s chip, as choosing the chip does', () => {
    const l = load('?v=1&hw=tpu-v5e');
    expect(meshFor(l.state).ok).toBe(true);
    expect(l.state.values['fsdp']).toBe(32); // FSDP 32 × TP 8: the 16×16 pod (the controls' fit, browser test)
    expect(l.notices.join(' ')).toMatch(/FSDP 256 → 32.*TPU v5e/);
  });

  it('applies a fixed chip count to the degrees', () => {
    const l = load('?v=1&chips=64&tp=8');
    expect(l.state.values['fsdp']).toBe(8);
    const odd = load('?v=1&chips=63&tp=8');
    expect(odd.state.values['chips']).toBeNull(); // the chips field refuses 63 under TP 8; so does a link
    expect(odd.notices.join(' ')).toMatch(/Ignored Chips = 63: 63 chips do not split into the other degrees \(8 chips per FSDP replica\)\./);
  });

  it('a link with nothing to change is read as is', () => {
    expect(load('?v=1&tp=4').notices).toEqual([]);
    expect(param('chips').max).toBe(65536);
  });
});

describe('mesh arithmetic stays bounded for any whole number', () => {
  it('divisors pair up to √n', () => {
    expect(divisors(36)).toEqual([1, 2, 3, 4, 6, 9, 12, 18, 36]);
    expect(divisors(1)).toEqual([1]);
    expect(divisors(97)).toEqual([1, 97]);
    const t0 = performance.now();
    expect(divisors(2 ** 30)).toHaveLength(31);
    expect(factorisations(2 ** 30, 3)).toHaveLength(75); // 2^a 2^b 2^c, a ≥ b ≥ c ≥ 1, a + b + c = 30: round(30²/12)
    expect(performance.now() - t0).toBeLessThan(200);
  });

  it('degrees beyond the pod are refused before any shape search', () => {
    const v5p = hardwarePreset('tpu-v5p');
    const t0 = performance.now();
    const own = planMesh(v5p, { ...deg, fsdp: 8192, pipeline: 1 });
    expect(own.ok ? '' : own.problem).toMatch(/4194304 chips in these degrees do not fit one TPU v5p slice/);
    expect(degreeMesh(v5p, deg)).toBeNull();
    expect(performance.now() - t0).toBeLessThan(200);
  });
});
