import { open } from 'node:fs/promises';
import {
  currentUser,
  instrumental,
  subscribeViaLocalCheckout,
  toneAndNoise,
  vocal,
  wavBytes,
  writeWav,
} from './helpers/mixer-audio';
import { createMixdown, expectLoaded, loadAndApply, uploadTrack } from './helpers/mixer-page';
import { expect, expectToast, registerViaApi, test } from './helpers/web-fixtures';

test('signed out: the mixer is dimmed and inert under the log-in banner', async ({ page }) => {
  await page.goto('/mixer');
  const banner = page.getByRole('link', { name: 'Log in to try our mixer for free' });
  await expect(banner).toHaveAttribute('href', '/auth');
  const mixer = page.getByTestId('mixer');
  await expect(mixer).toHaveAttribute('inert', '');
  await expect(mixer).toHaveClass(/opacity-50/);
  // Nothing inside takes a click.
  await expect(
    page.getByTestId('upload-vocals').locator('button').click({ timeout: 1_000 }),
  ).rejects.toThrow();
});

test('upload errors: wrong type by click and by drop, too large, a failed decode clears the track', async ({
  page,
}, testInfo) => {
  await registerViaApi(page);
  await page.goto('/mixer');
  const vocalsInput = page.getByLabel('Vocals Track file');

  await vocalsInput.setInputFiles({
    name: 'notes.txt',
    mimeType: 'text/plain',
    buffer: Buffer.from('la la la'),
  });
  await expectToast(page, 'Invalid file type', 'Please upload a WAV, MP3, OGG, FLAC, AIFF or M4A file');

  const dropZone = page.getByTestId('upload-instrumental').locator('button');
  const drop = async (name: string, type: string, bytes: number[]) => {
    const data = await page.evaluateHandle(
      ({ name, type, bytes }) => {
        const dt = new DataTransfer();
        dt.items.add(new File([new Uint8Array(bytes)], name, { type }));
        return dt;
      },
      { name, type, bytes },
    );
    await dropZone.dispatchEvent('drop', { dataTransfer: data });
  };
  await drop('cover.png', 'image/png', [137, 80, 78, 71]);
  await expectToast(page, 'Invalid file type', 'Please upload a WAV, MP3, OGG, FLAC, AIFF or M4A file');

  // Exactly one byte over 100 MB (a sparse file: nothing is really written).
  const big = testInfo.outputPath('big.wav');
  const handle = await open(big, 'w');
  await handle.truncate(100 * 1024 * 1024 + 1);
  await handle.close();
  await vocalsInput.setInputFiles(big);
  await expectToast(page, 'File too large', 'Please upload an audio file smaller than 100MB');

  // Labelled WAV, but not audio: decoding fails, the track is cleared.
  await vocalsInput.setInputFiles({
    name: 'broken.wav',
    mimeType: 'audio/wav',
    buffer: Buffer.alloc(4096, 7),
  });
  await expectToast(
    page,
    'Vocal Processing Error',
    'Failed to process vocal track. Please try again with a different file.',
  );
  await expect(page.getByTestId('upload-vocals')).toHaveAttribute('data-state', 'empty');

  // A real file dropped onto the instrumental box is processed.
  const small = wavBytes(instrumental(3, 8000, 1));
  await drop('beat.wav', 'audio/wav', [...small]);
  await expectLoaded(page, 'instrumental');
});

test('one track is processed at a time: same type refused, other type queued', async ({ page }, testInfo) => {
  test.setTimeout(180_000);
  // A long file keeps the vocal lane busy long enough to try the others.
  const dir = testInfo.outputPath('audio');
  const longVocal = await writeWav(dir, 'long-vocal.wav', toneAndNoise(480));
  const otherVocal = await writeWav(dir, 'vocal.wav', vocal(4));
  const inst = await writeWav(dir, 'inst.wav', instrumental(5));
  await registerViaApi(page);
  await page.goto('/mixer');

  await uploadTrack(page, 'vocals', longVocal);
  await expectToast(page, 'Processing vocals...', 'Starting processing now - please wait a moment');
  const vocalsBox = page.getByTestId('upload-vocals');
  await expect(vocalsBox).toHaveAttribute('data-state', 'processing');
  await expect(vocalsBox).toContainText('Processing vocals...');
  await expect(vocalsBox).toContainText('You can upload the instrumental track meanwhile.');

  await uploadTrack(page, 'vocals', otherVocal);
  await expectToast(
    page,
    'Processing in progress',
    'Please wait for current vocals track to finish processing',
  );

  await uploadTrack(page, 'instrumental', inst);
  await expectToast(
    page,
    'Processing instrumental...',
    'Your track will be processed after current processing finishes',
  );
  await expect(page.getByTestId('upload-instrumental')).toHaveAttribute('data-state', 'queued');

  await expectLoaded(page, 'vocals', 120_000);
  await expectLoaded(page, 'instrumental');
  await expect(vocalsBox).toContainText('long-vocal.wav');
});

test('mixdown needs both tracks and an applied sequence', async ({ page }, testInfo) => {
  await registerViaApi(page);
  await page.goto('/mixer');
  const create = page.getByRole('button', { name: 'Create Mixdown' });
  await expect(create).toBeDisabled();
  await expect(page.getByTestId('missing-tracks')).toHaveText(
    'Missing tracks: Please upload both vocals and instrumental tracks',
  );
  await expect(page.getByRole('button', { name: 'Apply Sequence' })).toBeDisabled();

  await uploadTrack(page, 'vocals', await writeWav(testInfo.outputPath('audio'), 'v.wav', vocal(3)));
  await expectLoaded(page, 'vocals');
  await expect(create).toBeDisabled();
  await expect(page.getByTestId('missing-tracks')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Apply Sequence' })).toBeDisabled();
});

test('download refused without a subscription, without credits, and when signed out', async ({
  page,
  consoleGuard,
}, testInfo) => {
  test.setTimeout(180_000);
  const dir = testInfo.outputPath('audio');
  await registerViaApi(page);
  await page.goto('/mixer');
  await loadAndApply(
    page,
    await writeWav(dir, 'v.wav', vocal(8)),
    await writeWav(dir, 'i.wav', instrumental(10)),
  );
  await createMixdown(page);
  const download = page.getByTestId('final-mix').getByRole('button', { name: 'Download Mix' });

  // Trial user.
  await download.click();
  await expectToast(page, 'Subscription Required', 'Upgrade to Pro or Unlimited plan to download your mix');
  await expect(page.getByRole('dialog')).toHaveCount(0);

  // Subscriber whose credits are all spent.
  await subscribeViaLocalCheckout(page, 'pro');
  const { mixCredits } = await currentUser(page);
  for (let i = 0; i < mixCredits; i++) {
    const res = await page.request.post('/api/spend-credit', {
      data: { type: 'mix', idempotencyKey: `drain-${i}-${Date.now()}` },
    });
    expect(res.ok()).toBe(true);
  }
  expect(await currentUser(page)).toMatchObject({ mixCredits: 0, crowns: 0 });
  await download.click();
  await expectToast(
    page,
    'No Credits Available',
    'You need mix credits or crowns to download. Purchase more or upgrade your plan.',
  );

  // Signed out meanwhile (another tab): toast, then /auth after 2 s. Leaving the mixer saves a change not
  // yet autosaved (commit 13c0e9b); signed out, the server refuses that save with 401 (the page warns).
  consoleGuard.allow(/status of 401 .*@ .*\/api\/sessions$/);
  expect((await page.request.post('/api/auth/logout')).ok()).toBe(true);
  const clicked = Date.now();
  await download.click();
  await expectToast(page, 'Please Log In First', 'Click here to go to the login page → /auth');
  await expect(page).toHaveURL(/\/auth$/, { timeout: 6_000 });
  expect(Date.now() - clicked).toBeGreaterThanOrEqual(1_900);
});
