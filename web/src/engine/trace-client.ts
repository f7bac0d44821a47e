// Runs one trace read in its own worker (trace-worker.ts), so that the page stays responsive however large the
// file, and a new file replaces a read still running (its worker is ended).
import type { TraceAnswer, TraceMessage, TraceOptions } from './trace-types';

export interface TraceProgress {
  bytesRead: number;
  totalBytes: number;
}

export class TraceClient {
  private worker: Worker | null = null;

  constructor(private readonly base: string) {}

  read(file: Blob, options: TraceOptions, progress: (p: TraceProgress) => void): Promise<TraceAnswer> {
    this.cancel();
    const worker = new Worker(new URL('./trace-worker.ts', import.meta.url), { type: 'module' });
    this.worker = worker;
    return new Promise<TraceAnswer>((resolve, reject) => {
      worker.onmessage = (ev: MessageEvent<TraceMessage>) => {
        const m = ev.data;
        if (m.type === 'progress') return progress(m);
        this.cancel();
        if (m.type === 'answer') resolve(JSON.parse(m.text) as TraceAnswer);
        else reject(new Error(m.message));
      };
      worker.onerror = (ev) => {
        this.cancel();
        reject(new Error(ev.message || 'the trace reader stopped'));
      };
      worker.postMessage({ file, options, base: this.base });
    });
  }

  cancel(): void {
    this.worker?.terminate();
    this.worker = null;
  }
}
