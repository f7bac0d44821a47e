// A pinned comparison lives in the URL: it survives a reload and a shared link, never nests, and a bad one is a notice.
import { describe, expect, it } from 'vitest';
import { cloneState, defaultState } from '../src/state/params';
import { pinText, pinnedOf } from '../src/state/pin';
import { decodeState, encodeState } from '../src/state/url';

describe('pinned comparison', () => {
  it('round-trips through the page URL', () => {
    const pinned = cloneState(defaultState());
    pinned.values['tp'] = 16;
    pinned.values['batch'] = 2097152;
    pinned.hw['hbm_bandwidth_bytes_per_s'] = 3e12;
    const now = cloneState(defaultState());
    now.values['pin'] = pinText(pinned);
    const url = encodeState(now);
    const back = decodeState(url);
    expect(back.notices).toEqual([]);
    const p = pinnedOf(back.state)!;
    expect(p.notices).toEqual([]);
    expect(p.state).toEqual(pinned);
  });

  it('keeps an applied plan’s layout with a split axis (fsdp4*tensor2) through the page URL', () => {
    const pinned = cloneState(defaultState());
    Object.assign(pinned.values, { fsdp: 1024, tp: 2, layout: 'fsdp16.fsdp16.fsdp4*tensor2' });
    const now = cloneState(defaultState());
    now.values['pin'] = pinText(pinned);
    const back = decodeState(encodeState(now));
    expect(back.notices).toEqual([]);
    expect(pinnedOf(back.state)!.state).toEqual(pinned);
  });

  it('pins the defaults as "v=1" (a pin of nothing would be no pin)', () => {
    expect(pinText(defaultState())).toBe('v=1');
    expect(pinnedOf({ ...defaultState(), values: { ...defaultState().values, pin: 'v=1' } })!.state).toEqual(
      defaultState(),
    );
  });

  it('never nests and drops what it cannot read, with a notice', () => {
    const s = cloneState(defaultState());
    s.values['pin'] = 'v=1&tp=banana&pin=v%3D1%26tp%3D16';
    const p = pinnedOf(s)!;
    expect(p.state.values['pin']).toBe('');
    expect(p.state.values['tp']).toBe(defaultState().values['tp']);
    expect(p.notices.some((n) => n.startsWith('Pinned comparison:'))).toBe(true);
    expect(pinnedOf(defaultState())).toBeNull();
  });
});
