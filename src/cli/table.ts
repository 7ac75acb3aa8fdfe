/** Human-readable table output of the CLI. */
import { type FileRecord, pageRanges } from '../analyzer/serialize';
import type { LayerQuality, PageRoute } from '../analyzer/types';
import { causeText, INCOMPLETE_SCORE_MAX, keptIncomplete, layerCause, percent, scanNote } from '../shared/routes';

const ORDER: PageRoute[] = ['ocr', 'review', 'ocr-layer', 'unknown', 'blank', 'text'];

export function formatTable(r: FileRecord, pages: boolean): string {
  const lines: string[] = [];
  const file = escapeName(r.file);
  if (r.error) {
    const n = r.pageCount > 0 ? ` (${r.pageCount} page${r.pageCount === 1 ? '' : 's'} unknown)` : '';
    lines.push(`${file}: can't tell: ${r.error.reason} — ${oneLine(r.error.message)}${n}`);
    return lines.join('\n');
  }
  const counts = ORDER.filter((k) => r.routeCounts[k] > 0)
    .map((k) => `${r.routeCounts[k]} ${k}`)
    .join(' · ');
  const verdict = r.needsOcr ? `needs OCR: pages ${pageRanges(r.ocrPages)}` : 'no OCR needed';
  lines.push(`${file}: ${r.pageCount} page${r.pageCount === 1 ? '' : 's'} — ${verdict} (${counts || 'no pages'})`);
  const enc = r.encryption.encrypted ? `  encrypted ${r.encryption.method ?? ''}` : '';
  const producer = r.metadata.info.Producer ?? r.metadata.xmp['pdf:Producer'];
  if (producer || enc) lines.push(`  ${producer ? `producer: ${oneLine(producer)}` : ''}${enc}`);
  for (const h of r.metadata.hints) lines.push(`  hint: ${oneLine(h.message)}`);
  // the layer column only when the layer was scored (--layer-quality): without it the table is as before
  const scored = r.pages.some((p) => p.layerQuality);
  if (pages) {
    lines.push(`  page  route      visible  invisible  images  coverage  vector  ${scored ? 'layer        ' : ''}reasons`);
    for (const p of r.pages) {
      const q = p.layerQuality;
      const layer = scored ? `${(q ? `${q.score.toFixed(2)}${q.reocr ? ' re-OCR' : ' keep'}` : '-').padEnd(11)}  ` : '';
      lines.push(
        `  ${String(p.page).padStart(4)}  ${p.route.padEnd(9)}  ${String(p.visibleChars).padStart(7)}  ${String(p.invisibleChars).padStart(9)}  ${String(p.imageCount).padStart(6)}  ${p.imageCoverage.toFixed(3).padStart(8)}  ${String(p.vectorOps).padStart(6)}  ${layer}${p.reasons.join(', ')}`,
      );
    }
  } else {
    const notable = r.pages.filter((p) => p.route !== 'text');
    for (const route of ORDER) {
      if (route === 'text') continue;
      const ps = notable.filter((p) => p.route === route).map((p) => p.page);
      if (ps.length) lines.push(`  ${route}: pages ${pageRanges(ps)}`);
    }
  }
  if (scored) {
    const advised = r.pages.filter((p) => p.layerQuality?.reocr);
    const re = advised.map((p) => p.page);
    const kept = r.pages.filter((p) => p.layerQuality && !p.layerQuality.reocr).length;
    lines.push(
      `  layer quality: ${kept} page${kept === 1 ? '' : 's'} to keep, ${re.length} to re-OCR${re.length ? ` (pages ${pageRanges(re)})` : ''}`,
    );
    // why, page by page (the first REOCR_WHY_PAGES): text missing, words wrong, or what else made the advice
    for (const p of advised.slice(0, REOCR_WHY_PAGES)) lines.push(`    page ${p.page}: ${reocrWhy(p.layerQuality!)}`);
    if (advised.length > REOCR_WHY_PAGES) lines.push(`    … and ${advised.length - REOCR_WHY_PAGES} more (--json has every page's signals)`);
    // OCR-layer pages whose scan gave no evidence (not read, or not matched): their advice rests on the words alone, and
    // a layer that lacks half the page's text reads as whole there. Those kept on incomplete evidence (too little text,
    // a language not modelled, a limit) are said apart, with their scan's note: the keep is no confident one (its score
    // at most INCOMPLETE_SCORE_MAX), and the count above would not say so
    const blind = new Map<string, number[]>();
    const incomplete = new Map<string, number[]>();
    for (const p of r.pages) {
      const q = p.layerQuality;
      if (p.route !== 'ocr-layer' || !q) continue;
      const scan = scanNote(q);
      const why = keptIncomplete(q);
      if (why !== undefined) addTo(incomplete, `${oneLine(why)}${scan === undefined ? '' : `; scan: ${oneLine(scan)}`}`, p.page);
      else if (scan !== undefined) addTo(blind, oneLine(scan), p.page);
    }
    grouped(lines, blind, (ps, why) => `judged by the words alone on ${ps}: ${why}`, 'signals.image');
    grouped(
      lines,
      incomplete,
      (ps, why) => `${ps} kept on incomplete evidence (score at most ${INCOMPLETE_SCORE_MAX}): ${why}`,
      'signals.incomplete',
    );
  }
  return lines.join('\n');
}

function addTo(m: Map<string, number[]>, key: string, page: number): void {
  const ps = m.get(key);
  if (ps) ps.push(page);
  else m.set(key, [page]);
}

/** A line per reason ("page 3" / "pages 3–5" and the reason, as `say` puts them), the first BLIND_REASONS of them. */
function grouped(lines: string[], m: Map<string, number[]>, say: (pages: string, why: string) => string, field: string): void {
  for (const [why, ps] of [...m].slice(0, BLIND_REASONS)) lines.push(`    ${say(`page${ps.length === 1 ? '' : 's'} ${pageRanges(ps)}`, why)}`);
  if (m.size > BLIND_REASONS) lines.push(`    … and ${m.size - BLIND_REASONS} more reasons (--json: ${field})`);
}

/** pages to re-OCR whose cause the table spells out */
const REOCR_WHY_PAGES = 10;
/** reasons a scan gave no evidence that the table spells out */
const BLIND_REASONS = 3;

/** Why a layer is advised re-OCR, in words: the parts of its estimate (layerCause), else what else decided it. */
export function reocrWhy(q: LayerQuality): string {
  const said = layerCause(q).map(causeText);
  // an ocr page's layer: its route decided, whatever the estimate says (which follows, as what is known of the error)
  if (q.signals.layerTooSmall === true) said.unshift('too few hidden characters to route as an OCR layer (the page goes to OCR)');
  if (said.length) return said.join('; ');
  const bad = q.signals.badShare;
  if (typeof bad === 'number' && bad > 0) return `characters that do not decode: ${percent(bad)}`;
  const cer = q.signals.estimatedCer;
  return typeof cer === 'number' ? `estimated character error ${percent(cer)}` : 'see the signals (--json)';
}

/**
 * File names may hold any byte but / and NUL: a newline would forge a line of the table, an escape sequence would drive
 * the terminal. Control characters become \n, \t, \r, \xNN or \u{NNNN}. (Backslash is left alone: it is the path separator
 * on Windows.)
 */
export function escapeName(s: string): string {
  return s.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, (c) => {
    if (c === '\n') return '\\n';
    if (c === '\t') return '\\t';
    if (c === '\r') return '\\r';
    const code = c.charCodeAt(0);
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u{${code.toString(16)}}`;
  });
}

/** Metadata is attacker-controlled: keep it on one line and free of terminal control characters. */
function oneLine(s: string): string {
  return s.replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ').slice(0, 200);
}
