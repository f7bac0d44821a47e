// Points on a log-x chart that would sit on top of one another (the compute-bound matmuls all lie on the flat roof,
// often within a few pixels on a phone: issue 22) are lifted in steps, one level per overlap; the table under the
// chart keeps their exact numbers.

/** Each point's level (0: where it is; n: lifted n steps), given its x in data units on a log axis. */
export function stackLevels(
  xs: readonly number[],
  domain: readonly [number, number],
  plotWidthPx: number,
  minGapPx: number,
): number[] {
  const decades = Math.log10(domain[1] / domain[0]);
  const pxOf = (x: number): number => (decades > 0 ? (Math.log10(x / domain[0]) / decades) * plotWidthPx : 0);
  const order = xs.map((x, i) => ({ px: pxOf(x), i })).sort((a, b) => a.px - b.px);
  const lastPxAtLevel: number[] = [];
  const levels = new Array<number>(xs.length).fill(0);
  for (const { px, i } of order) {
    let level = 0;
    while (lastPxAtLevel[level] !== undefined && px - lastPxAtLevel[level]! < minGapPx) level++;
    lastPxAtLevel[level] = px;
    levels[i] = level;
  }
  return levels;
}
