/**
 * The program's version and the analyzer's. There is no hand-kept analyzer version yet, so it is the package version
 * plus a hash of the analyzer's sources: two records with the same analyzerVersion were made by the same analyzer code,
 * which is what a pipeline deduplicating or re-running on upgrade needs. The bundle gets both values at build time
 * (scripts/build.mjs); running from source (tests) computes them the same way.
 */
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

declare const __PKG_VERSION__: string | undefined;
declare const __ANALYZER_VERSION__: string | undefined;

let cached: { pkg: string; analyzer: string } | undefined;

export function versions(): { pkg: string; analyzer: string } {
  if (cached) return cached;
  if (typeof __PKG_VERSION__ === 'string' && typeof __ANALYZER_VERSION__ === 'string')
    return (cached = { pkg: __PKG_VERSION__, analyzer: __ANALYZER_VERSION__ });
  try {
    const root = fileURLToPath(new URL('../../', import.meta.url));
    const pkg = (JSON.parse(readFileSync(root + 'package.json', 'utf8')) as { version: string }).version;
    return (cached = { pkg, analyzer: analyzerVersion(pkg, root + 'src/analyzer') });
  } catch {
    return (cached = { pkg: 'unknown', analyzer: 'unknown' });
  }
}

/**
 * Keep in step with the copy in scripts/build.mjs: sha256 over the .ts files of the analyzer and its subfolders
 * (layerQuality/ holds models and a decoder whose changes change results), by sorted relative path and content.
 */
export function analyzerVersion(pkg: string, dir: string): string {
  const h = createHash('sha256');
  for (const f of analyzerSources(dir)) {
    h.update(f + '\0');
    h.update(readFileSync(`${dir}/${f}`));
    h.update('\0');
  }
  return `${pkg}+${h.digest('hex').slice(0, 10)}`;
}

/** The .ts files below `dir`, as sorted relative paths with forward slashes. */
function analyzerSources(dir: string): string[] {
  return (readdirSync(dir, { recursive: true }) as string[])
    .map((f) => f.split('\\').join('/'))
    .filter((f) => f.endsWith('.ts'))
    .sort();
}
