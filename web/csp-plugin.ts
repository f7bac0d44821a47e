// Vite plugin: every HTML page Vite builds (the explorer, the embed page) gets the site's Content-Security-Policy
// (src/csp.ts), computed from the finished page so inline style blocks are allowed by hash. The chapter pages get
// theirs from the chapters plugin. Not in the dev server: its live reload injects code a strict policy would block.
import type { Plugin } from 'vite';
import { withCsp } from './src/csp.ts';

export function scalescopeCsp(): Plugin {
  return {
    name: 'scalescope-csp',
    apply: 'build',
    transformIndexHtml: { order: 'post', handler: (html) => withCsp(html) },
  };
}
