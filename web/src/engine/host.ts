// The engine worker's logic, apart from the worker itself so that Vitest can drive it with a fake module: load
// once, answer each batch with one evaluate_many call (batch.ts), catch every failure and answer it as an error,
// and replace an instance that has thrown (after a trap a wasm instance can fail valid scenarios too: issue 12).
import type { FromWorker, ToWorker } from './protocol';
import { evaluateBatch } from './batch';
import type { Instantiate } from './load';
import type { EngineModule } from './types';

const message = (e: unknown): string => (e instanceof Error ? e.message : String(e));

export class EngineHost {
  /** Instances made after the first one (each after a throw). */
  renewals = 0;
  private instantiate: Instantiate | null = null;
  private engine: Promise<EngineModule> | null = null;

  constructor(
    private readonly prepare: (engineBase: string) => Promise<Instantiate>,
    private readonly now: () => number = () => performance.now(),
  ) {}

  async handle(msg: ToWorker): Promise<FromWorker> {
    if (msg.type === 'init') {
      const t0 = this.now();
      try {
        this.instantiate = await this.prepare(msg.engineBase);
        this.engine = this.instantiate();
        const m = await this.engine;
        return { type: 'ready', version: m.version(), loadMs: this.now() - t0 };
      } catch (e) {
        this.engine = null;
        return { type: 'error', message: `the engine did not load: ${message(e)}` };
      }
    }
    if (!this.engine)
      return { type: 'error', id: msg.id, message: 'the engine was asked to evaluate before it was loaded' };
    try {
      const m = await this.engine;
      const t0 = this.now();
      const { json, calls, trapped } = evaluateBatch(m, msg.scenarios);
      if (trapped) this.renew();
      return { type: 'result', id: msg.id, json, engineMs: this.now() - t0, calls };
    } catch (e) {
      this.renew();
      return {
        type: 'error',
        id: msg.id,
        message: `the engine failed on this batch (${message(e)}); a fresh engine answers the next one`,
      };
    }
  }

  /** A fresh instance for the next batch (the module and bytes are already here). */
  private renew(): void {
    if (!this.instantiate) return;
    this.renewals++;
    this.engine = this.instantiate();
    this.engine.catch(() => undefined); // reported when the next batch awaits it
  }
}
