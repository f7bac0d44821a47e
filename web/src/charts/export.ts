// Taking results away (issue 11, point 6): a chart as an SVG or PNG file, any text as a download. The SVG gets back
// the style rules Plot wrote for it (moved to the page's stylesheets to satisfy the CSP, charts/plot-css.ts); the
// PNG is that SVG drawn on a canvas at twice the size.
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

/** A chart's SVG as a standalone file: its own markup, the Plot rules, a white background. */
export function svgText(svg: SVGSVGElement): string {
  const copy = svg.cloneNode(true) as SVGSVGElement;
  copy.setAttribute('xmlns', 'http://www.w3.org/2000/svg');
  const style = document.createElementNS('http://www.w3.org/2000/svg', 'style');
  style.textContent = `${placedRules()}\nsvg { background: #fff; font-family: system-ui, sans-serif; }`;
  copy.insertBefore(style, copy.firstChild);
  return new XMLSerializer().serializeToString(copy);
}

export function downloadSvg(svg: SVGSVGElement, name: string): void {
  download(new Blob([svgText(svg)], { type: 'image/svg+xml' }), `${name}.svg`);
}

export async function downloadPng(svg: SVGSVGElement, name: string, scale = 2): Promise<void> {
  const w = svg.viewBox.baseVal?.width || svg.clientWidth || 640;
  const h = svg.viewBox.baseVal?.height || svg.clientHeight || 320;
  const url = URL.createObjectURL(new Blob([svgText(svg)], { type: 'image/svg+xml' }));
  try {
    const img = new Image();
    img.src = url;
    await img.decode();
    const canvas = document.createElement('canvas');
    canvas.width = Math.round(w * scale);
    canvas.height = Math.round(h * scale);
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
