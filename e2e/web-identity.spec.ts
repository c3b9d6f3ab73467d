import jsQR from 'jsqr';
import {
  confirmationLinkFor,
  expect,
  expectToast,
  fillLogin,
  registerViaApi,
  test,
} from './helpers/web-fixtures';
import { totp } from './helpers/web-totp';

test('Settings shows an unconfirmed address, sends the link again, and the link confirms it', async ({
  page,
}) => {
  const { email } = await registerViaApi(page);
  await page.goto('/settings');
  const status = page.getByRole('definition').filter({ hasText: 'Not confirmed' });
  await expect(status).toBeVisible();
  await page.getByRole('button', { name: 'Send confirmation link' }).click();
  await expectToast(page, 'Confirmation link sent', 'We sent a confirmation link to your email address.');

  await page.goto(await confirmationLinkFor(email));
  await expect(page.getByRole('heading', { name: 'Email address confirmed' })).toBeVisible();
  await page.getByRole('link', { name: 'Go to Settings' }).click();
  await expect(page.getByText('Confirmed', { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Send confirmation link' })).toHaveCount(0);
});

test('signed out, the link asks to log in to its account and then confirms it', async ({
  page,
  consoleGuard,
}) => {
  consoleGuard.allow(/status of 401 .*\/api\/auth\/user/);
  const { email, password } = await registerViaApi(page);
  await page.request.post('/api/auth/logout');
  await page.goto(await confirmationLinkFor(email));
  await expect(page.getByRole('heading', { name: 'Log in to confirm your email address' })).toBeVisible();
  await fillLogin(page, email, password);
  await expect(page.getByRole('heading', { name: 'Email address confirmed' })).toBeVisible();
});

test('a made-up link says so in the page', async ({ page, consoleGuard }) => {
  consoleGuard.allow(/status of 400 .*\/api\/auth\/verify-email$/);
  await registerViaApi(page);
  await page.goto('/verify-email?token=made-up-token');
  await expect(page.getByRole('heading', { name: 'Could not confirm your email address' })).toBeVisible();
  await expect(page.getByText('This email confirmation link is invalid or has expired.')).toBeVisible();
});

test('two-factor set-up shows a QR code that decodes to the otpauth:// key, drawn in the page', async ({
  page,
}) => {
  const external: string[] = [];
  page.on('request', (req) => {
    if (!req.url().startsWith('http://127.0.0.1')) external.push(req.url());
  });
  await registerViaApi(page);
  await page.goto('/settings');
  await page.getByRole('button', { name: 'Set up two-factor authentication' }).click();
  const qr = page.getByRole('img', { name: 'QR code of your two-factor key' });
  await expect(qr).toBeVisible();
  const uri = await page.getByRole('link', { name: 'open it in the app' }).getAttribute('href');
  expect(uri).toMatch(/^otpauth:\/\/totp\//);

  // The browser's own rendering of the SVG, rasterised on a canvas and read by a QR decoder.
  const { width, height, data } = await qr.evaluate(async (svg) => {
    const side = 400;
    const source = new XMLSerializer().serializeToString(svg);
    const img = new Image(side, side);
    img.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(source)}`;
    await img.decode();
    const canvas = document.createElement('canvas');
    canvas.width = side;
    canvas.height = side;
    const context = canvas.getContext('2d')!;
    context.drawImage(img, 0, 0, side, side);
    return { width: side, height: side, data: Array.from(context.getImageData(0, 0, side, side).data) };
  });
  expect(jsQR(Uint8ClampedArray.from(data), width, height)?.data).toBe(uri);
  await page.locator('form[aria-label="Confirm two-factor set-up"]').screenshot({
    path: 'test-results/two-factor-qr.png',
  });

  // The key behind the code turns two-factor on, as an authenticator app that scanned it would.
  const secret = new URL(uri!).searchParams.get('secret')!;
  await page.getByLabel('Authentication code').fill(totp(secret));
  await page.getByRole('button', { name: 'Turn on' }).click();
  await expect(page.getByRole('list', { name: 'Recovery codes' })).toBeVisible();
  expect(external).toEqual([]);
});
