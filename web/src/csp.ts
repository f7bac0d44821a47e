// The site's Content-Security-Policy (issue 12), one <meta http-equiv> per page, as strict as a static site with a
// wasm engine allows: scripts only from the site (plus 'wasm-unsafe-eval' to compile the engine), no eval, no inline
// scripts; styles from the site's files and Lit's constructed stylesheets, inline style blocks and attributes only
// by hash (the KaTeX markup of the chapter pages carries style attributes: each distinct one is hashed); workers,
// fetches, fonts and images from the site (images also data: and blob:, for the favicon and the PNG export).
// `frame-ancestors` cannot be set from a meta element; a host that wants it sends it as a header.
import { createHash } from 'node:crypto';

const hash = (text: string): string => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/** Distinct texts of inline <style> blocks and of style="" attributes in a page (attribute entities decoded). */
function inlineStyles(page: string): { blocks: string[]; attrs: string[] } {
  const blocks = [...page.matchAll(/<style\b[^>]*>([\s\S]*?)<\/style>/gi)].map((m) => m[1]!);
  const decode = (s: string): string =>
    s
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&amp;/g, '&');
  const attrs = [...page.matchAll(/\sstyle="([^"]*)"/gi)].map((m) => decode(m[1]!));
  return { blocks: [...new Set(blocks)], attrs: [...new Set(attrs)] };
}

export function contentSecurityPolicy(page: string): string {
  const { blocks, attrs } = inlineStyles(page);
  const elem = ["'self'", ...blocks.map(hash)].join(' ');
  return [
    "default-src 'none'",
    "script-src 'self' 'wasm-unsafe-eval'",
    "worker-src 'self'",
    "connect-src 'self'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    `style-src ${elem}`,
    `style-src-elem ${elem}`,
    attrs.length ? `style-src-attr 'unsafe-hashes' ${attrs.map(hash).join(' ')}` : "style-src-attr 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "object-src 'none'",
  ].join('; ');
}

/** The page with its policy right after <meta charset> (which must stay in the first 1024 bytes), before anything it governs. */
export function withCsp(page: string): string {
  const meta = `<meta http-equiv="Content-Security-Policy" content="${contentSecurityPolicy(page).replace(/"/g, '&quot;')}">`;
  const charset = /<meta charset="?utf-8"?\s*\/?>/i.exec(page);
  if (charset)
    return (
      page.slice(0, charset.index + charset[0].length) + `\n${meta}` + page.slice(charset.index + charset[0].length)
    );
  return page.replace(/<head>/i, `<head>\n${meta}`);
}
