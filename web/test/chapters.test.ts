// The chapter build: number formats, JSON pointers, references resolved by the real wasm engine, and a build that
// fails (with file and line) on an unknown reference, a rejected scenario, a missing path or a non-finite value.
// Code spans and blocks keep `{{...}}` literally. The real chapters build, and every widget on them is a known
// view whose state decodes without a notice.
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { EngineModule } from '../src/engine/types';
import { formatNumber } from '../src/chapters/format';
import { jsonPointer, resolveNumbers } from '../src/chapters/numbers';
import { ChapterError } from '../src/chapters/render';
import { buildSite, readChapters, type ChapterSource } from '../src/chapters/site';
import { decodeWidgetState } from '../src/widgets/params';
import { VIEW_NAMES } from '../src/widgets/views';
import { decodeState } from '../src/state/url';
import { laidOutScenario } from '../src/state/scenario';
import { askNowOf, loadEngine, REPO } from './engine';

let engine: EngineModule;
beforeAll(async () => {
  engine = await loadEngine();
});

const V5E_CHIP = {
  version: 1,
  hardware: { preset: 'tpu-v5e', overrides: { hbm_bandwidth_bytes_per_s: 8.2e11 } },
  query: { kind: 'chip' },
};
const NUMBERS = {
  t_alpha: { scenario: V5E_CHIP, path: '/result/hbm_critical_intensity_flops_per_byte/bf16', format: 'fixed0' },
  t_peak: { scenario: V5E_CHIP, path: '/result/peak_flops_per_s/bf16', format: 'flops_per_s' },
};

function page(slug: string, body: string, prev: string | null = null, next: string | null = null): ChapterSource {
  const text = `---\ntitle: "Test ${slug}"\nbook_chapter_url: https://jax-ml.github.io/scaling-book/roofline/\nprev: ${prev}\nnext: ${next}\n---\n\n${body}\n`;
  return { slug, file: `chapters/${slug}.md`, text };
}

function build(chapters: ChapterSource[], numbers: unknown = NUMBERS) {
  return buildSite({
    chapters,
    numbersJson: JSON.stringify(numbers),
    evaluate: (s) => engine.evaluate(s),
    engineVersion: 'test',
    widgetsScript: '../widgets.js',
  });
}

function buildError(chapters: ChapterSource[], numbers: unknown = NUMBERS): string {
  try {
    build(chapters, numbers);
  } catch (e) {
    expect(e).toBeInstanceOf(ChapterError);
    return (e as Error).message;
  }
  throw new Error('the build did not fail');
}

describe('number formats (chapters/README.md)', () => {
  it('formats like the table says', () => {
    expect(formatNumber(70553706496, 'int')).toBe('70,553,706,496');
    expect(formatNumber(240.2439, 'fixed0')).toBe('240');
    expect(formatNumber(11.234, 'fixed1')).toBe('11.2');
    expect(formatNumber(-0.0001, 'fixed2')).toBe('0.00');
    expect(formatNumber(0.216, 'percent1')).toBe('21.6%');
    expect(formatNumber(1.3, 'x')).toBe('1.3×');
    expect(formatNumber(0.0010111, 'time')).toBe('1.01 ms');
    expect(formatNumber(96e9, 'bytes')).toBe('96 GB');
    expect(formatNumber(1.97e14, 'flops_per_s')).toBe('197 TFLOP/s');
    expect(formatNumber(8.2e11, 'bytes_per_s')).toBe('820 GB/s');
    expect(formatNumber(6.3e24, 'flops')).toBe('6.3 YFLOPs');
    expect(formatNumber(21937420, 'usd')).toBe('$21.9M');
    expect(formatNumber(4378.1, 'sig3')).toBe('4,380');
  });

  it('reads JSON pointers (RFC 6901) into objects and lists', () => {
    const doc = { result: { a: [{ b: 1 }, { 'c/d': 2, 'e~f': 3 }] } };
    expect(jsonPointer(doc, '/result/a/0/b')).toBe(1);
    expect(jsonPointer(doc, '/result/a/1/c~1d')).toBe(2);
    expect(jsonPointer(doc, '/result/a/1/e~0f')).toBe(3);
    expect(jsonPointer(doc, '/result/a/2/b')).toBeUndefined();
    expect(jsonPointer(doc, '/result/a/01')).toBeUndefined();
    expect(jsonPointer(doc, '/result/nope')).toBeUndefined();
  });
});

describe('references', () => {
  it('resolves with the real engine', () => {
    const r = resolveNumbers(NUMBERS, (s) => engine.evaluate(s));
    expect(r.errors).toEqual([]);
    expect(r.numbers.get('t_alpha')?.text).toBe('240');
    expect(r.numbers.get('t_peak')?.text).toBe('197 TFLOP/s');
  });

  it('reports every bad definition at once: rejected scenario, missing path, not a number, non-finite, unknown format', () => {
    const bad = {
      rejected: {
        scenario: { version: 1, hardware: { preset: 'tpu-v99' }, query: { kind: 'chip' } },
        path: '/result/peak_flops_per_s/bf16',
        format: 'int',
      },
      missing: { scenario: V5E_CHIP, path: '/result/no_such_field', format: 'int' },
      object: { scenario: V5E_CHIP, path: '/result/peak_flops_per_s', format: 'int' },
      format: { scenario: V5E_CHIP, path: '/result/peak_flops_per_s/bf16', format: 'furlongs' },
      root: { scenario: V5E_CHIP, path: 'result/x', format: 'int' },
    };
    const r = resolveNumbers(bad, (s) => engine.evaluate(s));
    expect(r.numbers.size).toBe(0);
    expect(r.errors).toHaveLength(5);
    expect(r.errors.join('\n')).toMatch(/rejected: the engine rejects the scenario \(ok = false\): .*tpu-v99/);
    expect(r.errors.join('\n')).toMatch(/missing: \/result\/no_such_field reaches nothing, not a number/);
    expect(r.errors.join('\n')).toMatch(/object: .* reaches an object, not a number/);
    expect(r.errors.join('\n')).toMatch(/format: unknown format "furlongs"/);
    // JSON has no Infinity, but 1e999 parses to it: the check is on the parsed value.
    const inf = resolveNumbers(
      { big: { scenario: V5E_CHIP, path: '/result/x', format: 'int' } },
      () => '{"ok": true, "result": {"x": 1e999}}',
    );
    expect(inf.errors[0]).toMatch(/big: \/result\/x is not finite/);
  });
});

describe('calibrated companions (issue 8 point 5: the book teaches, the page also says what a cluster measures)', () => {
  // LLaMA-3 70B on a v5p 4x4x4, FSDP x TP, at the book's fidelity as the chapters pin it.
  const V5P_STEP = {
    version: 1,
    hardware: { preset: 'tpu-v5p' },
    model: { preset: 'llama-3-70b' },
    mesh: { shape: [4, 4, 4] },
    query: {
      fidelity: 'book',
      kind: 'training_step',
      batch_tokens: 1048576,
      seq_len: 4096,
      parallelism: { fsdp: ['X', 'Y'], tensor: ['Z'] },
    },
  };
  const defs = {
    step: { scenario: V5P_STEP, path: '/result/time/step_s', format: 'time' },
    mfu: { scenario: V5P_STEP, path: '/result/mfu_frac', format: 'percent1' },
    threshold: { scenario: V5P_STEP, path: '/result/thresholds/0/required', format: 'int' },
  };

  it('gives a headline quantity the calibrated estimate of the same scenario, with its profile and band', () => {
    const r = resolveNumbers(defs, (s) => engine.evaluate(s));
    expect(r.errors).toEqual([]);
    const step = r.numbers.get('step')!;
    const mfu = r.numbers.get('mfu')!;
    // The book's step is the ideal lower bound (docs/api.md training_step: result.ideal); measured runs are slower.
    expect(step.calibrated!.value).toBeGreaterThan(step.value);
    expect(mfu.calibrated!.value).toBeLessThan(mfu.value);
    expect(step.calibrated!.profile).toBe('tpu-v5p');
    expect(step.calibrated!.band).toMatch(/^median \d+%, 90th percentile \d+% over \d+ held-out TPU training runs$/);
    // The engine's own answer at the calibrated fidelity, not a number made up on the page.
    const direct = JSON.parse(
      engine.evaluate(JSON.stringify({ ...V5P_STEP, query: { ...V5P_STEP.query, fidelity: 'calibrated' } })),
    );
    expect(step.calibrated!.value).toBe(direct.result.time.step_s);
    expect(r.numbers.get('threshold')!.calibrated).toBeUndefined();
  });

  it('renders it beside the book number, and fails the build when the calibrated scenario is rejected', () => {
    const site = build([page('01-a', 'One step takes {{step}}.')], defs);
    const html = site.pages.get('01-a.html')!;
    expect(html).toMatch(
      /<span class="num" data-ref="step"[^>]*>[^<]+<\/span> <span class="num-cal" data-ref-calibrated="step"[^>]*title="the engine's calibrated estimate of the same plan \(profile tpu-v5p; median/,
    );
    const book = V5P_STEP.query;
    const evaluate = (s: string) =>
      JSON.parse(s).query.fidelity === 'calibrated'
        ? '{"ok": false, "diagnostics": [{"path": "/query", "message": "no profile"}]}'
        : engine.evaluate(s);
    const r = resolveNumbers(
      { step: { scenario: { ...V5P_STEP, query: book }, path: '/result/time/step_s', format: 'time' } },
      evaluate,
    );
    expect(r.errors.join('\n')).toMatch(
      /step \(calibrated\): the engine rejects the scenario \(ok = false\): \/query: no profile/,
    );
  });
});

describe('chapter build', () => {
  it('renders references, math, links and widgets', () => {
    const site = build([
      page(
        '01-a',
        'Ridge {{t_alpha}} FLOPs/byte; peak {{t_peak}}.\n\n$$C / W$$\n\nInline $x^2$. See [b](02-b.md#sec).\n\n<scalescope-widget view="roofline" state="v=1&hw=tpu-v5e"></scalescope-widget>',
        null,
        '02-b',
      ),
      page(
        '02-b',
        '<details><summary>Ridge {{t_alpha}}?</summary>\n\nYes.\n\n</details>\n\n| a | b |\n|---|---|\n| 1 | 2 |',
        '01-a',
        null,
      ),
    ]);
    const a = site.pages.get('01-a.html')!;
    expect(a).toContain('data-ref="t_alpha"');
    expect(a).toMatch(/>240<\/span> FLOPs\/byte; peak <span[^>]*>197 TFLOP\/s<\/span>/);
    expect(a).toContain('class="katex-display"');
    expect(a).toContain('class="katex"');
    expect(a).toContain('href="02-b.html#sec"');
    expect(a).toContain('<scalescope-widget view="roofline" state="v=1&amp;hw=tpu-v5e">');
    expect(a).toContain('<script type="module" src="../widgets.js"></script>');
    expect(a).toContain('href="https://jax-ml.github.io/scaling-book/roofline/"');
    expect(a).toContain('rel="next" href="02-b.html"');
    const b = site.pages.get('02-b.html')!;
    expect(b).toMatch(/<summary>Ridge <span[^>]*>240<\/span>\?<\/summary>/);
    expect(b).toContain('<div class="table-wrap"><table>');
    expect(site.pages.get('index.html')).toContain('href="01-a.html"');
    expect(site.chapters[0]!.widgets).toEqual([
      { view: 'roofline', state: 'v=1&hw=tpu-v5e', line: expect.any(Number), reproduces: [] },
    ]);
  });

  it('reads which numbers of the text a widget reproduces, and fails on an unknown reference there', () => {
    const ok = build([
      page(
        '01-a',
        'Ridge {{t_alpha}}.\n\n<scalescope-widget view="roofline" state="v=1&hw=tpu-v5e" reproduces="ridge:t_alpha"></scalescope-widget>',
      ),
    ]);
    expect(ok.chapters[0]!.widgets[0]!.reproduces).toEqual([{ metric: 'ridge', ref: 't_alpha' }]);
    const msg = buildError([
      page(
        '01-a',
        'x\n\n<scalescope-widget view="roofline" state="v=1" reproduces="ridge:ch99_nope attainable"></scalescope-widget>',
      ),
    ]);
    expect(msg).toMatch(/reproduces="ridge:ch99_nope": expected metric:reference/);
    expect(msg).toMatch(/reproduces="attainable"/);
  });

  it('leaves {{...}} alone in code spans and code blocks', () => {
    const site = build([
      page(
        '01-a',
        'Write `{{ch01_name}}` to cite.\n\n```json\n{"x": "{{not_a_reference}}"}\n```\n\n    {{indented_code}}\n\nand {{t_alpha}}.',
      ),
    ]);
    const a = site.pages.get('01-a.html')!;
    expect(a).toContain('<code>{{ch01_name}}</code>');
    expect(a).toContain('{{not_a_reference}}');
    expect(a).toContain('{{indented_code}}');
    expect(a).toContain('>240</span>.');
  });

  it('fails on an unknown reference, naming the file, the line and the name', () => {
    const msg = buildError([page('01-bad', 'Fine {{t_alpha}}.\n\nThe ridge is {{ch99_no_such_number}} here.')]);
    expect(msg).toMatch(
      /chapters\/01-bad\.md:10: unknown reference \{\{ch99_no_such_number\}\} \(not defined in chapters\/numbers\.json\)/,
    );
    expect(msg).toMatch(/1 problem/);
  });

  it('fails on a reference whose scenario the engine rejects, a malformed reference, bad TeX and a broken page link', () => {
    const numbers = {
      ...NUMBERS,
      t_bad: {
        scenario: { version: 1, hardware: { preset: 'tpu-v5e' }, query: { kind: 'roofline', flops: -1, bytes: 1 } },
        path: '/result/compute_s',
        format: 'time',
      },
    };
    const msg = buildError(
      [page('01-bad', 'A {{t_bad}}, a {{ spaced }}, math $\\frac{1$ and [x](07-nowhere.md).')],
      numbers,
    );
    expect(msg).toMatch(/t_bad: the engine rejects the scenario/);
    expect(msg).toMatch(/malformed reference "\{\{ spaced \}\}/);
    expect(msg).toMatch(/KaTeX cannot typeset/);
    expect(msg).toMatch(/link to 07-nowhere\.md, but there is no chapter 07-nowhere/);
  });

  it('fails when prev/next do not chain the pages in file order', () => {
    const msg = buildError([page('01-a', 'x', null, '03-c'), page('02-b', 'y', '01-a', null)]);
    expect(msg).toMatch(/01-a\.md: front matter next is "03-c", but the page after it is "02-b"/);
  });
});

describe('the real chapters', () => {
  it('build with every reference resolved, and every widget is a known view with a clean state', () => {
    const dir = path.join(REPO, 'chapters');
    const site = buildSite({
      chapters: readChapters(dir),
      numbersJson: fs.readFileSync(path.join(dir, 'numbers.json'), 'utf8'),
      evaluate: (s) => engine.evaluate(s),
      engineVersion: engine.version(),
      widgetsScript: '../widgets.js',
    });
    expect(site.chapters.length).toBe(12);
    expect(site.pages.has('index.html')).toBe(true);
    const widgets = site.chapters.flatMap((c) => c.widgets.map((w) => ({ ...w, slug: c.slug })));
    expect(widgets.length).toBeGreaterThanOrEqual(15);
    for (const w of widgets) {
      expect(VIEW_NAMES, `${w.slug}:${w.line}`).toContain(w.view);
      expect(decodeWidgetState(w.state).notices, `${w.slug}:${w.line} ${w.state}`).toEqual([]);
    }
    // Where the text quotes a planner's step time, MFU, days or throughput, the calibrated estimate stands beside it.
    for (const slug of ['05-training', '06-applied-training', '07-inference', '08-applied-inference'])
      expect(site.pages.get(`${slug}.html`), slug).toMatch(/class="num-cal" data-ref-calibrated="ch0/);
    // chapters/README.md is documentation, not a page.
    expect(site.pages.has('README.html')).toBe(false);
    // Every widget beside a paragraph with engine numbers says which it reproduces (checked live by e2e/chapters.spec.mjs).
    const without = widgets.filter((w) => w.reproduces.length === 0).map((w) => `${w.slug}:${w.view}`);
    expect(without.sort()).toEqual(['03-sharding:sharded-matmul', '07-inference:serving']);
  });

  it('give every page a Content-Security-Policy with its inline styles hashed', () => {
    const dir = path.join(REPO, 'chapters');
    const site = buildSite({
      chapters: readChapters(dir),
      numbersJson: fs.readFileSync(path.join(dir, 'numbers.json'), 'utf8'),
      evaluate: (s) => engine.evaluate(s),
      engineVersion: engine.version(),
      widgetsScript: '../widgets.js',
      csp: true,
    });
    for (const [name, html] of site.pages) {
      expect(html, name).toMatch(
        /<meta charset="utf-8">\n<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'self' 'wasm-unsafe-eval';/,
      );
      if (html.includes('style="')) expect(html, name).toContain("style-src-attr 'unsafe-hashes' 'sha256-");
    }
  });
});

describe('the chapters’ links to the explorer (issue 39)', () => {
  it('each lands on a state that decodes whole, runs, and raises no warning', () => {
    const links = readChapters(path.join(REPO, 'chapters')).flatMap((c: ChapterSource) =>
      [...c.text.matchAll(/\]\(\.\.\/index\.html(\?[^)\s]*)\)/g)].map((m) => ({ file: c.file, query: m[1]! })),
    );
    expect(links.length).toBeGreaterThanOrEqual(12);
    const landed = links.map(({ file, query }) => {
      const { state, notices } = decodeState(query);
      const answer = askNowOf(engine)(laidOutScenario(state))!;
      return {
        link: `${file} ${query}`,
        notices,
        ok: answer.ok,
        diagnostics: answer.diagnostics.map((d) => d.message),
      };
    });
    expect(landed.filter((l) => !l.ok || l.notices.length || l.diagnostics.length)).toEqual([]);
  });
});
