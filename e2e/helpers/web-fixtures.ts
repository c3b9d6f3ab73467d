import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { test as base, expect, type Page } from '@playwright/test';

/**
 * Shared fixtures of the web-app specs. Every test fails on a console.error it did not expect; the browser
 * reports a failed fetch as a console error, so each test names the failures it provokes on purpose.
 */
interface ConsoleGuard {
  /** Allow console errors matching this pattern (matched against "text @ url"). */
  allow: (pattern: RegExp) => void;
}

/** Signed-out visitors get 401 from /api/auth/user on every load: that is "nobody signed in" (spec 4). */
const ALWAYS_ALLOWED = [/status of 401 .*@ .*\/api\/auth\/user$/];

export const test = base.extend<{ consoleGuard: ConsoleGuard }>({
  consoleGuard: [
    async ({ page }, use) => {
      const allowed = [...ALWAYS_ALLOWED];
      const errors: string[] = [];
      page.on('console', (msg) => {
        if (msg.type() === 'error') errors.push(`${msg.text()} @ ${msg.location().url}`);
      });
      page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
      await use({ allow: (pattern) => allowed.push(pattern) });
      expect(errors.filter((e) => !allowed.some((p) => p.test(e)))).toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };

export const PASSWORD = 'correct-horse-42';
export const ADMIN_EMAIL = 'admin@example.test';
export const BYPASS_SECRET = 'e2e-bypass-secret';

let counter = 0;
/** A fresh address per call, so tests never collide on one database. */
export const uniqueEmail = (prefix = 'user'): string =>
  `${prefix}.${Date.now().toString(36)}${(counter++).toString(36)}${Math.random().toString(36).slice(2, 6)}@example.test`;

/** The toast with this title (the visible toast, not Radix's screen-reader copy). */
export const toastWith = (page: Page, title: string) =>
  page.locator('li[data-variant]').filter({ hasText: title });

export const expectToast = async (page: Page, title: string, description?: string) => {
  const toast = toastWith(page, title);
  await expect(toast).toBeVisible();
  if (description) await expect(toast).toContainText(description);
  return toast;
};

/** Registers through the page's own request context, so the session cookie lands in the browser. */
export const registerViaApi = async (page: Page, email = uniqueEmail(), password = PASSWORD) => {
  const res = await page.request.post('/api/auth/register', {
    data: { email, username: email.split('@')[0], password },
  });
  expect(res.status(), await res.text()).toBe(201);
  return { email, password, username: email.split('@')[0] ?? email };
};

export const loginViaApi = async (page: Page, email: string, password = PASSWORD) => {
  const res = await page.request.post('/api/auth/login', { data: { email, password } });
  expect(res.ok(), await res.text()).toBe(true);
};

export const fillLogin = async (page: Page, email: string, password: string) => {
  const form = page.getByRole('form', { name: 'Log in' });
  await form.getByLabel('Email').fill(email);
  await form.getByLabel('Password', { exact: true }).fill(password);
  await form.getByRole('button', { name: 'Log In' }).click();
};

const dataDir = () => process.env.E2E_DATA_DIR ?? '.data-e2e';

interface OutboxMail {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

/** The newest message in the mail outbox addressed to `to` (DATA_DIR/outbox/*.json, one file per mail). */
export const newestMailTo = async (to: string): Promise<OutboxMail | null> => {
  const folder = join(dataDir(), 'outbox');
  const names = (await readdir(folder).catch(() => [] as string[])).filter((n) => n.endsWith('.json'));
  const dated = await Promise.all(
    names.map(async (name) => ({
      path: join(folder, name),
      mtime: (await stat(join(folder, name))).mtimeMs,
    })),
  );
  dated.sort((a, b) => b.mtime - a.mtime);
  for (const { path } of dated) {
    const mail = JSON.parse(await readFile(path, 'utf8')) as OutboxMail;
    const recipients = Array.isArray(mail.to) ? mail.to.join(',') : String(mail.to);
    if (recipients.toLowerCase().includes(to.toLowerCase())) return mail;
  }
  return null;
};

/** Waits for the newest mail to `email` to carry a link to `page` and returns its path and query. */
const mailedLinkFor = async (email: string, page: string): Promise<string> => {
  let link = '';
  const pattern = new RegExp(`https?://\\S*/${page}\\?token=[^\\s"'<>]+`);
  await expect
    .poll(
      async () => {
        const mail = await newestMailTo(email);
        const match = mail?.text.match(pattern);
        link = match ? match[0] : '';
        return link;
      },
      { message: `${page} mail for ${email} in ${dataDir()}/outbox` },
    )
    .not.toBe('');
  const url = new URL(link);
  return `${url.pathname}${url.search}`;
};

/** Waits for the reset mail and returns the path of its link (/reset-password?token=...). */
export const resetLinkFor = (email: string): Promise<string> => mailedLinkFor(email, 'reset-password');

/** Waits for the email-confirmation mail and returns the path of its link (/verify-email?token=...). */
export const confirmationLinkFor = (email: string): Promise<string> => mailedLinkFor(email, 'verify-email');

/** Confirms the signed-in account's address with the mailed link, as its owner would (ADMIN_EMAILS needs it). */
export const confirmEmailViaApi = async (page: Page, email: string) => {
  const token = new URL(await confirmationLinkFor(email), 'http://x').searchParams.get('token');
  const res = await page.request.post('/api/auth/verify-email', { data: { token } });
  expect(res.ok(), await res.text()).toBe(true);
};
