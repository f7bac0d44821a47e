// Checks the browser tests share: Content-Security-Policy violations (each page listens from its first script on,
// and the console reports them too) and an accessibility audit with axe-core (WCAG 2.1 A and AA, colour contrast
// included), served to the page from its own origin so the site's strict policy lets it run.
import fs from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const AXE_SOURCE = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
export const AXE_VERSION = JSON.parse(fs.readFileSync(require.resolve('axe-core/package.json'), 'utf8')).version;

/** Every page of the context records CSP violations in window.__cspViolations (read with cspViolations). */
export async function watchCsp(context) {
  await context.addInitScript(() => {
    window.__cspViolations = [];
    document.addEventListener(
      'securitypolicyviolation',
      (e) => {
        window.__cspViolations.push(`${e.violatedDirective}: ${e.blockedURI || e.sample || '(inline)'}`);
      },
      true,
    );
  });
}

export async function cspViolations(page) {
  return page.evaluate(() => window.__cspViolations ?? ['(the CSP listener is not on this page)']);
}

/**
 * Runs axe-core on the page as it is now (open shadow roots included). Returns the violations as one line each:
 * "rule (impact): n× selector — help".
 */
export async function axeViolations(page, { exclude = [] } = {}) {
  const url = new URL('/__test__/axe.min.js', page.url()).href;
  await page.route(url, (route) => route.fulfill({ body: AXE_SOURCE, contentType: 'text/javascript' }));
  await page.addScriptTag({ url });
  const result = await page.evaluate(async (ex) => {
    const r = await window.axe.run(
      { exclude: ex.map((s) => [s]) },
      { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] }, resultTypes: ['violations'] },
    );
    return r.violations.map(
      (v) =>
        `${v.id} (${v.impact}): ${v.nodes.length}× ${v.nodes
          .slice(0, 2)
          .map((n) => n.target.join(' '))
          .join(' | ')} — ${v.help}`,
    );
  }, exclude);
  return result;
}
