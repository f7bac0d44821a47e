// The worker client keeps only the latest request while one is in the worker.
import { describe, expect, it } from 'vitest';
import { EngineClient, type WorkerLike } from '../src/engine/client';
import type { FromWorker, ToWorker } from '../src/engine/protocol';

class FakeWorker implements WorkerLike {
  sent: ToWorker[] = [];
  onmessage: ((ev: MessageEvent<FromWorker>) => void) | null = null;
  onerror: ((ev: ErrorEvent) => void) | null = null;
  postMessage(msg: ToWorker): void {
    this.sent.push(msg);
  }
  reply(msg: FromWorker): void {
    this.onmessage?.({ data: msg } as MessageEvent<FromWorker>);
  }
}

const ev = (text: string) => ({ ok: true, diagnostics: [], engine_version: 'x', result: text });

describe('EngineClient', () => {
  it('sends init, then at most one batch; newer requests replace the waiting one', async () => {
    const w = new FakeWorker();
    const c = new EngineClient(w, 'http://x/engine/');
    expect(w.sent[0]).toEqual({ type: 'init', engineBase: 'http://x/engine/' });
    w.reply({ type: 'ready', version: '0.1.0', loadMs: 1 });
    await expect(c.ready).resolves.toEqual({ version: '0.1.0', loadMs: 1 });
    const a = c.evaluate(['a']);
    const b = c.evaluate(['b']);
    const d = c.evaluate(['d']);
    expect(w.sent.length).toBe(2); // init + a
    await expect(b).resolves.toBeNull();
    const first = w.sent[1] as Extract<ToWorker, { type: 'evaluate' }>;
    w.reply({ type: 'result', id: first.id, results: [ev('A')], engineMs: 1 });
    await expect(a).resolves.toEqual({ results: [ev('A')], engineMs: 1 });
    expect(w.sent.length).toBe(3);
    const last = w.sent[2] as Extract<ToWorker, { type: 'evaluate' }>;
    expect(last.scenarios).toEqual(['d']);
    w.reply({ type: 'result', id: last.id, results: [ev('D')], engineMs: 2 });
    await expect(d).resolves.toEqual({ results: [ev('D')], engineMs: 2 });
  });

  it('reports a failed engine load to every caller', async () => {
    const w = new FakeWorker();
    const c = new EngineClient(w, 'http://x/engine/');
    const p = c.evaluate(['a']);
    w.reply({ type: 'error', message: 'the engine did not load: 404' });
    await expect(c.ready).rejects.toThrow('404');
    await expect(p).rejects.toThrow('404');
    await expect(c.evaluate(['b'])).rejects.toThrow('404');
  });
});
