/**
 * `npm run screenshots`: every screen at 1280 px and 375 px, saved as screenshots/<screen>-<width>.png.
 * Starts the built app itself (like scripts/e2e-server.mjs) on a fresh data folder with developer mode on,
 * so run `npm run build` first. Uses Debian's Chromium (playwright.config.ts's chromiumLaunch).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from '@playwright/test';
import { totp } from '../e2e/helpers/web-totp';
import { chromiumLaunch } from '../playwright.config';

const PORT = Number(process.env.SCREENSHOT_PORT ?? 4185);
const BASE = `http://127.0.0.1:${PORT}`;
const DATA_DIR = '.data-screenshots';

/** The token of the one email-confirmation link in the outbox (only the admin's is followed). */
async function confirmationToken(): Promise<string> {
  const folder = join(DATA_DIR, 'outbox');
  for (const name of await readdir(folder)) {
    const mail = JSON.parse(await readFile(join(folder, name), 'utf8')) as { to: string; text: string };
    const match = mail.to === 'admin@example.test' && mail.text.match(/\/verify-email\?token=([\w-]+)/);
    if (match) return match[1]!;
  }
  throw new Error('No confirmation mail for admin@example.test in the outbox');
}
const OUT = 'screenshots';
const WIDTHS = [1280, 375];
const SECRET = 'screenshots-bypass-secret';
const PASSWORD = 'screenshots-pass-1';

interface Shot {
  name: string;
  path: string;
  /** Runs after the page is ready, before the picture (open a dialog, show a validation message...). */
  act?: (page: Page) => Promise<void>;
  /** Overlays (menus, dialogs) are pictured as the screen shows them, not as a full-page strip. */
  overlay?: boolean;
}

const OPEN: Shot[] = [
  { name: 'landing', path: '/' },
  { name: 'mixer-signed-out', path: '/mixer' },
  { name: 'mastering-signed-out', path: '/mastering' },
  { name: 'pricing', path: '/pricing' },
  { name: 'auth-login', path: '/auth' },
  {
    name: 'auth-register',
    path: '/auth',
    act: async (page) => page.getByRole('tab', { name: 'Register' }).click(),
  },
  { name: 'forgot-password', path: '/forgot-password' },
  { name: 'reset-password', path: '/reset-password?token=example' },
  { name: 'reset-password-invalid', path: '/reset-password' },
  { name: 'help', path: '/help' },
  { name: 'admin-signed-out', path: '/admin' },
  { name: 'test-checkout', path: '/test-checkout' },
  { name: 'not-found', path: '/no-such-page' },
];

const SIGNED_IN: Shot[] = [
  { name: 'landing-signed-in', path: '/' },
  {
    name: 'account-menu',
    overlay: true,
    path: '/',
    act: async (page) => page.getByRole('button', { name: /^Account menu for/ }).click(),
  },
  { name: 'settings', path: '/settings' },
  {
    name: 'settings-delete-dialog',
    overlay: true,
    path: '/settings',
    act: async (page) => page.getByRole('button', { name: 'Delete my account' }).click(),
  },
  { name: 'checkout', path: '/checkout?plan=unlimited' },
  { name: 'mixer', path: '/mixer' },
  { name: 'mastering', path: '/mastering' },
];

const ADMIN: Shot[] = [{ name: 'admin', path: '/admin' }];
const SUBSCRIBER: Shot[] = [
  { name: 'settings-subscriber', path: '/settings' },
  {
    name: 'change-subscription-dialog',
    overlay: true,
    path: '/settings',
    act: async (page) => page.getByRole('button', { name: 'Change Subscription' }).click(),
  },
  { name: 'buy-crowns', path: '/buy-crowns' },
];
const BYPASS: Shot[] = [{ name: 'buy-crowns-bypass', path: '/buy-crowns' }];

const startServer = async (): Promise<ChildProcess> => {
  if (!existsSync('dist/server/main.js') || !existsSync('dist/web/index.html')) {
    throw new Error('The built app is missing: run `npm run build` first.');
  }
  await rm(DATA_DIR, { recursive: true, force: true });
  const server = spawn(process.execPath, ['dist/server/main.js'], {
    stdio: ['ignore', process.env.SCREENSHOT_VERBOSE ? 'inherit' : 'ignore', 'inherit'],
    env: {
      ...process.env,
      // Developer mode is refused in production, so the app runs as the e2e server runs it.
      NODE_ENV: 'test',
      PORT: String(PORT),
      HOST: '127.0.0.1',
      PUBLIC_ORIGIN: BASE,
      DATA_DIR,
      AUTH_RATE_LIMIT: '100000',
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
      SMTP_URL: '',
      STRIPE_SECRET_KEY: '',
      REDIS_URL: '',
      DEV_MODE: 'true',
      DEV_BYPASS_SECRET: SECRET,
      ADMIN_EMAILS: 'admin@example.test',
    },
  });
  // A fresh PGlite folder takes a while to create on a busy 2-core machine.
  const deadline = Date.now() + 300_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`The server exited with code ${server.exitCode}`);
    // Polling a port that is not open yet; each attempt is a real request.
    const ok = await fetch(`${BASE}/api/health`, { signal: AbortSignal.timeout(5000) }).then(
      (r) => r.ok,
      (e: unknown) => {
        if (process.env.SCREENSHOT_VERBOSE) console.log('health:', e);
        return false;
      },
    );
    if (ok) return server;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  server.kill('SIGTERM');
  throw new Error('The server did not answer /api/health within 300 s');
};

const capture = async (browser: Browser, shots: Shot[], signIn?: (page: Page) => Promise<void>) => {
  for (const width of WIDTHS) {
    const context = await browser.newContext({ baseURL: BASE, viewport: { width, height: 900 } });
    const page = await context.newPage();
    if (signIn) await signIn(page);
    for (const shot of shots) {
      await page.goto(shot.path);
      await page.locator('[data-state="ready"]').first().waitFor();
      if (shot.act) await shot.act(page);
      // Fonts and the act's own rendering settle before the picture.
      await page.evaluate(() => document.fonts.ready);
      const file = join(OUT, `${shot.name}-${width}.png`);
      await page.screenshot({ path: file, fullPage: !shot.overlay, animations: 'disabled' });
      console.log(`saved ${file}`);
    }
    await context.close();
  }
};

const account = (email: string) => async (page: Page) => {
  const res = await page.request.post('/api/auth/register', {
    data: { email, username: email.split('@')[0], password: PASSWORD },
  });
  if (res.status() !== 201) {
    const login = await page.request.post('/api/auth/login', { data: { email, password: PASSWORD } });
    if (!login.ok()) throw new Error(`Could not sign in ${email}: ${login.status()} ${await login.text()}`);
  }
};

const main = async () => {
  await mkdir(OUT, { recursive: true });
  const server = await startServer();
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      server.kill('SIGTERM');
      process.exit(1);
    });
  }
  const browser = await chromium.launch(chromiumLaunch);
  try {
    await capture(browser, OPEN);
    await capture(browser, SIGNED_IN, account('jordan.producer@example.test'));
    let adminSecret = '';
    await capture(browser, ADMIN, async (page) => {
      const data = { email: 'admin@example.test', username: 'admin', password: PASSWORD };
      const res = await page.request.post('/api/auth/register', { data });
      if (res.status() === 201) {
        // ADMIN_EMAILS waits for the address to be confirmed: follow the link the outbox holds.
        await page.request.post('/api/auth/verify-email', { data: { token: await confirmationToken() } });
        // The dashboard needs two-factor authentication: enrol as an authenticator app would.
        adminSecret = (await (await page.request.post('/api/auth/2fa/setup')).json()).secret;
        await page.request.post('/api/auth/2fa/enable', { data: { code: totp(adminSecret) } });
        return;
      }
      // Codes cannot be replayed: the next 30 s step's code (accepted for clock drift) signs in again.
      const otp = totp(adminSecret, Date.now() + 30_000);
      const login = await page.request.post('/api/auth/login', { data: { ...data, otp } });
      if (!login.ok())
        throw new Error(`Could not sign in the admin: ${login.status()} ${await login.text()}`);
    });
    // A Pro subscriber, through the local test provider's hosted checkout and its success test card.
    await capture(browser, SUBSCRIBER, async (page) => {
      await account(`pro.${Date.now()}@example.test`)(page);
      await page.goto('/checkout?plan=pro');
      await page.getByRole('button', { name: 'Subscribe to Pro' }).click();
      const form = page.getByRole('form', { name: 'Card details' });
      await form.getByLabel('Card number').fill('4242 4242 4242 4242');
      await form.getByLabel('Expiry (MM/YY)').fill('12/34');
      await form.getByLabel('CVC').fill('123');
      await form.getByRole('button', { name: /^Pay \$/ }).click();
      await page.waitForURL('**/settings?checkout=success');
    });
    await capture(browser, BYPASS, async (page) => {
      await page.goto(`/?bypass=${SECRET}`);
      await page.getByRole('button', { name: 'Developer Mode (Click to exit)' }).waitFor();
    });
  } finally {
    await browser.close();
    server.kill('SIGTERM');
  }
};

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
