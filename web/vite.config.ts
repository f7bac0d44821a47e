// Vite builds a static site (base './': any file server or GitHub Pages can serve it) into build/site.
// The engine plugin ships build/wasm/scalescope_engine.{js,wasm} inside the site and embeds the engine's presets.
import { defineConfig } from 'vitest/config';
import { scalescopeEngine } from './engine-plugin.ts';

export default defineConfig({
  base: './',
  plugins: [scalescopeEngine()],
  worker: { format: 'es' },
  build: {
    outDir: '../build/site',
    emptyOutDir: true,
    target: 'es2022',
    chunkSizeWarningLimit: 600,
  },
  test: {
    include: ['test/**/*.test.ts'],
    environment: 'node',
    testTimeout: 60_000,
  },
});
