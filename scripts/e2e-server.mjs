// Starts the built app the way `npm start` does, on a fresh data folder, for Playwright's webServer.
// Developer mode is on here (the bypass specs need it); a spec that needs it off starts its own server.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const port = process.env.E2E_PORT ?? '4173';
const dataDir = path.resolve(process.env.E2E_DATA_DIR ?? '.data-e2e');
if (!fs.existsSync('dist/server/main.js') || !fs.existsSync('dist/web/index.html')) {
  console.error('The app is not built: run `npm run build` first (npm test does it for you).');
  process.exit(1);
}
fs.rmSync(dataDir, { recursive: true, force: true });
console.log(`e2e server: DATA_DIR=${dataDir}`);

const child = spawn(process.execPath, ['--enable-source-maps', 'dist/server/main.js'], {
  stdio: 'inherit',
  env: {
    ...process.env,
    NODE_ENV: 'test',
    PORT: port,
    HOST: '127.0.0.1',
    PUBLIC_ORIGIN: `http://127.0.0.1:${port}`,
    DATA_DIR: dataDir,
    DEV_MODE: 'true',
    DEV_BYPASS_SECRET: 'e2e-bypass-secret',
    ADMIN_EMAILS: 'admin@example.test',
    SUPPORT_EMAIL: 'support@example.test',
    AUTH_RATE_LIMIT: '100000',
    // Every spec's page reports its provoked errors from 127.0.0.1.
    CLIENT_ERROR_RATE_LIMIT: '100000',
    LOG_LEVEL: 'warn',
    DATABASE_URL: '',
    SMTP_URL: '',
    STRIPE_SECRET_KEY: '',
    REDIS_URL: '',
  },
});
const stop = () => child.kill('SIGTERM');
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
child.on('exit', (code) => process.exit(code ?? 0));
