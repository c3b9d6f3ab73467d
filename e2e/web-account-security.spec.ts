import { type APIRequestContext, request as playwrightRequest } from '@playwright/test';
import {
  confirmationLinkFor,
  expect,
  expectToast,
  newestMailTo,
  PASSWORD,
  registerViaApi,
  test,
  uniqueEmail,
} from './helpers/web-fixtures';

const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';
const FIREFOX_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';

/** Another browser signed in to the same account: its own cookie jar and User-Agent. */
const otherDevice = async (baseURL: string, email: string, userAgent: string): Promise<APIRequestContext> => {
  const device = await playwrightRequest.newContext({ baseURL, userAgent });
  const res = await device.post('/api/auth/login', { data: { email, password: PASSWORD } });
  expect(res.ok(), await res.text()).toBe(true);
  return device;
};
const signedIn = async (device: APIRequestContext) => (await device.get('/api/auth/user')).status() === 200;

test('Settings lists the active sessions, signs one out, then signs out everywhere', async ({
  page,
  baseURL,
}) => {
  const { email } = await registerViaApi(page);
  const phone = await otherDevice(baseURL!, email, SAFARI_IPHONE);
  await page.goto('/settings');
  const card = page.getByRole('heading', { name: 'Active sessions' }).locator('..');
  const list = card.getByRole('list', { name: 'Active sessions' });
  await expect(list.getByRole('listitem')).toHaveCount(2);
  const current = list.locator('[data-session="current"]');
  await expect(current).toContainText('This device');
  await expect(current).toContainText('Chrome on Linux');
  await expect(current).toContainText('From 127.0.0.1');
  await expect(current).toContainText('Active now');
  await expect(current.getByRole('button', { name: /^Sign out/ })).toHaveCount(0);
  const iphone = list.getByRole('listitem').filter({ hasText: 'Safari on iPhone' });
  await expect(iphone).toContainText('From 127.0.0.1');
  await expect(card).toContainText('At most 10 at once');

  await iphone.getByRole('button', { name: /^Sign out Safari on iPhone/ }).click();
  await expectToast(page, 'Session signed out', 'That session is signed out.');
  await expect(list.getByRole('listitem')).toHaveCount(1);
  expect(await signedIn(phone)).toBe(false);

  const laptop = await otherDevice(baseURL!, email, FIREFOX_WINDOWS);
  await page.reload();
  await expect(list.getByRole('listitem').filter({ hasText: 'Firefox on Windows' })).toBeVisible();
  await card.getByRole('button', { name: 'Sign out everywhere' }).click();
  const dialog = page.getByRole('dialog', { name: 'Sign out everywhere?' });
  await dialog.getByRole('button', { name: 'Sign out everywhere' }).click();
  await expectToast(page, 'Signed out everywhere', 'You have been signed out on every device.');
  await expect(page).toHaveURL('/auth');
  expect(await signedIn(laptop)).toBe(false);
  expect((await page.request.get('/api/auth/user')).status()).toBe(401);
  await Promise.all([phone.dispose(), laptop.dispose()]);
});

test('the email address changes through a link to the new address, and the old one is told', async ({
  page,
  consoleGuard,
}) => {
  consoleGuard.allow(/status of 400 .*\/api\/auth\/email-change$/);
  const { email } = await registerViaApi(page);
  const newEmail = uniqueEmail('moved');
  await page.goto('/settings');
  const form = page.getByRole('form', { name: 'Change email address' });

  await form.getByLabel('New email address').fill('not an address');
  await form.getByRole('button', { name: 'Change email address' }).click();
  await expect(form.getByText('Please enter a valid email address')).toBeVisible();
  await expect(form.getByText('Enter your current password')).toBeVisible();

  await form.getByLabel('New email address').fill(newEmail);
  await form.getByLabel('Current password', { exact: true }).fill('not my password');
  await form.getByRole('button', { name: 'Change email address' }).click();
  await expectToast(page, 'Could not change your email address', 'Your current password is not correct');

  await form.getByLabel('Current password', { exact: true }).fill(PASSWORD);
  await form.getByRole('button', { name: 'Change email address' }).click();
  const sent = `We sent a confirmation link to ${newEmail}. Your email address changes when you open it, signed in.`;
  await expect(form.getByRole('status')).toHaveText(sent);
  await expect(page.getByRole('heading', { name: 'Account Information' }).locator('..')).toContainText(email);

  await page.goto(await confirmationLinkFor(newEmail));
  await expect(page.getByRole('heading', { name: 'Email address confirmed' })).toBeVisible();
  await expect(page.getByText(`Your email address is now ${newEmail}.`)).toBeVisible();
  await page.getByRole('link', { name: 'Go to Settings' }).click();
  const account = page.getByRole('heading', { name: 'Account Information' }).locator('..');
  await expect(account).toContainText(newEmail);
  await expect(account.getByText('Confirmed', { exact: true })).toBeVisible();

  await expect
    .poll(async () => (await newestMailTo(email))?.subject)
    .toBe('The email address of your Master Your Mix account was changed');
});
