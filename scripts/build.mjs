// Bundles the analyzer (platform-neutral ESM) and the CLI (Node ESM) with esbuild.
import { build } from 'esbuild';
import { chmodSync, mkdirSync } from 'node:fs';

mkdirSync('dist', { recursive: true });
const common = { bundle: true, sourcemap: true, target: 'es2022', logLevel: 'warning', legalComments: 'none' };
await Promise.all([
  build({ ...common, entryPoints: ['src/analyzer/index.ts'], outfile: 'dist/analyzer/index.js', format: 'esm', platform: 'neutral', mainFields: ['module', 'main'] }),
  build({
    ...common,
    entryPoints: ['src/cli/main.ts'],
    outfile: 'dist/cli.js',
    format: 'esm',
    platform: 'node',
    banner: { js: '#!/usr/bin/env node' },
  }),
]);
chmodSync('dist/cli.js', 0o755);
