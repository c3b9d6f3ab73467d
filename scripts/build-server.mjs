// Bundles the server into dist/server/main.js (npm packages stay external) and copies the SQL migrations
// beside it, so `node dist/server/main.js` runs without TypeScript tooling, with production dependencies only
// (`npm ci --omit=dev`; tests/built-server.test.ts proves it). An optional argument names another output
// folder (the test builds into a temporary one).
import fs from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

const outdir = process.argv[2] ?? 'dist/server';

await build({
  entryPoints: [
    'src/server/main.ts',
    'src/server/cli/admin.ts',
    'src/server/cli/migrate.ts',
    'src/server/cli/billing-cycle.ts',
  ],
  outdir,
  entryNames: '[name]',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: true,
  logLevel: 'warning',
});
const migrations = path.join(outdir, 'migrations');
fs.rmSync(migrations, { recursive: true, force: true });
fs.cpSync('src/server/db/migrations', migrations, { recursive: true });
console.log(`server built: ${path.join(outdir, 'main.js')}`);
