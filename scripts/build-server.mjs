// Bundles the server into dist/server/main.js (npm packages stay external) and copies the SQL migrations
// beside it, so `node dist/server/main.js` runs without TypeScript tooling.
import fs from 'node:fs';
import { build } from 'esbuild';

await build({
  entryPoints: [
    'src/server/main.ts',
    'src/server/cli/admin.ts',
    'src/server/cli/migrate.ts',
    'src/server/cli/billing-cycle.ts',
  ],
  outdir: 'dist/server',
  entryNames: '[name]',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: true,
  logLevel: 'warning',
});
fs.rmSync('dist/server/migrations', { recursive: true, force: true });
fs.cpSync('src/server/db/migrations', 'dist/server/migrations', { recursive: true });
console.log('server built: dist/server/main.js');
