// The profile page's worker: reads a dropped trace file as a stream (gunzipped by the browser's DecompressionStream
// when its first bytes say gzip), feeds each chunk to the trace module (wasm/trace_bindings.cpp) and posts its
// progress and, at the end, the module's answer. The file never leaves the browser. The module is loaded on the
// first request and kept.
/// <reference lib="webworker" />
import type { TraceMessage, TraceRequest } from './trace-types';

declare const self: DedicatedWorkerGlobalScope;

interface TraceSession {
  feed(chunk: Uint8Array): boolean;
  finish(options: string): string;
  delete(): void;
}
interface TraceModule {
  TraceSession: new () => TraceSession;
}
type CreateTraceModule = (options: { wasmBinary: ArrayBuffer }) => Promise<TraceModule>;

/** The most a browser tab reads (the engine's own limit on the decompressed text is the same, docs/api.md). */
const MAX_TRACE_BYTES = 1_000_000_000;
const PROGRESS_EVERY_MS = 100;

let module: Promise<TraceModule> | null = null;

function load(base: string): Promise<TraceModule> {
  module ??= (async () => {
    const [mod, bytes] = await Promise.all([
      import(/* @vite-ignore */ new URL('scalescope_trace.js', base).href) as Promise<{ default: CreateTraceModule }>,
      fetch(new URL('scalescope_trace.wasm', base).href).then((r) => {
        if (!r.ok) throw new Error(`could not fetch the trace module (HTTP ${r.status})`);
        return r.arrayBuffer();
      }),
    ]);
    return mod.default({ wasmBinary: bytes });
  })();
  return module;
}

const post = (m: TraceMessage): void => self.postMessage(m);

async function read(request: TraceRequest): Promise<string> {
  const { file, options, base } = request;
  if (file.size > MAX_TRACE_BYTES) {
    throw new Error(
      `the file is ${(file.size / 1e9).toFixed(2)} GB, over the 1 GB a browser reads: profile fewer steps (the profiler's schedule: wait, warmup, active=1) or use the command line`,
    );
  }
  const engine = await load(base);
  const head = new Uint8Array(await file.slice(0, 2).arrayBuffer());
  const gzipped = head[0] === 0x1f && head[1] === 0x8b;
  let bytesRead = 0,
    lastPost = 0;
  const counted: ReadableStream<Uint8Array> = file.stream().pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        bytesRead += chunk.byteLength;
        controller.enqueue(chunk);
      },
    }),
  );
  const text = gzipped
    ? counted.pipeThrough(new DecompressionStream('gzip') as unknown as ReadableWritablePair<Uint8Array, Uint8Array>)
    : counted;
  const session = new engine.TraceSession();
  try {
    const reader = text.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!session.feed(value)) {
        // the engine already knows the text is bad: its answer says why
        await reader.cancel();
        break;
      }
      const now = performance.now();
      if (now - lastPost > PROGRESS_EVERY_MS) {
        lastPost = now;
        post({ type: 'progress', bytesRead, totalBytes: file.size });
      }
    }
    post({ type: 'progress', bytesRead: file.size, totalBytes: file.size });
    return session.finish(JSON.stringify(options));
  } finally {
    session.delete();
  }
}

self.onmessage = (ev: MessageEvent<TraceRequest>) => {
  read(ev.data).then(
    (text) => post({ type: 'answer', text }),
    (e: unknown) => post({ type: 'error', message: e instanceof Error ? e.message : String(e) }),
  );
};
