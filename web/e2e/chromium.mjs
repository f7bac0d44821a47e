// Shared helpers for browser tests: Debian's Chromium through playwright-core (docs/toolchain.md "Browser tests"; never
// a downloaded browser), a fresh profile per run, a check counter that prints "<name>: N passed, M failed", and a
// console-error collector.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
export const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
];

/** A persistent context in a fresh profile; close() also removes the profile. */
export async function launch({ viewport = { width: 1280, height: 900 } } = {}) {
  if (!fs.existsSync(CHROMIUM))
    throw new Error(`${CHROMIUM} is missing: apt-get install chromium (scripts/setup.sh does)`);
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'scalescope-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: FLAGS,
    viewport,
  });
  return {
    context,
    async close() {
      await context.close();
      fs.rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Counts checks; `step` turns an exception into one failed check instead of ending the run. */
export function checker(suite) {
  const failures = [];
  const c = {
    passed: 0,
    failed: 0,
    check(name, ok, detail = '') {
      if (ok) {
        c.passed++;
        console.log(`  ok   ${name}`);
      } else {
        c.failed++;
        failures.push(`${name}${detail ? ': ' + detail : ''}`);
        console.log(`  FAIL ${name}${detail ? ': ' + detail : ''}`);
      }
    },
    async step(name, fn) {
      try {
        await fn();
      } catch (e) {
        c.check(name, false, e instanceof Error ? e.message.split('\n')[0] : String(e));
      }
    },
    /** Prints the closing line; returns the process exit code. */
    finish() {
      if (failures.length) console.log('\nfailures:\n  ' + failures.join('\n  '));
      console.log(`${suite}: ${c.passed} passed, ${c.failed} failed`);
      return c.failed ? 1 : 0;
    },
  };
  return c;
}

/** Collects console errors and page errors of a page into `into` (prefixed with `label`). */
export function collectErrors(page, into, label = '') {
  page.on('console', (m) => {
    if (m.type() === 'error') into.push(`${label}${m.text()}`);
  });
  // The first frames of the stack say where: a message alone cannot be found again from CI's log.
  page.on('pageerror', (e) =>
    into.push(
      `${label}page error: ${e.message}${(e.stack ?? '')
        .split('\n')
        .slice(1, 4)
        .map((l) => ` ${l.trim()}`)
        .join('')}`,
    ),
  );
  page.on('response', (r) => {
    if (r.status() >= 400) into.push(`${label}HTTP ${r.status()} for ${r.url()}`);
  });
}
