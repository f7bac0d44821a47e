// Observable Plot puts a small <style> element inside each chart it makes. The site's Content-Security-Policy allows
// no inline style elements, so before a chart is placed its style elements are taken out and their rules adopted by
// the shadow root as constructed stylesheets (CSSOM, which the policy does not restrict): the same rules, no
// violation. A chart exported as a file gets its rules back inline (charts/export.ts).
const sheets = new Map<string, CSSStyleSheet>();

/** Plot's style texts of a chart node, removed from it. */
export function takeStyles(node: Element): string[] {
  const out: string[] = [];
  for (const st of [...node.querySelectorAll('style')]) {
    out.push(st.textContent ?? '');
    st.remove();
  }
  return out;
}

/**
 * The root whose stylesheets a chart drawn by `host` joins: its shadow root or the document, or null once `host` is
 * off the page. A chart element can be asked to draw after it was removed (a lazy import or a timer that lands
 * late); a detached element's root node is an element, which has no adoptedStyleSheets, so it must not draw then.
 */
export function chartRoot(host: Node): ShadowRoot | Document | null {
  if (!host.isConnected) return null;
  const root = host.getRootNode();
  return 'adoptedStyleSheets' in root ? (root as ShadowRoot | Document) : null;
}

/**
 * Moves a chart's style rules to `root` (once per distinct rule text) and returns the node, ready to insert. Plot
 * names its mark groups with aria-label, which ARIA allows only on an element with a role: they become groups.
 */
export function placeChart<T extends Element>(node: T, root: ShadowRoot | Document): T {
  for (const g of node.querySelectorAll('g[aria-label]:not([role])')) g.setAttribute('role', 'group');
  for (const text of takeStyles(node)) {
    let sheet = sheets.get(text);
    if (!sheet) {
      sheet = new CSSStyleSheet();
      sheet.replaceSync(text);
      sheets.set(text, sheet);
    }
    if (!root.adoptedStyleSheets.includes(sheet)) root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
  }
  return node;
}

/** Every rule text placed so far (for a standalone SVG file of a chart). */
export function placedRules(): string {
  return [...sheets.keys()].join('\n');
}
