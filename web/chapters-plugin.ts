// Vite plugin: the chapter pages (chapters/*.md -> chapters/*.html in the site), rendered at build time with
// markdown-it and KaTeX, every {{reference}} evaluated by the real wasm engine in Node (src/chapters/site.ts).
// The build fails, with every problem listed, on an unknown reference, a rejected scenario, a path that reaches no
// number or a non-finite value. The dev server renders the same pages on request (they load the widgets from source).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';
import { loadEngine } from './engine-plugin.ts';
import { buildSite, readChapters, type BuiltSite } from './src/chapters/site.ts';
import { scrollCueCss } from './src/charts/scroll-cue.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
export const CHAPTERS_DIR = process.env.SCALESCOPE_CHAPTERS_DIR ?? path.resolve(here, '../chapters');
const KATEX_DIST = path.resolve(here, 'node_modules/katex/dist');
const CSS_FILE = path.resolve(here, 'src/chapters/chapter.css');
/** Build figures (time, counts), read by the browser test's report. */
const FIGURES_FILE = path.resolve(here, '../build/chapters-build.json');

/** KaTeX's stylesheet with only the woff2 fonts (every browser that runs the widgets' module script reads woff2). */
function katexCss(): string {
  const css = fs.readFileSync(path.join(KATEX_DIST, 'katex.min.css'), 'utf8');
  return css.replace(/,url\(fonts\/[^)]+\.(?:woff|ttf)\) format\("(?:woff|truetype)"\)/g, '');
}

function katexFonts(): string[] {
  return fs.readdirSync(path.join(KATEX_DIST, 'fonts')).filter((f) => f.endsWith('.woff2'));
}

/** Every file under chapters/ in the site, by name. */
export async function chapterFiles(
  widgetsScript: string,
  csp = false,
): Promise<{ site: BuiltSite; files: Map<string, string | Buffer>; ms: number }> {
  const t0 = performance.now();
  const engine = await loadEngine();
  const site = buildSite({
    chapters: readChapters(CHAPTERS_DIR),
    numbersJson: fs.readFileSync(path.join(CHAPTERS_DIR, 'numbers.json'), 'utf8'),
    evaluate: (s) => engine.evaluate(s),
    engineVersion: engine.version(),
    widgetsScript,
    csp,
  });
  const files = new Map<string, string | Buffer>(site.pages);
  // Wide formulas and tables scroll sideways on a phone, with the explorer's cue that they do.
  files.set('chapter.css', fs.readFileSync(CSS_FILE, 'utf8') + scrollCueCss('.math, .table-wrap', 'var(--bg)'));
  files.set('katex/katex.min.css', katexCss());
  for (const f of katexFonts()) files.set(`katex/fonts/${f}`, fs.readFileSync(path.join(KATEX_DIST, 'fonts', f)));
  return { site, files, ms: performance.now() - t0 };
}

export function scalescopeChapters(): Plugin {
  let cache: { key: string; files: Map<string, string | Buffer> } | null = null;
  const sourcesKey = (): string =>
    fs
      .readdirSync(CHAPTERS_DIR)
      .map((f) => `${f}:${fs.statSync(path.join(CHAPTERS_DIR, f)).mtimeMs}`)
      .join('|') + fs.statSync(CSS_FILE).mtimeMs;
  return {
    name: 'scalescope-chapters',
    async generateBundle() {
      let built;
      try {
        built = await chapterFiles('../widgets.js', true);
      } catch (e) {
        this.error(e instanceof Error ? e.message : String(e));
      }
      for (const [name, source] of built.files) this.emitFile({ type: 'asset', fileName: `chapters/${name}`, source });
      const pages = built.site.chapters.length;
      const refs = built.site.chapters.reduce((a, c) => a + c.refs.length, 0);
      const widgets = built.site.chapters.reduce((a, c) => a + c.widgets.length, 0);
      fs.mkdirSync(path.dirname(FIGURES_FILE), { recursive: true });
      fs.writeFileSync(
        FIGURES_FILE,
        JSON.stringify(
          { pages, references: refs, numbers: built.site.numbersResolved, widgets, ms: built.ms },
          null,
          2,
        ),
      );
      console.log(
        `chapters: ${pages} pages, ${refs} references (${built.site.numbersResolved} engine numbers), ${widgets} widgets in ${built.ms.toFixed(0)} ms`,
      );
    },
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        const m = /^\/chapters\/([a-z0-9./-]*)(?:\?.*)?$/.exec(req.url ?? '');
        if (!m) return next();
        const name = m[1] === '' ? 'index.html' : m[1]!;
        const key = sourcesKey();
        const ready =
          cache?.key === key
            ? Promise.resolve(cache.files)
            : chapterFiles('/src/widgets/index.ts').then((b) => (cache = { key, files: b.files }).files);
        ready.then(
          (files) => {
            const body = files.get(name);
            if (body === undefined) return next();
            const type = name.endsWith('.html')
              ? 'text/html; charset=utf-8'
              : name.endsWith('.css')
                ? 'text/css'
                : 'font/woff2';
            res.setHeader('Content-Type', type);
            res.end(body);
          },
          (e: unknown) => {
            res.statusCode = 500;
            res.setHeader('Content-Type', 'text/plain; charset=utf-8');
            res.end(e instanceof Error ? e.message : String(e));
          },
        );
      });
    },
  };
}
