/**
 * npm run accuracy [-- --quiet] [--write-baseline] [--filter substring]
 * Runs the analyzer over ../shared/corpus and prints agreement with labels.jsonl, then every disagreement with
 * both sides' evidence.
 */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { CORPUS_DIR, type FileResult, checkFile, corpusPresent, loadLabels } from './accuracy-lib';

const args = process.argv.slice(2);
const quiet = args.includes('--quiet');
const writeBaseline = args.includes('--write-baseline');
const fi = args.indexOf('--filter');
const filter = fi >= 0 ? args[fi + 1] : undefined;

if (!corpusPresent()) {
  console.log(`accuracy: skipped — no corpus at ${CORPUS_DIR}`);
  process.exit(0);
}
const labels = loadLabels().filter((l) => !filter || l.file.includes(filter));
const results: FileResult[] = [];
for (const l of labels) results.push(checkFile(l));

let docs = 0,
  docsOk = 0,
  pages = 0,
  pagesOk = 0;
const confusion = new Map<string, number>();
for (const r of results) {
  docs++;
  if (r.docAgrees) docsOk++;
  for (const [i, lp] of (r.label.pages ?? []).entries()) {
    pages++;
    const ours = r.report.pages[i]?.route ?? 'missing';
    if (ours === lp.route) pagesOk++;
    else confusion.set(`${lp.route} → ${ours}`, (confusion.get(`${lp.route} → ${ours}`) ?? 0) + 1);
  }
}
const pct = (a: number, b: number) => (b ? ((100 * a) / b).toFixed(1) : '100.0');
if (!quiet) {
  for (const r of results) {
    if (r.docAgrees && r.pageDisagreements.length === 0) continue;
    console.log(
      `\n${r.docAgrees ? 'page' : 'DOC '} ${r.file}  label needsOcr=${r.label.needsOcr} ocrPages=[${r.label.ocrPages ?? ''}]  ours needsOcr=${r.report.needsOcr} ocrPages=[${r.report.ocrPages}]${r.report.error ? ` error=${r.report.error.reason}: ${r.report.error.message}` : ''}${r.label.error ? ` labelError=${r.label.error}` : ''}`,
    );
    for (const d of r.pageDisagreements.slice(0, 12)) {
      const l = d.label;
      const o = d.ours;
      console.log(
        `  p${d.page}: label ${l ? `${l.route}/${l.why} vis=${l.visibleChars} inv=${l.invisibleChars} hid=${l.hiddenUnderImage} bad=${l.badChars} cov=${(l.imageCoverage ?? 0).toFixed(3)} img=${l.images} draw=${l.drawings}` : '-'}\n` +
          `       ours  ${o ? `${o.route}/${o.reasons.join('+')} vis=${o.evidence.visibleChars} inv=${o.evidence.invisibleChars} hid=${o.evidence.hiddenUnderImage} bad=${o.evidence.badChars} cov=${o.evidence.imageCoverage.toFixed(3)} img=${o.evidence.imageCount} vec=${o.evidence.vectorOps}` : '-'}`,
      );
    }
    if (r.pageDisagreements.length > 12) console.log(`  … ${r.pageDisagreements.length - 12} more pages`);
  }
}
const slow = [...results].sort((a, b) => b.ms - a.ms).slice(0, 5);
console.log(`\ndocuments: needs-OCR decision and OCR page list agree on ${docsOk}/${docs} (${pct(docsOk, docs)} %)`);
console.log(`pages: route agrees on ${pagesOk}/${pages} (${pct(pagesOk, pages)} %)`);
if (confusion.size)
  console.log(
    'page disagreements (label → ours): ' +
      [...confusion]
        .sort((a, b) => b[1] - a[1])
        .map(([k, v]) => `${k}: ${v}`)
        .join(', '),
  );
console.log('slowest: ' + slow.map((r) => `${r.file} ${r.ms.toFixed(0)} ms`).join(', '));
if (writeBaseline) {
  const agree = results
    .filter((r) => r.docAgrees)
    .map((r) => r.file)
    .sort();
  const path = resolve(import.meta.dirname, '..', 'test', 'accuracy-baseline.json');
  writeFileSync(
    path,
    JSON.stringify(
      {
        note: 'documents whose needs-OCR decision and OCR page list agree with the corpus labels; the ratchet test fails if one stops agreeing. Raise, never lower.',
        documents: agree,
      },
      null,
      1,
    ) + '\n',
  );
  console.log(`baseline written: ${agree.length} documents → ${path}`);
}
