// The browser tests (web/e2e/*.spec.mjs) on @playwright/test, in Debian's Chromium (docs/toolchain.md "Browser
// tests": never a downloaded browser, `npx playwright install` cannot work here), against build/site served by
// `vite preview` on a port of their own. Two projects: `checks` (every check of the explorer, the chapter pages and
// widgets, the profile page) and `performance` (slider-to-paint, time to interactive, site weight, trace read time:
// measured, printed and written to ../build/playwright/figures.json, never a pass/fail on a wall-clock time).
// One worker: two cores, and the performance figures are times. Run `npx vite build` first.
import { defineConfig } from '@playwright/test';

const PORT = Number(process.env.SCALESCOPE_E2E_PORT ?? 4179);

export default defineConfig({
  testDir: 'e2e',
  testMatch: '*.spec.mjs',
  outputDir: '../build/playwright/output',
  globalSetup: './e2e/global-setup.mjs',
  workers: 1,
  fullyParallel: false,
  retries: 0,
  forbidOnly: !!process.env.CI,
  timeout: 240_000,
  reporter: [['list'], ['json', { outputFile: '../build/playwright/results.json' }]],
  use: {
    baseURL: `http://127.0.0.1:${PORT}/`,
    headless: true,
    viewport: { width: 1400, height: 1000 },
    // As playwright-core's defaults were for the old suites: an action or a navigation gives up after 30 s.
    actionTimeout: 30_000,
    navigationTimeout: 30_000,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--disable-quic',
      ],
    },
  },
  projects: [
    { name: 'checks', testIgnore: /performance\.spec\.mjs$/ },
    { name: 'performance', testMatch: /performance\.spec\.mjs$/ },
  ],
  webServer: {
    // The site as built (vite.config.ts build.outDir: ../build/site), as `npm run preview` serves it.
    command: `npx vite preview --host 127.0.0.1 --port ${PORT} --strictPort`,
    url: `http://127.0.0.1:${PORT}/`,
    reuseExistingServer: false,
    timeout: 60_000,
  },
});
