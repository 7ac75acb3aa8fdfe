// The contenders of the benchmark. Each loader returns { run(bytes) } where run answers a small summary
// ({ pages, text, ocr, blank, … }) so the work cannot be optimised away and the answers can be sanity-checked;
// run may be async (pdfjs is). A loader throws `Unavailable` when its contender cannot be loaded (e.g. dist/ not built).
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import path from 'node:path';
import { createRequire } from 'node:module';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// BENCH_ANALYZER=path/to/index.js measures another build of the analyzer (e.g. a previous commit's dist/)
export const DIST_ANALYZER = process.env.BENCH_ANALYZER ? path.resolve(process.env.BENCH_ANALYZER) : path.join(ROOT, 'dist', 'analyzer', 'index.js');
// the floor is not part of the analyzer's API: scripts/build.mjs bundles it on its own, beside that build's analyzer
// (dist/bench/floor.js); builds before that exported floorScan from dist/analyzer/index.js, which is the fallback
export const DIST_FLOOR = path.join(path.dirname(DIST_ANALYZER), '..', 'bench', 'floor.js');
export const ALL_CONTENDERS = ['ours', 'floor', 'pdfjs', 'mupdf', 'ours-lq'];
/**
 * what runs without --only: all of them. ours-lq (the layer-quality score on, paired with the default analysis) costs
 * about twice ours, little beside pdfjs, and its ratio is a target of its own (issue 16), so plain `npm run bench` checks it
 */
export const DEFAULT_CONTENDERS = ['ours', 'floor', 'pdfjs', 'mupdf', 'ours-lq'];

export class Unavailable extends Error {}

async function importAnalyzer() {
  if (!existsSync(DIST_ANALYZER)) throw new Unavailable(`${path.relative(ROOT, DIST_ANALYZER)} not built (run \`npm run build\`)`);
  return import(pathToFileURL(DIST_ANALYZER).href);
}

function routeSummary(pages, routes) {
  const s = { pages, text: 0, ocr: 0, blank: 0, other: 0 };
  for (const r of routes) {
    if (r === 'text' || r === 'ocr' || r === 'blank') s[r]++;
    else s.other++;
  }
  s.needsOcr = s.ocr > 0;
  return s;
}

/** `analyzePdfSync` with `options`, answering the route summary. */
async function analyzerContender(options) {
  const mod = await importAnalyzer();
  if (typeof mod.analyzePdfSync !== 'function') throw new Unavailable('dist/analyzer/index.js does not export analyzePdfSync yet');
  const analyze = mod.analyzePdfSync;
  return {
    run(bytes) {
      const r = analyze(bytes, options);
      const s = { pages: r.pageCount, needsOcr: !!r.needsOcr, ...r.routeCounts };
      if (r.error) s.error = r.error.reason;
      return s;
    },
  };
}

const loaders = {
  async ours() {
    return analyzerContender();
  },

  // The analyzer with the OCR-layer quality score on (issue 16: it may cost at most 20 % more, median per file). It
  // carries its baseline, the analyzer with default options: the child times both alternately on the same bytes, so
  // the ratio is measured in one process (one heap, one JIT state) rather than across two children whose histories
  // differ (a 903-byte blank page measured 0.35 ms in one child and 0.04 ms in another).
  async 'ours-lq'() {
    const lq = await analyzerContender({ layerQuality: true });
    const base = await analyzerContender();
    return { run: lq.run, baseline: base.run };
  },

  async floor() {
    const mod = existsSync(DIST_FLOOR) ? await import(pathToFileURL(DIST_FLOOR).href) : await importAnalyzer();
    if (typeof mod.floorScan !== 'function') throw new Unavailable(`${path.relative(ROOT, DIST_FLOOR)} not built (run \`npm run build\`)`);
    const floorScan = mod.floorScan;
    return {
      run(bytes) {
        const r = floorScan(bytes);
        return { pages: r.pages, contentBytes: r.contentBytes };
      },
    };
  },

  // A straightforward classifier on pdf.js: the operator list of every page, counting text-show and image-paint ops.
  async pdfjs() {
    let pdfjs;
    try {
      pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
    } catch (e) {
      throw new Unavailable(`pdfjs-dist not loadable: ${e.message}`);
    }
    const { OPS, getDocument } = pdfjs;
    const textOps = new Set([OPS.showText, OPS.showSpacedText, OPS.nextLineShowText, OPS.nextLineSetSpacingShowText]);
    const imageOps = new Set(
      [
        'paintImageXObject',
        'paintInlineImageXObject',
        'paintImageMaskXObject',
        'paintImageXObjectRepeat',
        'paintImageMaskXObjectRepeat',
        'paintSolidColorImageMask',
        'paintInlineImageXObjectGroup',
        'paintImageMaskXObjectGroup',
      ]
        .map((n) => OPS[n])
        .filter((v) => v !== undefined),
    );
    // CMaps and the wasm image decoders (JPX, JBIG2) as a real deployment would configure them, so pdf.js does its
    // full work rather than failing early on CJK fonts or JPX images. Standard font data is not needed for op lists.
    const pkgDir = path.dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));
    const dirOpt = (d) => (existsSync(path.join(pkgDir, d)) ? path.join(pkgDir, d) + path.sep : undefined);
    const cMapUrl = dirOpt('cmaps');
    const wasmUrl = dirOpt('wasm');
    return {
      async run(bytes) {
        const task = getDocument({
          data: bytes.slice(), // pdf.js transfers (detaches) the buffer it is given
          isEvalSupported: false,
          disableFontFace: true,
          useSystemFonts: false,
          verbosity: 0,
          ...(cMapUrl ? { cMapUrl, cMapPacked: true } : {}),
          ...(wasmUrl ? { wasmUrl } : {}),
        });
        try {
          const doc = await task.promise;
          const routes = [];
          for (let i = 1; i <= doc.numPages; i++) {
            const page = await doc.getPage(i);
            const { fnArray } = await page.getOperatorList();
            let t = 0;
            let im = 0;
            for (let k = 0; k < fnArray.length; k++) {
              const fn = fnArray[k];
              if (textOps.has(fn)) t++;
              else if (imageOps.has(fn)) im++;
            }
            routes.push(t > 0 ? 'text' : im > 0 ? 'ocr' : 'blank');
            page.cleanup();
          }
          return routeSummary(doc.numPages, routes);
        } finally {
          await task.destroy();
        }
      },
    };
  },

  // MuPDF.js: structured text of every page with image blocks, counting characters and images.
  async mupdf() {
    let mupdf;
    try {
      mupdf = await import('mupdf');
    } catch (e) {
      throw new Unavailable(`mupdf not loadable: ${e.message}`);
    }
    return {
      run(bytes) {
        const doc = mupdf.Document.openDocument(bytes, 'application/pdf');
        try {
          const n = doc.countPages();
          const routes = [];
          for (let i = 0; i < n; i++) {
            const page = doc.loadPage(i);
            let stext;
            try {
              stext = page.toStructuredText('preserve-images');
              let chars = 0;
              let images = 0;
              stext.walk({
                onChar(c) {
                  if (c.trim() !== '') chars++;
                },
                onImageBlock() {
                  images++;
                },
              });
              routes.push(chars > 0 ? 'text' : images > 0 ? 'ocr' : 'blank');
            } finally {
              stext?.destroy();
              page.destroy();
            }
          }
          return routeSummary(n, routes);
        } finally {
          doc.destroy();
        }
      },
    };
  },
};

/** Loads a contender; throws Unavailable (skip it) or another error (a harness bug). */
export async function loadContender(name) {
  const load = loaders[name];
  if (!load) throw new Error(`unknown contender ${name}; known: ${ALL_CONTENDERS.join(', ')}`);
  return load();
}
