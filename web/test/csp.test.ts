// The Content-Security-Policy every page carries: strict, with inline style blocks and attributes allowed by hash only.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { contentSecurityPolicy, withCsp } from '../src/csp';

const sha = (t: string): string => `'sha256-${createHash('sha256').update(t).digest('base64')}'`;

describe('Content-Security-Policy', () => {
  it('allows scripts from the site and wasm, never eval or inline scripts', () => {
    const p = contentSecurityPolicy('<html><head></head><body><script>alert(1)</script></body></html>');
    expect(p).toContain("script-src 'self' 'wasm-unsafe-eval'");
    expect(p).toContain("default-src 'none'");
    expect(p).not.toMatch(/unsafe-inline|'unsafe-eval'/);
    expect(p).toContain("style-src-attr 'none'");
  });

  it('hashes each distinct inline style block and attribute (entities decoded)', () => {
    const page =
      '<style>a{b:c}</style><span style="height:0.5em;"></span><span style="height:0.5em;"></span><i style="content:&quot;x&quot;"></i>';
    const p = contentSecurityPolicy(page);
    expect(p).toContain(`style-src-elem 'self' ${sha('a{b:c}')}`);
    expect(p).toContain(`style-src-attr 'unsafe-hashes' ${sha('height:0.5em;')} ${sha('content:"x"')}`);
  });

  it('goes right after <meta charset>, before anything it governs', () => {
    const out = withCsp(
      '<!doctype html><html><head>\n<meta charset="utf-8">\n<title>x</title><script src="a.js"></script></head></html>',
    );
    expect(out.indexOf('Content-Security-Policy')).toBeGreaterThan(out.indexOf('charset'));
    expect(out.indexOf('Content-Security-Policy')).toBeLessThan(out.indexOf('<title>'));
  });
});
