// Before the browser tests: the site must be built, the screenshot folders exist, and the figures start afresh.
import fs from 'node:fs';
import path from 'node:path';
import { FIGURES, SHOTS, SITE } from './paths.mjs';

export default function globalSetup() {
  for (const page of ['index.html', 'chapters/index.html', 'profile.html'])
    if (!fs.existsSync(path.join(SITE, page))) throw new Error(`${SITE} has no ${page}: run npx vite build first`);
  if (!fs.existsSync('/usr/bin/chromium') && !process.env.CHROMIUM)
    throw new Error('/usr/bin/chromium is missing: apt-get install chromium (scripts/setup.sh does)');
  for (const dir of ['', 'chapters', 'profile']) fs.mkdirSync(path.join(SHOTS, dir), { recursive: true });
  fs.rmSync(FIGURES, { force: true });
}
