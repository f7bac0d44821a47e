import { describe, expect, it } from 'vitest';
import {
  PARAMS,
  URL_VERSION,
  cloneState,
  defaultState,
  hardwareFields,
  hardwarePreset,
  type State,
} from '../src/state/params';
import { MAX_QUERY_LENGTH, decodeState, encodeState, parseValue } from '../src/state/url';

function changed(): State {
  const s = cloneState(defaultState());
  s.values['mode'] = 'serving';
  s.values['hw'] = 'tpu-v5e';
  s.values['layers'] = 40;
  s.values['ff_ratio'] = 2.75;
  s.values['size'] = 0.37;
  s.values['sp'] = false;
  s.values['batch'] = 1048576;
  s.values['train_tokens'] = 1.5e13;
  s.values['kvdt'] = 'int8';
  s.hw['hbm_bandwidth_bytes_per_s'] = 8.2e11;
  s.hw['ici.link_unidir_bytes_per_s'] = 4.5e10;
  return s;
}

describe('URL codec', () => {
  it('writes only the version for the defaults, and reads it back', () => {
    expect(encodeState(defaultState())).toBe(`v=${URL_VERSION}`);
    expect(decodeState(`?v=${URL_VERSION}`)).toEqual({ state: defaultState(), notices: [] });
    expect(decodeState('')).toEqual({ state: defaultState(), notices: [] });
  });

  it('round-trips a state with many changes, including hardware overrides', () => {
    const s = changed();
    const q = encodeState(s);
    expect(q).toContain('v=1');
    expect(q).not.toContain('tp='); // defaults stay out
    const d = decodeState('?' + q);
    expect(d.notices).toEqual([]);
    expect(d.state).toEqual(s);
  });

  it('round-trips every parameter at its bounds and choices', () => {
    for (const p of PARAMS) {
      const values =
        p.type === 'enum'
          ? p.choices!
          : p.type === 'bool'
            ? [true, false]
            : p.type === 'text'
              ? p.examples!
              : [p.min!, p.max!];
      for (const v of values) {
        const s = defaultState();
        s.values[p.key] = v;
        const d = decodeState(encodeState(s));
        expect(d.notices, `${p.key}=${String(v)}`).toEqual([]);
        expect(d.state.values[p.key]).toEqual(v);
      }
    }
  });

  it('round-trips the new serving, remat, efficiency and layout keys', () => {
    const s = cloneState(defaultState());
    Object.assign(s.values, {
      mode: 'serving',
      kvctx: 12345,
      spec: true,
      draft: 'llama-3-8b',
      lookahead: 7,
      accept: 0.65,
      remat: 'checkpoints',
      ckpt: 3,
      eff_flops: 0.55,
      eff_hbm: 0.9,
      eff_net: 0.35,
      layout: 'fsdp8.pipeline4.tensor2',
    });
    const q = encodeState(s);
    for (const k of [
      'kvctx=12345',
      'spec=1',
      'lookahead=7',
      'accept=0.65',
      'remat=checkpoints',
      'ckpt=3',
      'eff_flops=0.55',
      'eff_net=0.35',
      'layout=fsdp8.pipeline4.tensor2',
    ])
      expect(q).toContain(k);
    const d = decodeState('?' + q);
    expect(d.notices).toEqual([]);
    expect(d.state).toEqual(s);
  });

  it('round-trips a layout whose axis is split between strategies, readable in the link', () => {
    const s = cloneState(defaultState());
    Object.assign(s.values, { fsdp: 1024, tp: 2, layout: 'fsdp16.fsdp16.fsdp4*tensor2' });
    const q = encodeState(s);
    expect(q).toContain('layout=fsdp16.fsdp16.fsdp4*tensor2');
    const d = decodeState('?' + q);
    expect(d.notices).toEqual([]);
    expect(d.state).toEqual(s);
  });

  it.each([
    'fsdp4.banana2',
    'fsdp0',
    'fsdp4..tensor2',
    'fsdp4*',
    'fsdp2**tensor2',
    'fsdp4*tensor2*data2*pipeline2*expert2',
    '<b>fsdp4</b>',
    'fsdp4.fsdp4.fsdp4.fsdp4.fsdp4.fsdp4.fsdp4',
    'tensor9999999',
  ])('rejects the layout %s with a notice', (bad) => {
    const d = decodeState(`?v=1&layout=${encodeURIComponent(bad)}`);
    expect(d.notices.length).toBe(1);
    expect(d.notices[0]).toContain('Mesh layout');
    expect(d.state.values['layout']).toBe('');
  });

  it('round-trips awkward floats exactly', () => {
    for (const v of [0.1 + 0.2, 1 / 3, 12.345678901234567, 0.010000000000000002]) {
      const s = defaultState();
      s.values['size'] = v;
      s.hw['hbm_bandwidth_bytes_per_s'] = v * 1e12;
      const d = decodeState(encodeState(s));
      expect(d.state.values['size']).toBe(v);
      expect(d.state.hw['hbm_bandwidth_bytes_per_s']).toBe(v * 1e12);
    }
  });

  const garbage = [
    '?v=1&tp=banana',
    '?v=1&tp=1e3',
    '?v=1&tp=-4',
    '?v=1&tp=99999999',
    '?v=1&tp=4.5',
    '?v=1&size=NaN',
    '?v=1&size=Infinity',
    '?v=1&size=1e999',
    '?v=1&hw=tpu-v99',
    '?v=1&mode=<img src=x onerror=alert(1)>',
    '?v=1&model=%3Cscript%3Ealert(1)%3C/script%3E',
    '?v=1&<script>=1',
    '?v=1&__proto__=1',
    '?v=1&constructor=1',
    '?v=1&hw.__proto__.x=1',
    '?v=1&hw.hbm_bandwidth_bytes_per_s=-1',
    '?v=1&hw.hbm_bandwidth_bytes_per_s=0x10',
    '?v=1&hw.nonexistent=5',
    '?v=1&sp=maybe',
    '?v=1&tp=8&tp=16',
    '?v=1&hw.scale_up.domain_gpus=72', // not a field of the default TPU
  ];
  it.each(garbage)('rejects %s with a notice, keeping defaults', (q) => {
    const d = decodeState(q);
    expect(d.notices.length).toBeGreaterThan(0);
    const def = defaultState();
    for (const [k, v] of Object.entries(d.state.values))
      if (!q.includes(`${k}=`) || q.includes(`${k}=8&`)) expect(v).toEqual(def.values[k]);
    expect(Object.getPrototypeOf(d.state.values)).toBe(Object.prototype);
    expect(Object.keys(d.state.hw)).toEqual([]);
    for (const n of d.notices) expect(n.length).toBeLessThan(300);
  });

  it('falls back to all defaults for unknown versions, bad encodings and huge links', () => {
    for (const q of ['?v=2&tp=8', '?v=x&tp=8', '?v=1&tp=8&x=%E0%A4%A', '?v=1&tp=' + '9'.repeat(MAX_QUERY_LENGTH)]) {
      const d = decodeState(q);
      expect(d.notices.length, q).toBe(1);
      expect(d.state).toEqual(defaultState());
    }
  });

  it('reads a link without a version as version 1, with a notice', () => {
    const d = decodeState('?tp=8');
    expect(d.state.values['tp']).toBe(8);
    expect(d.notices.length).toBe(1);
  });

  it('keeps notices as plain text (the page renders them as text, never markup)', () => {
    const d = decodeState('?v=1&mode=%3Cb%3Ex%3C%2Fb%3E&%3Cimg%3E=1');
    expect(d.notices.join(' ')).toContain('<b>x</b>'.slice(0, 3));
    expect(d.state.values['mode']).toBe('training');
  });

  it('accepts hardware overrides only for fields of the chosen preset', () => {
    const gpu = decodeState('?v=1&hw=h100-sxm&hw.scale_up.domain_gpus=16&hw.scale_up.in_network_reduction=0');
    expect(gpu.notices).toEqual([]);
    expect(gpu.state.hw).toEqual({ 'scale_up.domain_gpus': 16, 'scale_up.in_network_reduction': false });
    expect(hardwareFields(hardwarePreset('h100-sxm')).map((f) => f.path)).toContain('scale_up.domain_gpus');
  });

  it('parseValue enforces type and range', () => {
    const tp = PARAMS.find((p) => p.key === 'tp')!;
    expect(parseValue(tp, '8')).toBe(8);
    expect(parseValue(tp, '08')).toBe(8);
    expect(parseValue(tp, ' 8')).toBeUndefined();
    expect(parseValue(tp, '')).toBeUndefined();
  });
});
