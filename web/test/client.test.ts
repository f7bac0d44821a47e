// The worker client keeps only the latest request while one is in the worker, caches results by scenario text and
// sends the worker only what it has not seen, as one batch.
import { describe, expect, it } from 'vitest';
import { EngineClient, ResultCache, type WorkerLike } from '../src/engine/client';
import type { FromWorker, ToWorker } from '../src/engine/protocol';

type Sent = Extract<ToWorker, { type: 'evaluate' }>;

class FakeWorker implements WorkerLike {
  sent: ToWorker[] = [];
  terminated = false;
  terminate(): void {
    this.terminated = true;
  }
  onmessage: ((ev: MessageEvent<FromWorker>) => void) | null = null;
  onerror: ((ev: ErrorEvent) => void) | null = null;
  postMessage(msg: ToWorker): void {
    this.sent.push(msg);
  }
  reply(msg: FromWorker): void {
    this.onmessage?.({ data: msg } as MessageEvent<FromWorker>);
  }
  last(): Sent {
    return this.sent[this.sent.length - 1] as Sent;
  }
  /** Answers the last batch the way the worker does: one JSON array, each scenario text upper-cased. */
  answer(engineMs = 1): void {
    const b = this.last();
    this.reply({ type: 'result', id: b.id, json: JSON.stringify(b.scenarios.map(ev)), engineMs, calls: 1 });
  }
}

const ev = (text: string) => ({ ok: true, diagnostics: [], engine_version: 'x', result: text.toUpperCase() });

function started(): { w: FakeWorker; c: EngineClient } {
  const w = new FakeWorker();
  const c = new EngineClient(w, 'http://x/engine/');
  w.reply({ type: 'ready', version: '0.1.0', loadMs: 1 });
  return { w, c };
}

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
    w.answer(1);
    await expect(a).resolves.toEqual({ results: [ev('a')], engineMs: 1, cached: 0, trips: 1, calls: 1 });
    expect(w.sent.length).toBe(3);
    expect(w.last().scenarios).toEqual(['d']);
    w.answer(2);
    await expect(d).resolves.toEqual({ results: [ev('d')], engineMs: 2, cached: 0, trips: 1, calls: 1 });
  });

  it('sends a whole batch in one message, each distinct scenario once', async () => {
    const { w, c } = started();
    const p = c.evaluate(['a', 'b', 'a', 'c']);
    expect(w.sent.length).toBe(2);
    expect(w.last().scenarios).toEqual(['a', 'b', 'c']);
    w.answer();
    const r = await p;
    expect(r?.results).toEqual([ev('a'), ev('b'), ev('a'), ev('c')]);
    expect(r?.results[0]).toBe(r?.results[2]);
  });

  it('answers cached scenarios without a round trip, with the same objects, and sends only the new ones', async () => {
    const { w, c } = started();
    const first = c.evaluate(['chip', 'model', 'step1']);
    w.answer();
    const r1 = (await first)!;
    const again = await c.evaluate(['chip', 'model', 'step1']);
    expect(w.sent.length).toBe(2); // init + the first batch: no trip for the second
    expect(again).toMatchObject({ cached: 3, trips: 0, calls: 0, engineMs: 0 });
    expect(again!.results[0]).toBe(r1.results[0]);
    const moved = c.evaluate(['chip', 'model', 'step2']);
    expect(w.last().scenarios).toEqual(['step2']);
    w.answer();
    const r3 = (await moved)!;
    expect(r3).toMatchObject({ cached: 2, trips: 1 });
    expect(r3.results[0]).toBe(r1.results[0]);
    expect(r3.results[1]).toBe(r1.results[1]);
    expect(r3.results[2]).toEqual(ev('step2'));
  });

  it('never goes back in time: a late answer after a newer cached one resolves null (and still fills the cache)', async () => {
    const { w, c } = started();
    const warm = c.evaluate(['x']);
    w.answer();
    await warm;
    const slow = c.evaluate(['y']); // in the worker
    const fast = await c.evaluate(['x']); // answered at once from the cache
    expect(fast?.results).toEqual([ev('x')]);
    w.answer();
    await expect(slow).resolves.toBeNull();
    const later = await c.evaluate(['y']);
    expect(later).toMatchObject({ trips: 0, results: [ev('y')] });
  });

  it('a waiting batch whose scenarios the in-flight one answered needs no trip of its own', async () => {
    const { w, c } = started();
    const a = c.evaluate(['p', 'q']);
    const b = c.evaluate(['q']);
    w.answer();
    await a;
    expect(await b).toMatchObject({ trips: 0, results: [ev('q')] });
    expect(w.sent.length).toBe(2);
  });

  it('does not cache an engine trap', async () => {
    const { w, c } = started();
    const p = c.evaluate(['bad']);
    const b = w.last();
    const trap = {
      ok: false,
      diagnostics: [{ path: '', code: 'engine_error', message: 'RuntimeError' }],
      engine_version: '',
    };
    w.reply({ type: 'result', id: b.id, json: JSON.stringify([trap]), engineMs: 0, calls: 2 });
    expect((await p)?.results).toEqual([trap]);
    void c.evaluate(['bad']);
    expect(w.sent.length).toBe(3);
  });

  it('rejects an answer of the wrong length or that is not JSON', async () => {
    const { w, c } = started();
    const p = c.evaluate(['a', 'b']);
    w.reply({ type: 'result', id: w.last().id, json: '[{}]', engineMs: 0, calls: 1 });
    await expect(p).rejects.toThrow('1 results for 2 scenarios');
    const q = c.evaluate(['c']);
    w.reply({ type: 'result', id: w.last().id, json: 'nope', engineMs: 0, calls: 1 });
    await expect(q).rejects.toThrow('not JSON');
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

describe('ResultCache', () => {
  it('drops the least recently used entry', () => {
    const c = new ResultCache(2);
    const e = (x: string) => ({ ok: true, diagnostics: [], engine_version: x });
    c.set('a', e('a'));
    c.set('b', e('b'));
    expect(c.get('a')?.engine_version).toBe('a'); // a is now the most recent
    c.set('c', e('c'));
    expect(c.get('b')).toBeUndefined();
    expect(c.get('a')).toBeDefined();
    expect(c.size).toBe(2);
  });
});

describe('EngineClient lanes', () => {
  it('a request replaces only the waiting one of its own lane; main goes first', async () => {
    const { w, c } = started();
    const first = c.evaluate(['m1']); // in the worker
    const charts = c.evaluate(['c1'], 'charts');
    const search = c.evaluate(['s1'], 'search');
    const main2 = c.evaluate(['m2']);
    const charts2 = c.evaluate(['c2'], 'charts');
    await expect(charts).resolves.toBeNull();
    w.answer();
    await first;
    expect(w.last().scenarios).toEqual(['m2']); // main before the older search
    w.answer();
    expect((await main2)?.results).toEqual([ev('m2')]);
    expect(w.last().scenarios).toEqual(['s1']); // then the oldest other lane
    w.answer();
    expect((await search)?.results).toEqual([ev('s1')]);
    expect(w.last().scenarios).toEqual(['c2']);
    w.answer();
    expect((await charts2)?.results).toEqual([ev('c2')]);
  });

  it('a cached answer in one lane does not void another lane’s request', async () => {
    const { w, c } = started();
    const warm = c.evaluate(['x']);
    w.answer();
    await warm;
    const search = c.evaluate(['plans'], 'search');
    await c.evaluate(['x']); // main, from the cache, while the search is in the worker
    w.answer();
    expect((await search)?.results).toEqual([ev('plans')]);
  });
});

describe('EngineClient never waits forever', () => {
  it('gives up on a batch the worker does not answer, and starts a fresh worker for the next', async () => {
    const workers: FakeWorker[] = [];
    const c = new EngineClient(
      () => {
        const w = new FakeWorker();
        workers.push(w);
        return w;
      },
      'http://x/engine/',
      { timeoutMs: 20 },
    );
    workers[0]!.reply({ type: 'ready', version: '0.1.0', loadMs: 1 });
    const hung = c.evaluate(['a']);
    await expect(hung).rejects.toThrow('did not answer within');
    expect(workers.length).toBe(2);
    expect(workers[0]!.terminated).toBe(true);
    expect(workers[1]!.sent[0]).toEqual({ type: 'init', engineBase: 'http://x/engine/' });
    const next = c.evaluate(['b']);
    expect(workers[1]!.sent.length).toBe(1); // waits for the new worker to load
    workers[1]!.reply({ type: 'ready', version: '0.1.0', loadMs: 1 });
    workers[1]!.answer();
    await expect(next).resolves.toMatchObject({ results: [ev('b')] });
    expect(c.restarts).toBe(1);
  });

  it('a worker that dies after loading is replaced; one that dies before loading fails every request', async () => {
    const workers: FakeWorker[] = [];
    const c = new EngineClient(
      () => (workers.push(new FakeWorker()), workers[workers.length - 1]!),
      'http://x/engine/',
    );
    workers[0]!.reply({ type: 'ready', version: '0.1.0', loadMs: 1 });
    const p = c.evaluate(['a']);
    workers[0]!.onerror?.({ message: 'RuntimeError: unreachable' } as ErrorEvent);
    await expect(p).rejects.toThrow('unreachable');
    expect(workers.length).toBe(2);
    workers[1]!.onerror?.({ message: 'SyntaxError' } as ErrorEvent); // the replacement never loads
    await expect(c.evaluate(['b'])).rejects.toThrow('SyntaxError');
    expect(workers.length).toBe(2);
  });

  it('a worker answering a batch with an error keeps serving the next', async () => {
    const { w, c } = started();
    const p = c.evaluate(['a']);
    w.reply({ type: 'error', id: w.last().id, message: 'the engine failed on this batch' });
    await expect(p).rejects.toThrow('failed on this batch');
    const q = c.evaluate(['b']);
    w.answer();
    await expect(q).resolves.toMatchObject({ results: [ev('b')] });
  });
});
