// Taking results away (issue 11, point 6): a chart as an SVG or PNG file, any text as a download. A chart's file
// carries its title and legend (issue 22; laid out by frame.ts) around the plot's own SVG, with the style rules Plot
// wrote for it (moved to the page's stylesheets to satisfy the CSP, charts/plot-css.ts); the PNG is that SVG drawn
// on a canvas at twice the size.
import { framedSvg, type Framed } from './frame';
import type { LegendEntry } from './legend';
import { placedRules } from './plot-css';

export function download(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.rel = 'noopener';
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** What a chart's file says besides the plot: the title as on the page, and the colour keys. */
export interface ChartLabels {
  title: string;
  legend: readonly LegendEntry[];
}

let canvas: HTMLCanvasElement | null = null;

/** Text widths as the browser draws the file's font (the file is laid out for it, and chart labels placed by it). */
export function measureText(text: string, px: number, bold: boolean): number {
  canvas ??= document.createElement('canvas');
  const ctx = canvas.getContext('2d');
  if (!ctx) return text.length * px * 0.6;
  ctx.font = `${bold ? '600 ' : ''}${px}px system-ui, sans-serif`;
  return ctx.measureText(text).width;
}

/** A chart's SVG as a standalone file: the title, the legend, then its own markup with the Plot rules. */
export function chartFile(svg: SVGSVGElement, labels: ChartLabels): Framed {
  const copy = svg.cloneNode(true) as SVGSVGElement;
  copy.setAttribute('xmlns', 'http://www.w3.org/2000/svg');
  const width = svg.viewBox.baseVal?.width || svg.clientWidth || 640;
  const height = svg.viewBox.baseVal?.height || svg.clientHeight || 320;
  const markup = new XMLSerializer().serializeToString(copy);
  return framedSvg({
    title: labels.title,
    legend: labels.legend,
    plot: { markup, width, height },
    css: placedRules(),
    measure: measureText,
  });
}

export function downloadSvg(svg: SVGSVGElement, name: string, labels: ChartLabels): void {
  download(new Blob([chartFile(svg, labels).text], { type: 'image/svg+xml;charset=utf-8' }), `${name}.svg`);
}

export async function downloadPng(svg: SVGSVGElement, name: string, labels: ChartLabels, scale = 2): Promise<void> {
  const file = chartFile(svg, labels);
  const url = URL.createObjectURL(new Blob([file.text], { type: 'image/svg+xml;charset=utf-8' }));
  try {
    const img = new Image();
    img.src = url;
    await img.decode();
    const canvas = document.createElement('canvas');
    canvas.width = Math.round(file.width * scale);
    canvas.height = Math.round(file.height * scale);
    const ctx = canvas.getContext('2d');
    if (!ctx) throw new Error('no 2D canvas');
    ctx.fillStyle = '#fff';
    ctx.fillRect(0, 0, canvas.width, canvas.height);
    ctx.drawImage(img, 0, 0, canvas.width, canvas.height);
    const blob = await new Promise<Blob | null>((res) => canvas.toBlob(res, 'image/png'));
    if (!blob) throw new Error('the browser could not make a PNG');
    download(blob, `${name}.png`);
  } finally {
    URL.revokeObjectURL(url);
  }
}
