// The outline of one of Plot's point symbols (d3 symbol objects, as a chart's symbol scale gives them) as SVG path
// data, for a legend swatch that looks like the chart's points. d3 draws a symbol through a canvas-like context;
// this one writes path commands instead.

export interface SymbolLike {
  draw(context: PathContext, size: number): void;
}

export interface PathContext {
  moveTo(x: number, y: number): void;
  lineTo(x: number, y: number): void;
  closePath(): void;
  arc(x: number, y: number, r: number, a0: number, a1: number): void;
  rect(x: number, y: number, w: number, h: number): void;
}

const n = (x: number): string => String(Math.round(x * 100) / 100);

/** The symbol's path centred on 0,0 with area `size` (px²; Plot's dot of radius r has size π r²). */
export function symbolPath(symbol: SymbolLike, size: number): string {
  const d: string[] = [];
  symbol.draw(
    {
      moveTo: (x, y) => d.push(`M${n(x)},${n(y)}`),
      lineTo: (x, y) => d.push(`L${n(x)},${n(y)}`),
      closePath: () => d.push('Z'),
      // d3's symbols use arcs only for whole circles: two half arcs.
      arc: (x, y, r) =>
        d.push(
          `M${n(x + r)},${n(y)}A${n(r)},${n(r)},0,1,1,${n(x - r)},${n(y)}A${n(r)},${n(r)},0,1,1,${n(x + r)},${n(y)}Z`,
        ),
      rect: (x, y, w, h) => d.push(`M${n(x)},${n(y)}h${n(w)}v${n(h)}h${n(-w)}Z`),
    },
    size,
  );
  return d.join('');
}
