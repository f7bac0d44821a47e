// Where the browser tests find the site, the native CLI, and where they write screenshots and figures.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
export const REPO = path.resolve(here, '../..');
export const SITE = path.join(REPO, 'build/site');
export const CLI = process.env.SCALESCOPE_CLI ?? path.join(REPO, 'build/release/scalescope');
export const SHOTS = path.join(REPO, 'build/screenshots');
export const FIGURES = path.join(REPO, 'build/playwright/figures.json');
