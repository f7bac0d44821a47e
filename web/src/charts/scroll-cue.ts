// A box that scrolls sideways shows a soft shadow at each edge that has more content beyond it (issue 41 #19: wide
// formulas and tables on a phone were cut at the right edge with no cue), in CSS alone (no script, no inline style
// for the CSP to refuse). Two covers in the box's own colour scroll with the content (`local`) over two shadows fixed
// at the box's edges (`scroll`): content that fits keeps both shadows covered; scrolled to an end, that end's cover
// hides its shadow. Shared by the explorer's and the widgets' shadow roots and the chapter pages' stylesheet.

/** The rule that gives `selector` (boxes with overflow-x: auto on a background of colour `cover`) the cue. */
export function scrollCueCss(selector: string, cover: string): string {
  return `${selector} {
  background:
    linear-gradient(to right, ${cover} 30%, transparent) left center / 40px 100% no-repeat local,
    linear-gradient(to left, ${cover} 30%, transparent) right center / 40px 100% no-repeat local,
    linear-gradient(to right, #0000004d, transparent) left center / 14px 100% no-repeat scroll,
    linear-gradient(to left, #0000004d, transparent) right center / 14px 100% no-repeat scroll ${cover};
}
`;
}
