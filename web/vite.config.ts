// Vite builds a static site (base './': any file server or GitHub Pages can serve it) into build/site.
// The engine plugin ships build/wasm/scalescope_engine.{js,wasm} inside the site and embeds the engine's presets.
// The chapters plugin renders chapters/*.md into chapters/*.html; widgets.js (a second entry, fixed name, at the
// site's root) is what any page embeds with one script tag; embed.html shows one widget full-width from its URL (for
// pages that can only hold an iframe). profile.html reads a profiler trace against the roofline (issue 37). Every page carries a strict Content-Security-Policy (src/csp.ts). The schema
// plugin ships schema/ (the JSON Schema of scenarios and results) as the site's schema/.
import { defineConfig } from 'vitest/config';
import { scalescopeEngine } from './engine-plugin.ts';
import { scalescopeChapters } from './chapters-plugin.ts';
import { scalescopeCsp } from './csp-plugin.ts';
import { scalescopeSchema } from './schema-plugin.ts';

export default defineConfig({
  base: './',
  plugins: [scalescopeEngine(), scalescopeChapters(), scalescopeCsp(), scalescopeSchema()],
  worker: { format: 'es' },
  build: {
    outDir: '../build/site',
    emptyOutDir: true,
    target: 'es2022',
    chunkSizeWarningLimit: 600,
    rolldownOptions: {
      input: { index: 'index.html', embed: 'embed.html', profile: 'profile.html', widgets: 'src/widgets/index.ts' },
      output: { entryFileNames: (chunk) => (chunk.name === 'widgets' ? 'widgets.js' : 'assets/[name]-[hash].js') },
    },
  },
  test: {
    include: ['test/**/*.test.ts'],
    environment: 'node',
    testTimeout: 60_000,
  },
});
