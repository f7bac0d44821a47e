// Vite plugin: the site ships the schema (schema/, JSON Schema 2020-12) under a stable address, schema/ beside
// index.html: editors and users' validators point "$schema" at <site>/schema/scenario.schema.json. The files keep
// their relative $refs, so the folder is copied whole; the dev server serves it from the repository.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';

const SCHEMA_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../schema');

/** Every schema file, by its path under schema/. */
export function schemaAssets(): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const f of fs.readdirSync(path.join(SCHEMA_DIR, dir), { withFileTypes: true })) {
      const rel = path.posix.join(dir, f.name);
      if (f.isDirectory()) walk(rel);
      else if (f.name.endsWith('.schema.json')) out.push(rel);
    }
  };
  walk('');
  return out.sort();
}

export function scalescopeSchema(): Plugin {
  return {
    name: 'scalescope-schema',
    generateBundle() {
      for (const file of schemaAssets())
        this.emitFile({
          type: 'asset',
          fileName: `schema/${file}`,
          source: fs.readFileSync(path.join(SCHEMA_DIR, file)),
        });
    },
    configureServer(server) {
      server.middlewares.use('/schema/', (req, res, next) => {
        const file = decodeURIComponent((req.url ?? '').split('?')[0]!.replace(/^\//, ''));
        if (!schemaAssets().includes(file)) return next();
        res.setHeader('Content-Type', 'application/schema+json');
        res.end(fs.readFileSync(path.join(SCHEMA_DIR, file)));
      });
    },
  };
}
