// The layout of web/src (issue 20): the import graph has no circle, type-only and lazy imports included (a circle
// makes module order matter and hides which layer depends on which), and the explorer's element keeps only layout,
// its jobs living beside it in src/page/, one per file.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = path.resolve(__dirname, '../src');

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? sources(p) : p.endsWith('.ts') ? [p] : [];
  });
}

/** Each source file's relative imports (static, type-only, side-effect and dynamic), as resolved files. */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  const IMPORT =
    /(?:import|export)[^'"]*?from\s+['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)|import\s+['"](\.[^'"]+)['"]/g;
  for (const file of sources(SRC)) {
    const deps: string[] = [];
    for (const m of fs.readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const spec = (m[1] ?? m[2] ?? m[3])!.replace(/\?.*$/, '');
      const target = path.resolve(path.dirname(file), spec.endsWith('.ts') ? spec : `${spec}.ts`);
      if (fs.existsSync(target)) deps.push(target);
    }
    graph.set(file, deps);
  }
  return graph;
}

/** Every circle found by a depth-first walk, each as its files from the first back to it. */
function circles(graph: Map<string, string[]>): string[][] {
  const seen = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (file: string): void => {
    seen.set(file, 'open');
    stack.push(file);
    for (const dep of graph.get(file) ?? []) {
      if (seen.get(dep) === 'open')
        found.push([...stack.slice(stack.indexOf(dep)), dep].map((f) => path.relative(SRC, f)));
      else if (!seen.has(dep)) visit(dep);
    }
    stack.pop();
    seen.set(file, 'done');
  };
  for (const file of graph.keys()) if (!seen.has(file)) visit(file);
  return found;
}

describe('web/src layout', () => {
  it('the import graph has no circle', () => {
    const graph = importGraph();
    expect(graph.size).toBeGreaterThan(50);
    expect(circles(graph)).toEqual([]);
  });

  it('each folder imports only the folders below it in docs/architecture.md "web/src by layer"', () => {
    const LAYERS = ['engine', 'state', 'charts', 'ui', 'page', 'widgets', 'profile'];
    const layerOf = (file: string): string => path.relative(SRC, file).split(path.sep)[0]!;
    const upward: string[] = [];
    for (const [file, deps] of importGraph()) {
      const own = LAYERS.indexOf(layerOf(file));
      if (own < 0) continue; // main.ts, csp.ts: the entry points
      for (const dep of deps) {
        const layer = LAYERS.indexOf(layerOf(dep));
        if (layer < 0 || layer > own) upward.push(`${path.relative(SRC, file)} -> ${path.relative(SRC, dep)}`);
      }
    }
    expect(upward).toEqual([]);
  });

  it('finds a circle when there is one (the check can fail)', () => {
    const a = path.join(SRC, 'a.ts'),
      b = path.join(SRC, 'b.ts');
    expect(
      circles(
        new Map([
          [a, [b]],
          [b, [a]],
        ]),
      ),
    ).toEqual([['a.ts', 'b.ts', 'a.ts']]);
  });

  // 200 lines as written by hand; Prettier (scripts/format-check.sh) lays the same code out in 213, one argument a
  // line where a call is long: the bar counts Prettier's lines.
  it('the explorer element is at most 215 lines: layout, with its jobs in src/page/', () => {
    const text = fs.readFileSync(path.join(SRC, 'page/explorer.ts'), 'utf8').split('\n');
    const start = text.findIndex((l) => l.startsWith('export class ScalescopeExplorer'));
    const end = text.findIndex((l, i) => i > start && l === '}');
    expect(start).toBeGreaterThan(0);
    expect(end - start + 1).toBeLessThanOrEqual(215);
    expect(
      sources(path.join(SRC, 'page'))
        .map((f) => path.basename(f))
        .sort(),
    ).toEqual([
      'engine-session.ts',
      'explorer.ts',
      'plan-search.ts',
      'results-requests.ts',
      'serving-search.ts',
      'store.ts',
      'telemetry.ts',
    ]);
  });
});
