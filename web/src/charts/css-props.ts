// `style=${cssProps({left: '10%'})}`: inline styles through the CSSOM only. Lit's own styleMap writes the first
// render as a style attribute, which the site's Content-Security-Policy blocks (style-src-attr); setting properties
// on element.style is not an inline style attribute and is allowed.
import { noChange } from 'lit';
import { Directive, directive, PartType, type AttributePart, type PartInfo } from 'lit/directive.js';

class CssProps extends Directive {
  private previous = new Set<string>();

  constructor(part: PartInfo) {
    super(part);
    if (part.type !== PartType.ATTRIBUTE || part.name !== 'style')
      throw new Error('cssProps goes in a style attribute');
  }

  render(_props: Readonly<Record<string, string>>): typeof noChange {
    return noChange;
  }

  override update(part: AttributePart, [props]: [Readonly<Record<string, string>>]): typeof noChange {
    const style = part.element.style;
    for (const k of this.previous) if (!(k in props)) style.removeProperty(k);
    for (const [k, v] of Object.entries(props)) style.setProperty(k, v);
    this.previous = new Set(Object.keys(props));
    return noChange;
  }
}

export const cssProps = directive(CssProps);
