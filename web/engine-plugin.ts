// Vite plugin: the one place where the site meets the built engine (build/wasm, made by `cmake --build build/wasm`).
//  - `virtual:scalescope-presets` is the engine's own presets() output, read at build time, so the controls can
//    be drawn before the wasm has loaded (the presets ship inside the site; the web never keeps its own copy);
//  - `virtual:scalescope-chip-sources` is each chip preset's sources, read from its file: the page's engine carries
//    its presets without their prose (cmake/embed_presets.cmake), and the chip fields load this when first shown;
//  - the build copies scalescope_engine.{js,wasm} to engine/ in the site, with the profile page's trace module
//    scalescope_trace.{js,wasm} (wasm/trace_bindings.cpp) and the launch configs' engine scalescope_launch.{js,wasm}
//    (the explorer loads it in a worker of its own when a reader asks for a launch config); the dev server serves
//    them from there;
//  - the profile page's sample trace is tests/traces/' fixture, gzipped as profilers write it (samples/).
import fs from 'node:fs';
import zlib from 'node:zlib';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Plugin } from 'vite';
import type { CreateScalescope, EngineFeatures, EngineModule } from './src/engine/types';

const here = path.dirname(fileURLToPath(import.meta.url));
export const ENGINE_DIR = process.env.SCALESCOPE_WASM_DIR ?? path.resolve(here, '../build/wasm');
const FILES = ['scalescope_engine.js', 'scalescope_engine.wasm'] as const;
const TRACE_FILES = ['scalescope_trace.js', 'scalescope_trace.wasm'] as const;
const LAUNCH_FILES = ['scalescope_launch.js', 'scalescope_launch.wasm'] as const;
const SAMPLE_TRACE = 'b200_vllm_gpt_oss_tp8_rank0.json';
const SAMPLE_DIR = path.resolve(here, '../tests/traces');
const VIRTUAL = 'virtual:scalescope-presets';
const CHIP_SOURCES = 'virtual:scalescope-chip-sources';
const HARDWARE_DIR = path.resolve(here, '../hardware_presets');

/** The profile page's sample: a fixture cut from a public trace (tests/traces/README.md), gzipped. */
function sampleTrace(): Buffer {
  return zlib.gzipSync(fs.readFileSync(path.join(SAMPLE_DIR, SAMPLE_TRACE)), { level: 9 });
}

function enginePath(file: string): string {
  const p = path.join(ENGINE_DIR, file);
  if (!fs.existsSync(p)) {
    throw new Error(`${p} is missing: build the engine first (NODE_PATH=/usr/share/nodejs cmake --build build/wasm)`);
  }
  return p;
}

/** Loads the built engine in Node (docs/toolchain.md quirk 3: hand it the bytes); the chapter build uses it too. */
export async function loadEngine(): Promise<EngineModule> {
  const mod = (await import(pathToFileURL(enginePath(FILES[0])).href)) as { default: CreateScalescope };
  return mod.default({ wasmBinary: fs.readFileSync(enginePath(FILES[1])) });
}

/** The engine's presets JSON. */
export async function enginePresetsJson(): Promise<string> {
  return (await loadEngine()).presets();
}

/**
 * What this engine build accepts, asked of the engine itself: `query.fidelity` (issue 8) is an unknown key to an
 * engine without it. The site adapts (explorer toggles, widgets and chapters pinned to the book's fidelity).
 */
export function engineFeatures(engine: EngineModule): EngineFeatures {
  const probe = {
    hardware: { preset: 'tpu-v5e' },
    model: { preset: 'llama-3-8b' },
    mesh: { shape: [1] },
    query: { kind: 'training_step', batch_tokens: 4096, seq_len: 4096, parallelism: { data: ['X'] }, fidelity: 'book' },
  };
  const out = JSON.parse(engine.evaluate(JSON.stringify(probe))) as { diagnostics?: { path: string; code: string }[] };
  return { fidelity: !(out.diagnostics ?? []).some((d) => d.path === '/query/fidelity') };
}

/** Keys of the presets the site never reads from the engine: prose, citations (a chip's come from its file, after
 * first paint: chipSources) and the calibration profiles (the engine's answers carry the profile they used). */
const UNREAD = {
  hardware: ['sources', 'notes', 'datasheet_differences', 'schema', 'price_date'],
  models: ['sources', 'notes', 'not_modelled', 'schema'],
} as const;

/** Each chip preset's `sources` (JSON pointer -> citation), by id, from hardware_presets/. */
export function chipSources(): Record<string, Record<string, string>> {
  const out: Record<string, Record<string, string>> = {};
  for (const f of fs
    .readdirSync(HARDWARE_DIR)
    .filter((n) => n.endsWith('.json'))
    .sort()) {
    const preset = JSON.parse(fs.readFileSync(path.join(HARDWARE_DIR, f), 'utf8')) as {
      id: string;
      sources: Record<string, string>;
    };
    out[preset.id] = preset.sources;
  }
  return out;
}

/** The engine's presets() as the site ships them: every number and name the page reads, without the unread keys
 * (they are a quarter of the first load's script; `engine.presets()` still answers them in full). */
export function sitePresets(json: string): Record<string, unknown> {
  const p = JSON.parse(json) as Record<string, Record<string, unknown>[]>;
  for (const [list, keys] of Object.entries(UNREAD))
    for (const item of p[list] ?? []) for (const k of keys) delete item[k];
  return { ...p, calibration_profiles: [] };
}

export function scalescopeEngine(): Plugin {
  return {
    name: 'scalescope-engine',
    resolveId(id) {
      return id === VIRTUAL || id === CHIP_SOURCES ? '\0' + id : null;
    },
    async load(id) {
      if (id === '\0' + CHIP_SOURCES) {
        this.addWatchFile(HARDWARE_DIR);
        return `export default ${JSON.stringify(chipSources())};`;
      }
      if (id !== '\0' + VIRTUAL) return null;
      for (const f of FILES) this.addWatchFile(enginePath(f));
      const engine = await loadEngine();
      return `export default ${JSON.stringify(sitePresets(engine.presets()))};\nexport const features = ${JSON.stringify(engineFeatures(engine))};`;
    },
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        if (/\/samples\/[^/]+\.json\.gz(?:\?.*)?$/.test(req.url ?? '')) {
          res.setHeader('Content-Type', 'application/gzip');
          res.end(sampleTrace());
          return;
        }
        const m = /\/engine\/(scalescope_(?:engine|trace|launch)\.(?:js|wasm))(?:\?.*)?$/.exec(req.url ?? '');
        if (!m || !m[1]) return next();
        res.setHeader('Content-Type', m[1].endsWith('.js') ? 'text/javascript' : 'application/wasm');
        res.end(fs.readFileSync(enginePath(m[1])));
      });
    },
    generateBundle() {
      for (const f of [...FILES, ...TRACE_FILES, ...LAUNCH_FILES])
        this.emitFile({ type: 'asset', fileName: `engine/${f}`, source: fs.readFileSync(enginePath(f)) });
      this.emitFile({ type: 'asset', fileName: `samples/${SAMPLE_TRACE}.gz`, source: sampleTrace() });
    },
  };
}
