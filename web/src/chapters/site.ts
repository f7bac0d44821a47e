// The chapter pages of the site: chapters/NN-slug.md -> chapters/NN-slug.html, plus chapters/index.html. Runs at
// build time in Node (chapters-plugin.ts hands in the real wasm engine's `evaluate`); any problem fails the build
// with every message at once. The pages embed widgets exactly as any other page would: one script tag.
import { withCsp } from '../csp.ts';
import fs from 'node:fs';
import path from 'node:path';
import { resolveNumbers } from './numbers.ts';
import {
  ChapterError,
  createMarkdown,
  escapeHtml,
  parseFrontMatter,
  renderBody,
  type FrontMatter,
  type RenderEnv,
  type WidgetUse,
} from './render.ts';

export const PAGE_FILE_RE = /^(\d\d)-[a-z0-9-]+\.md$/;
export const BOOK_URL = 'https://jax-ml.github.io/scaling-book/';

export interface ChapterSource {
  /** File name without .md (01-rooflines). */
  slug: string;
  /** For messages: chapters/01-rooflines.md. */
  file: string;
  text: string;
}

export interface SiteInput {
  chapters: ChapterSource[];
  numbersJson: string;
  numbersFile?: string;
  /** The engine: scenario JSON text in, answer JSON text out. */
  evaluate: (scenarioJson: string) => string;
  engineVersion: string;
  /** Where a chapter page loads the widgets from (the built site: ../widgets.js). */
  widgetsScript: string;
  /** Give every page its Content-Security-Policy (the build; the dev server's live reload needs inline code). */
  csp?: boolean;
}

export interface BuiltChapter {
  slug: string;
  fm: FrontMatter;
  refs: string[];
  widgets: WidgetUse[];
}

export interface BuiltSite {
  /** File name inside chapters/ -> HTML. */
  pages: Map<string, string>;
  chapters: BuiltChapter[];
  numbersResolved: number;
}

/** The chapter sources of a folder, in file order (README.md and other files are not pages). */
export function readChapters(dir: string): ChapterSource[] {
  return fs
    .readdirSync(dir)
    .filter((f) => PAGE_FILE_RE.test(f))
    .sort()
    .map((f) => ({ slug: f.slice(0, -3), file: `chapters/${f}`, text: fs.readFileSync(path.join(dir, f), 'utf8') }));
}

function head(title: string, description: string, script: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<meta name="description" content="${escapeHtml(description)}">
<link rel="icon" href="data:,">
<link rel="stylesheet" href="katex/katex.min.css">
<link rel="stylesheet" href="chapter.css">
<script type="module" src="${escapeHtml(script)}"></script>
</head>`;
}

function siteHeader(current: 'index' | 'page'): string {
  return `<header class="site">
<a class="brand" href="../index.html">Scalescope</a>
<nav aria-label="Site"><a href="index.html"${current === 'index' ? ' aria-current="page"' : ''}>Chapters</a> <a href="../index.html">Explorer</a> <a href="${BOOK_URL}">The book</a></nav>
</header>`;
}

function credit(engineVersion: string): string {
  return `<footer class="credit">
<p>Companion pages to <a href="${BOOK_URL}"><cite>How to Scale Your Model</cite></a> (Austin et al., Google DeepMind;
source at <a href="https://github.com/jax-ml/scaling-book">github.com/jax-ml/scaling-book</a>). The ideas, problems and
figures are the book's; the wording is ours, and every number with a dotted underline is computed by the Scalescope
engine ${escapeHtml(engineVersion)}: at build time in the text, live in your browser in the widgets. Corrections to the
book's arithmetic are marked where they occur.</p>
</footer>`;
}

/** Widgets get a line of fallback text (shown until the script defines the element, or without JavaScript). */
function withFallbacks(html: string): string {
  return html.replace(
    /(<scalescope-widget\b[^>]*\bview="([^"]*)"[^>]*>)(<\/scalescope-widget>)/g,
    (_, open: string, view: string, close: string) =>
      `${open}<p class="widget-fallback">Live figure “${escapeHtml(view)}”: loading (it needs JavaScript).</p>${close}`,
  );
}

const secure = (page: string, input: SiteInput): string => (input.csp ? withCsp(page) : page);

function pageHtml(
  c: { slug: string; fm: FrontMatter; article: string; index: number; total: number },
  titles: Map<string, string>,
  input: SiteInput,
): string {
  const link = (slug: string | null, rel: 'prev' | 'next'): string => {
    if (!slug) return '<span></span>';
    const t = escapeHtml(titles.get(slug) ?? slug);
    return rel === 'prev'
      ? `<a rel="prev" href="${slug}.html"><span class="dir">← Previous</span> ${t}</a>`
      : `<a rel="next" href="${slug}.html"><span class="dir">Next →</span> ${t}</a>`;
  };
  const description = `${c.fm.title}: companion notes to How to Scale Your Model, with live numbers from the Scalescope engine.`;
  return `${head(`${c.fm.title} — Scalescope`, description, input.widgetsScript)}
<body>
${siteHeader('page')}
<main>
<p class="kicker">Chapter ${c.index + 1} of ${c.total} · <a href="${escapeHtml(c.fm.book_chapter_url)}" data-book-link>Read this chapter in the book</a> · <a href="../index.html" data-explorer-link>Open the explorer</a></p>
<article data-chapter="${c.slug}">
${withFallbacks(c.article)}
</article>
<nav class="pager" aria-label="Chapters">${link(c.fm.prev, 'prev')}${link(c.fm.next, 'next')}</nav>
</main>
${credit(input.engineVersion)}
</body>
</html>
`;
}

function indexHtml(chapters: BuiltChapter[], input: SiteInput): string {
  const items = chapters
    .map(
      (c, i) => `<li><a href="${c.slug}.html"><span class="n">${i + 1}</span> ${escapeHtml(c.fm.title)}</a>
<span class="meta">${c.refs.length} live numbers${c.widgets.length ? ` · ${c.widgets.length} widget${c.widgets.length > 1 ? 's' : ''}` : ''} · <a href="${escapeHtml(c.fm.book_chapter_url)}">book chapter</a></span></li>`,
    )
    .join('\n');
  return `${head('Chapters — Scalescope', 'Companion pages to How to Scale Your Model, every number computed by the Scalescope engine.', input.widgetsScript)}
<body>
${siteHeader('index')}
<main>
<h1>How to Scale Your Model, live</h1>
<p>One page per chapter of <a href="${BOOK_URL}"><cite>How to Scale Your Model</cite></a>, in our own words: the book's
reasoning, every computed number from the Scalescope engine, and its figures as widgets you can move. For a configuration
of your own, use <a href="../index.html">the explorer</a>.</p>
<ol class="toc">
${items}
</ol>
</main>
${credit(input.engineVersion)}
</body>
</html>
`;
}

/** Renders every page. Throws a ChapterError listing every problem (none is skipped). */
export function buildSite(input: SiteInput): BuiltSite {
  const errors: string[] = [];
  let defs: unknown;
  const numbersFile = input.numbersFile ?? 'chapters/numbers.json';
  try {
    defs = JSON.parse(input.numbersJson);
  } catch (e) {
    throw new ChapterError(`${numbersFile}: not valid JSON: ${e instanceof Error ? e.message : String(e)}`);
  }
  const { numbers, errors: numberErrors } = resolveNumbers(defs, input.evaluate, numbersFile);
  errors.push(...numberErrors);

  const md = createMarkdown();
  const slugs = new Set(input.chapters.map((c) => c.slug));
  const parsed: { src: ChapterSource; fm: FrontMatter; body: string; bodyLine: number }[] = [];
  for (const src of input.chapters) {
    try {
      parsed.push({ src, ...parseFrontMatter(src.text, src.file) });
    } catch (e) {
      errors.push(e instanceof Error ? e.message : String(e));
    }
  }
  const titles = new Map(parsed.map((p) => [p.src.slug, p.fm.title]));
  const pages = new Map<string, string>();
  const chapters: BuiltChapter[] = [];
  parsed.forEach((p, i) => {
    const want = { prev: parsed[i - 1]?.src.slug ?? null, next: parsed[i + 1]?.src.slug ?? null };
    for (const k of ['prev', 'next'] as const) {
      if (p.fm[k] !== want[k])
        errors.push(
          `${p.src.file}: front matter ${k} is ${JSON.stringify(p.fm[k])}, but the page ${k === 'prev' ? 'before' : 'after'} it is ${JSON.stringify(want[k])}`,
        );
    }
    const env: RenderEnv = {
      file: p.src.file,
      source: p.src.text,
      bodyLine: p.bodyLine,
      resolve: (n) => numbers.get(n),
      slugs,
      errors,
      refs: new Set(),
      widgets: [],
    };
    const article = renderBody(md, p.body, env);
    pages.set(
      `${p.src.slug}.html`,
      secure(pageHtml({ slug: p.src.slug, fm: p.fm, article, index: i, total: parsed.length }, titles, input), input),
    );
    chapters.push({ slug: p.src.slug, fm: p.fm, refs: [...env.refs], widgets: env.widgets });
  });
  if (input.chapters.length === 0) errors.push('chapters/: no NN-slug.md pages found');
  if (errors.length) {
    throw new ChapterError(
      `the chapters do not build (${errors.length} problem${errors.length > 1 ? 's' : ''}):\n  ${errors.join('\n  ')}`,
    );
  }
  pages.set('index.html', secure(indexHtml(chapters, input), input));
  return { pages, chapters, numbersResolved: numbers.size };
}
