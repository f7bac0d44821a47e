// The profile page's trace module (build/wasm/scalescope_trace.{js,wasm}, wasm/trace_bindings.cpp) against the
// native CLI: fed a fixture in chunks of bytes as the worker feeds it (src/engine/trace-worker.ts), it answers
// exactly what `scalescope trace --json` answers, and its answer has the keys src/engine/trace-types.ts reads.
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TraceAnswer } from '../src/engine/trace-types';
import { ENGINE_DIR } from '../engine-plugin';

const REPO = path.resolve(__dirname, '../..');
const CLI = process.env.SCALESCOPE_CLI ?? path.join(REPO, 'build/release/scalescope');
const FIXTURE = path.join(REPO, 'tests/traces/b200_vllm_gpt_oss_tp8_rank0.json');

interface TraceSession {
  feed(chunk: Uint8Array): boolean;
  finish(options: string): string;
  delete(): void;
}
let TraceSessionClass: new () => TraceSession;

beforeAll(async () => {
  const mod = (await import(pathToFileURL(path.join(ENGINE_DIR, 'scalescope_trace.js')).href)) as {
    default: (o: { wasmBinary: Buffer }) => Promise<{ TraceSession: new () => TraceSession }>;
  };
  TraceSessionClass = (
    await mod.default({ wasmBinary: fs.readFileSync(path.join(ENGINE_DIR, 'scalescope_trace.wasm')) })
  ).TraceSession;
});

function readInChunks(bytes: Uint8Array, chunk: number, options: object): TraceAnswer {
  const session = new TraceSessionClass();
  try {
    // feed() says false once the text is known to be bad, and the rest need not be sent.
    for (let at = 0; at < bytes.length; at += chunk) if (!session.feed(bytes.subarray(at, at + chunk))) break;
    return JSON.parse(session.finish(JSON.stringify(options))) as TraceAnswer;
  } finally {
    session.delete();
  }
}

describe('trace module', () => {
  it('answers as the native CLI does, in chunks of any size', () => {
    const native = JSON.parse(execFileSync(CLI, ['trace', FIXTURE, '--json', '--top', '15']).toString()) as TraceAnswer;
    const bytes = new Uint8Array(fs.readFileSync(FIXTURE));
    for (const chunk of [65536, 4099]) expect(readInChunks(bytes, chunk, { top: 15 })).toEqual(native);
  });

  it('has every key the profile page reads', () => {
    const answer = readInChunks(new Uint8Array(fs.readFileSync(FIXTURE)), 1 << 20, { top: 5 });
    expect(answer.ok).toBe(true);
    const r = answer.result!;
    for (const key of [
      'hardware',
      'distributed',
      'kernels',
      'kernel_time_s',
      'classified_share',
      'priced_share',
      'devices',
      'classes',
      'ops',
      'gaps',
    ])
      expect(r, key).toHaveProperty(key);
    expect(Object.keys(r.hardware!).sort()).toEqual([
      'critical_intensity_flops_per_byte',
      'from',
      'hbm_bandwidth_bytes_per_s',
      'id',
      'name',
      'peak_bf16_flops_per_s',
    ]);
    expect(r.ops.length).toBe(5);
  });

  it('says what is wrong with bytes that are not a trace', () => {
    const answer = readInChunks(new TextEncoder().encode('{"traceEvents": [1]}'), 7, {});
    expect(answer.ok).toBe(false);
    expect(answer.diagnostics.map((d) => d.code)).toEqual(['bad_event']);
  });
});
