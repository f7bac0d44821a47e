// Point labels that never overlap (issue 41 #17: the serving frontier's labels ran into one another). Each label
// tries a few places around its point, best first, and takes the first that lies inside the plot and clear of every
// point and of every label placed before it; a label with no free place is left out (its point stays, and its
// tooltip still gives the numbers). Greedy in the order given, most important first, so a chart always gets the
// same labels. placeLabels is pure geometry (unit-tested); pointLabels is the Plot mark that draws with it.
import type { RenderFunction } from '@observablehq/plot';
import { measureText } from './export';

/** Where a label sits around its point. */
export type Slot = 'right' | 'left' | 'above' | 'below' | 'above-right' | 'above-left' | 'below-right' | 'below-left';

export interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** A point as drawn (in pixels, or in data units before a chart's scales): labels keep clear of its circle, r pixels. */
export interface Dot {
  x: number;
  y: number;
  r: number;
}

export interface LabelRequest extends Dot {
  /** The label's size in pixels. */
  width: number;
  height: number;
  /** Places to try, best first. */
  slots: readonly Slot[];
  /** Drawn even when no place is free (in its first place inside the plot, or its first): the label the chart is about. */
  required?: boolean;
}

export interface PlacedLabel {
  box: Box;
  /** The text's anchor point and alignment (y is the middle of the line). */
  x: number;
  y: number;
  anchor: 'start' | 'middle' | 'end';
}

const DEFAULT_SLOTS: readonly Slot[] = [
  'right',
  'left',
  'above',
  'below',
  'below-right',
  'above-left',
  'above-right',
  'below-left',
];
/** Space between a point's circle and its label. */
const GAP = 3;

export const intersects = (a: Box, b: Box): boolean => a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;
const inside = (a: Box, frame: Box): boolean =>
  a.x0 >= frame.x0 && a.x1 <= frame.x1 && a.y0 >= frame.y0 && a.y1 <= frame.y1;
const dotBox = (d: Dot): Box => ({ x0: d.x - d.r, y0: d.y - d.r, x1: d.x + d.r, y1: d.y + d.r });

function inSlot(l: LabelRequest, slot: Slot): PlacedLabel {
  const h = slot.endsWith('right') ? 1 : slot.endsWith('left') ? -1 : 0;
  const v = slot.startsWith('above') ? -1 : slot.startsWith('below') ? 1 : 0;
  // Diagonal places sit off the circle's diagonal, so their corner clears it with less room on each axis.
  const clear = (l.r + GAP) * (h && v ? 0.75 : 1);
  const x0 = h > 0 ? l.x + clear : h < 0 ? l.x - clear - l.width : l.x - l.width / 2;
  const y0 = v > 0 ? l.y + clear : v < 0 ? l.y - clear - l.height : l.y - l.height / 2;
  const box = { x0, y0, x1: x0 + l.width, y1: y0 + l.height };
  return {
    box,
    x: h > 0 ? box.x0 : h < 0 ? box.x1 : l.x,
    y: (box.y0 + box.y1) / 2,
    anchor: h > 0 ? 'start' : h < 0 ? 'end' : 'middle',
  };
}

/** Each label's place, or null where it was left out; `dots` are every point drawn (labels keep off all of them). */
export function placeLabels(labels: readonly LabelRequest[], frame: Box, dots: readonly Dot[]): (PlacedLabel | null)[] {
  const taken = dots.map(dotBox);
  return labels.map((l) => {
    const places = l.slots.map((s) => inSlot(l, s));
    const inFrame = places.filter((p) => inside(p.box, frame));
    const place =
      inFrame.find((p) => !taken.some((t) => intersects(p.box, t))) ??
      (l.required ? (inFrame[0] ?? places[0]) : undefined);
    if (!place) return null;
    taken.push(place.box);
    return place;
  });
}

/** A label on a chart, at its point in data units (r 0: a place on a line rather than a point). */
export interface PointLabel extends Dot {
  text: string;
  fill: string;
  fontSize?: number;
  bold?: boolean;
  slots?: readonly Slot[];
  required?: boolean;
}

const SVG = 'http://www.w3.org/2000/svg';
/** The charts' text size (their style's font size). */
const FONT_PX = 11;

/** Where each label goes (null: left out), given the chart's mapping to pixels and the plot's frame. */
export function layoutPointLabels(
  labels: readonly PointLabel[],
  dots: readonly Dot[],
  px: (d: { x: number; y: number }) => { x: number; y: number },
  frame: Box,
  measure: (text: string, px: number, bold: boolean) => number = measureText,
): (PlacedLabel | null)[] {
  const requests = labels.map((l): LabelRequest => {
    const size = l.fontSize ?? FONT_PX;
    return {
      ...px(l),
      r: l.r,
      width: measure(l.text, size, !!l.bold),
      height: size * 1.2,
      slots: l.slots ?? DEFAULT_SLOTS,
      required: l.required,
    };
  });
  return placeLabels(
    requests,
    frame,
    dots.map((d) => ({ ...px(d), r: d.r })),
  );
}

/**
 * A Plot mark that draws `labels` (most important first) where they fit inside the plot, clear of one another and
 * of `dots` (every point drawn, in data units with its radius). It adds nothing to the scales' domains.
 */
export function pointLabels(labels: readonly PointLabel[], dots: readonly Dot[]): RenderFunction {
  return (_index, scales, _values, dim, context) => {
    const px = (d: { x: number; y: number }): { x: number; y: number } => ({
      x: Number(scales.x?.(d.x)),
      y: Number(scales.y?.(d.y)),
    });
    const frame = {
      x0: dim.marginLeft,
      y0: dim.marginTop,
      x1: dim.width - dim.marginRight,
      y1: dim.height - dim.marginBottom,
    };
    const g = context.document.createElementNS(SVG, 'g');
    g.setAttribute('class', 'point-labels');
    layoutPointLabels(labels, dots, px, frame).forEach((p, i) => {
      const l = labels[i]!;
      if (!p) return;
      const t = context.document.createElementNS(SVG, 'text');
      // A white halo keeps the text readable where a line or the grid runs under it.
      const attrs = {
        x: p.x,
        y: p.y,
        dy: '0.32em',
        'text-anchor': p.anchor,
        fill: l.fill,
        'font-size': l.fontSize ?? FONT_PX,
        ...(l.bold ? { 'font-weight': 600 } : {}),
        stroke: '#fff',
        'stroke-width': 3,
        'stroke-linejoin': 'round',
        'paint-order': 'stroke',
      };
      for (const [k, v] of Object.entries(attrs)) t.setAttribute(k, String(v));
      t.textContent = l.text;
      g.appendChild(t);
    });
    return g;
  };
}
