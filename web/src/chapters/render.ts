// Chapter Markdown -> HTML, at build time (chapters/README.md). markdown-it parses; three small rules add what the
// pages need: `$...$` / `$$...$$` typeset by KaTeX into HTML (no math script ships), `{{name}}` replaced by the
// engine's formatted value, and `NN-slug.md` links mapped to the built pages. Code spans and blocks are left alone
// (their text is never scanned for references). Every problem lands in `env.errors`; the build fails on any.
import katex from 'katex';
import MarkdownIt from 'markdown-it';
import type { MarkdownIt as Md, StateBlock, StateCore, StateInline, Token } from 'markdown-it';
import type { ResolvedNumber } from './numbers.ts';

export interface FrontMatter {
  title: string;
  book_chapter_url: string;
  prev: string | null;
  next: string | null;
}

export interface WidgetUse {
  view: string;
  state: string;
  line: number;
  /** Numbers of the text the widget's defaults must show: its card (data-metric) and the reference it equals. */
  reproduces: { metric: string; ref: string }[];
}

export interface RenderEnv {
  /** Source file name for messages (e.g. chapters/01-rooflines.md). */
  file: string;
  /** The page source, to point messages at a line. */
  source: string;
  /** Line of the body's first line in the file (after the front matter). */
  bodyLine: number;
  resolve: (name: string) => ResolvedNumber | undefined;
  /** Slugs of the pages, for `NN-slug.md` links. */
  slugs: ReadonlySet<string>;
  errors: string[];
  refs: Set<string>;
  widgets: WidgetUse[];
}

const REF_RE = /^\{\{([a-z][a-z0-9_]*)\}\}/;
const PAGE_LINK_RE = /^(\d\d-[a-z0-9-]+)\.md(#[A-Za-z0-9_-]*)?$/;
const WIDGET_RE = /<scalescope-widget\b([^>]*)>/g;
const ATTR_RE = /([a-z-]+)="([^"]*)"/g;

export class ChapterError extends Error {}

/** markdown-it passes the render's env through untyped. */
const envOf = (env: unknown): RenderEnv => env as RenderEnv;

/** The line (1-based, in the whole file) where `needle` first appears in the page source. */
function lineOf(env: RenderEnv, needle: string): string {
  const i = env.source.indexOf(needle);
  if (i < 0) return env.file;
  return `${env.file}:${env.source.slice(0, i).split('\n').length}`;
}

export function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

// ------------------------------------------------------------------------------------------------ front matter

/** The YAML subset the pages use: `key: value` lines, values a "quoted string", null, or bare text (# comments). */
export function parseFrontMatter(text: string, file: string): { fm: FrontMatter; body: string; bodyLine: number } {
  const lines = text.split('\n');
  if (lines[0]?.trim() !== '---')
    throw new ChapterError(`${file}:1: a chapter starts with front matter between --- lines`);
  const end = lines.indexOf('---', 1);
  if (end < 0) throw new ChapterError(`${file}: the front matter has no closing --- line`);
  const values: Record<string, string | null> = {};
  for (let i = 1; i < end; i++) {
    const line = lines[i] ?? '';
    if (line.trim() === '' || line.trim().startsWith('#')) continue;
    const m = /^([a-z_]+):\s*(.*)$/.exec(line);
    if (!m) throw new ChapterError(`${file}:${i + 1}: expected "key: value" in the front matter`);
    let raw = (m[2] ?? '').trim();
    if (raw.startsWith('"')) {
      try {
        values[m[1]!] = JSON.parse(raw) as string;
      } catch {
        throw new ChapterError(`${file}:${i + 1}: a quoted value must be one double-quoted string`);
      }
      continue;
    }
    raw = raw.replace(/\s+#.*$/, '');
    values[m[1]!] = raw === 'null' || raw === '~' || raw === '' ? null : raw;
  }
  const need = (k: keyof FrontMatter): string => {
    const v = values[k];
    if (typeof v !== 'string' || v === '') throw new ChapterError(`${file}: front matter needs "${k}"`);
    return v;
  };
  for (const k of ['prev', 'next'])
    if (!(k in values)) throw new ChapterError(`${file}: front matter needs "${k}" (a slug or null)`);
  const fm: FrontMatter = {
    title: need('title'),
    book_chapter_url: need('book_chapter_url'),
    prev: values['prev'] ?? null,
    next: values['next'] ?? null,
  };
  if (!/^https:\/\//.test(fm.book_chapter_url))
    throw new ChapterError(`${file}: book_chapter_url must be an https:// address`);
  return { fm, body: lines.slice(end + 1).join('\n'), bodyLine: end + 2 };
}

// ------------------------------------------------------------------------------------------------ markdown rules

function typeset(tex: string, displayMode: boolean, env: RenderEnv): string {
  try {
    return katex.renderToString(tex, { displayMode, throwOnError: true, strict: 'ignore', output: 'htmlAndMathml' });
  } catch (e) {
    env.errors.push(
      `${lineOf(env, tex.trim().slice(0, 40))}: KaTeX cannot typeset ${JSON.stringify(tex.trim().slice(0, 60))}: ${e instanceof Error ? e.message : String(e)}`,
    );
    return `<code class="tex-error">${escapeHtml(tex)}</code>`;
  }
}

const isSpace = (c: number): boolean => c === 0x20 || c === 0x09 || c === 0x0a;

/** `$...$` inline (no space inside either dollar, closing dollar not before a digit); `$$...$$` inside a line. */
function mathInline(state: StateInline, silent: boolean): boolean {
  const src = state.src;
  const start = state.pos;
  if (src.charCodeAt(start) !== 0x24) return false;
  const display = src.charCodeAt(start + 1) === 0x24;
  const open = display ? 2 : 1;
  if (start + open >= state.posMax || isSpace(src.charCodeAt(start + open))) return false;
  let end = start + open;
  for (;;) {
    end = src.indexOf(display ? '$$' : '$', end);
    if (end < 0 || end >= state.posMax) return false;
    const escaped = src.charCodeAt(end - 1) === 0x5c;
    const after = src.charCodeAt(end + open);
    if (!escaped && !isSpace(src.charCodeAt(end - 1)) && (display || !(after >= 0x30 && after <= 0x39))) break;
    end += 1;
  }
  if (!silent) {
    const t = state.push('math_inline', 'math', 0);
    t.content = src.slice(start + open, end);
    t.markup = display ? '$$' : '$';
  }
  state.pos = end + open;
  return true;
}

/** `$$` at the start of a line, up to the line that ends with `$$` (no blank line inside). */
function mathBlock(state: StateBlock, startLine: number, endLine: number, silent: boolean): boolean {
  if (state.sCount[startLine]! - state.blkIndent >= 4) return false;
  const lineText = (l: number): string => state.src.slice(state.bMarks[l]! + state.tShift[l]!, state.eMarks[l]);
  const first = lineText(startLine);
  if (!first.startsWith('$$')) return false;
  const rest = first.slice(2);
  const close = rest.indexOf('$$');
  let content: string;
  let last = startLine;
  if (close >= 0) {
    if (rest.slice(close + 2).trim() !== '') return false; // text after the formula: leave it to the paragraph
    content = rest.slice(0, close);
  } else {
    const parts = [rest];
    let found = false;
    for (let l = startLine + 1; l < endLine; l++) {
      const t = lineText(l);
      if (t.trim() === '') break;
      const c = t.indexOf('$$');
      if (c >= 0) {
        if (t.slice(c + 2).trim() !== '') return false;
        parts.push(t.slice(0, c));
        last = l;
        found = true;
        break;
      }
      parts.push(t);
    }
    if (!found) return false;
    content = parts.join('\n');
  }
  if (silent) return true;
  state.line = last + 1;
  const t = state.push('math_block', 'math', 0);
  t.block = true;
  t.content = content;
  t.markup = '$$';
  t.map = [startLine, state.line];
  return true;
}

/** `{{name}}`: an engine number. Anything else starting with `{{` is a malformed reference. */
function reference(state: StateInline, silent: boolean): boolean {
  const src = state.src;
  if (src.charCodeAt(state.pos) !== 0x7b || src.charCodeAt(state.pos + 1) !== 0x7b) return false;
  const m = REF_RE.exec(src.slice(state.pos, state.posMax));
  if (!m) {
    if (!silent) {
      const env = envOf(state.env);
      const snippet = src.slice(state.pos, state.pos + 30).split('\n')[0] ?? '';
      env.errors.push(
        `${lineOf(env, snippet)}: malformed reference ${JSON.stringify(snippet)}: write {{name}} with a name from chapters/numbers.json`,
      );
    }
    return false;
  }
  if (!silent) {
    const t = state.push('scalescope_ref', '', 0);
    t.meta = { name: m[1] };
  }
  state.pos += m[0].length;
  return true;
}

function renderRef(env: RenderEnv, name: string): string {
  const n = env.resolve(name);
  env.refs.add(name);
  if (!n) {
    env.errors.push(
      `${lineOf(env, `{{${name}}}`)}: unknown reference {{${name}}} (not defined in chapters/numbers.json)`,
    );
    return escapeHtml(`{{${name}}}`);
  }
  const book = `<span class="num" data-ref="${name}" title="${escapeHtml(`${name}: ${n.value} (engine, the book's model, ${n.path})`)}">${escapeHtml(n.text)}</span>`;
  const c = n.calibrated;
  if (!c) return book;
  const title = `the engine's calibrated estimate of the same plan (profile ${c.profile}; ${c.band})`;
  return `${book} <span class="num-cal" data-ref-calibrated="${name}" data-value="${c.value}" title="${escapeHtml(title)}">(calibrated ≈ ${escapeHtml(c.text)})</span>`;
}

/** References inside raw HTML blocks (e.g. a <summary> line) are replaced too; widgets are recorded. */
function htmlBlocks(state: StateCore): void {
  const env = envOf(state.env);
  const visit = (tokens: Token[]): void => {
    for (const t of tokens) {
      if (t.type === 'html_block' || t.type === 'html_inline') {
        t.content = t.content.replace(/\{\{([a-z][a-z0-9_]*)\}\}/g, (_, name: string) => renderRef(env, name));
        for (const m of t.content.matchAll(WIDGET_RE)) {
          const attrs: Record<string, string> = {};
          for (const a of (m[1] ?? '').matchAll(ATTR_RE)) attrs[a[1]!] = a[2]!;
          const line = t.map ? env.bodyLine + t.map[0] : Number(lineOf(env, m[0]).split(':')[1] ?? 0);
          const reproduces = (attrs['reproduces'] ?? '')
            .split(/\s+/)
            .filter(Boolean)
            .map((pair) => {
              const [metric = '', ref = ''] = pair.split(':');
              if (!metric || !ref || !env.resolve(ref))
                env.errors.push(
                  `${env.file}:${line}: reproduces="${pair}": expected metric:reference with a reference of numbers.json`,
                );
              return { metric, ref };
            });
          env.widgets.push({
            view: attrs['view'] ?? '',
            state: (attrs['state'] ?? '').replace(/&amp;/g, '&'),
            line,
            reproduces,
          });
        }
      }
      if (t.children) visit(t.children);
    }
  };
  visit(state.tokens);
}

function slugify(text: string): string {
  return (
    text
      .toLowerCase()
      .replace(/<[^>]*>/g, '')
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '') || 'section'
  );
}

/** Heading ids for anchors (#the-batch-is-the-intensity), unique per page. */
function headingIds(state: StateCore): void {
  const seen = new Map<string, number>();
  state.tokens.forEach((t, i) => {
    if (t.type !== 'heading_open' || t.tag === 'h1') return;
    const inline = state.tokens[i + 1];
    const text = (inline?.children ?? [])
      .filter((c) => c.type === 'text' || c.type === 'code_inline')
      .map((c) => c.content)
      .join('');
    const base = slugify(text);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    t.attrSet('id', n ? `${base}-${n + 1}` : base);
  });
}

export function createMarkdown(): Md {
  const md = new MarkdownIt({ html: true, linkify: false, typographer: true });
  md.block.ruler.before('fence', 'math_block', mathBlock, { alt: ['paragraph', 'reference', 'blockquote', 'list'] });
  md.inline.ruler.after('escape', 'math_inline', mathInline);
  md.inline.ruler.after('escape', 'scalescope_ref', reference);
  md.core.ruler.push('scalescope_html', htmlBlocks);
  md.core.ruler.push('heading_ids', headingIds);
  md.renderer.rules['math_inline'] = (tokens, idx, _o, env) =>
    typeset(tokens[idx]!.content, tokens[idx]!.markup === '$$', envOf(env));
  md.renderer.rules['math_block'] = (tokens, idx, _o, env) =>
    `<div class="math">${typeset(tokens[idx]!.content, true, envOf(env))}</div>\n`;
  md.renderer.rules['scalescope_ref'] = (tokens, idx, _o, env) =>
    renderRef(envOf(env), (tokens[idx]!.meta as { name: string }).name);
  md.renderer.rules['table_open'] = () => '<div class="table-wrap"><table>\n';
  md.renderer.rules['table_close'] = () => '</table></div>\n';
  const linkOpen = md.renderer.rules['link_open'];
  md.renderer.rules['link_open'] = (tokens, idx, options, rawEnv, self) => {
    const env = envOf(rawEnv);
    const t = tokens[idx]!;
    const href = String(t.attrGet('href') ?? '');
    const m = PAGE_LINK_RE.exec(href);
    if (m) {
      if (!env.slugs.has(m[1]!))
        env.errors.push(`${lineOf(env, href)}: link to ${href}, but there is no chapter ${m[1]}`);
      t.attrSet('href', `${m[1]}.html${m[2] ?? ''}`);
    } else if (/^[a-z0-9-]+\.md(#|$)/i.test(href)) {
      env.errors.push(`${lineOf(env, href)}: link to ${href}, which is not a chapter page (NN-slug.md)`);
    }
    return linkOpen ? linkOpen(tokens, idx, options, rawEnv, self) : self.renderToken(tokens, idx, options);
  };
  return md;
}

/** The article HTML of one page; problems are added to env.errors. */
export function renderBody(md: Md, body: string, env: RenderEnv): string {
  const html = md.render(body, env as unknown as Record<string, unknown>);
  // A widget alone on its line is a paragraph of inline HTML to markdown-it: give it its own block.
  return (
    html
      .replace(/<p>(<scalescope-widget\b[^>]*><\/scalescope-widget>)<\/p>/g, '$1')
      .replace(/<scalescope-widget\b[^>]*>/g, (tag: string) => tag.replace(/&(?!amp;)/g, '&amp;'))
      // A code block wider than the column scrolls; the keyboard must be able to reach it (WCAG 2.1.1).
      .replace(/<pre>/g, '<pre tabindex="0">')
  );
}
