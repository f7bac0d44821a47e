// Loads the built wasm engine in Node the way TOOLCHAIN.md quirk 3 says: hand it the bytes.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { CreateScalescope, EngineModule } from '../src/engine/types';
import { ENGINE_DIR } from '../engine-plugin';

export const REPO = path.resolve(__dirname, '../..');

export async function loadEngine(): Promise<EngineModule> {
  const mod = (await import(pathToFileURL(path.join(ENGINE_DIR, 'scalescope_engine.js')).href)) as { default: CreateScalescope };
  return mod.default({ wasmBinary: fs.readFileSync(path.join(ENGINE_DIR, 'scalescope_engine.wasm')) });
}
