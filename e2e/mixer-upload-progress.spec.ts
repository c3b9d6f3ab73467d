import { vocal, writeWav } from './helpers/mixer-audio';
import { expectLoaded, uploadTrack } from './helpers/mixer-page';
import { expect, registerViaApi, test } from './helpers/web-fixtures';

/**
 * Saving an upload box's file to the account on a slow connection (Chromium's own network emulation through
 * CDP): the progress bar moves with the bytes really sent, shows speed and time left, can be cancelled (the
 * server keeps nothing), and Retry sends the same file again without choosing it.
 */
test('upload progress on a throttled connection: bytes, speed, time left, cancel, retry', async ({
  page,
}, testInfo) => {
  test.setTimeout(120_000);
  await registerViaApi(page);
  await page.goto('/mixer');
  const path = await writeWav(testInfo.outputPath('audio'), 'slow-take.wav', vocal(20)); // 1.9 MB (mono 48 kHz)
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  // 200 kB/s up: ~10 s for the file, far above the server's slow-upload floor (2 kB/s).
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 20,
    downloadThroughput: 10_000_000,
    uploadThroughput: 200_000,
  });
  const tracks = async () =>
    ((await (await page.request.get('/api/tracks')).json()) as { tracks: unknown[] }).tracks.length;

  await uploadTrack(page, 'vocals', path);
  await expectLoaded(page, 'vocals');
  const status = page.getByTestId('upload-progress-vocals');
  const bar = status.getByRole('progressbar', { name: 'Upload of the vocals track' });
  await expect(status).toHaveAttribute('data-state', 'uploading');
  // Real progress: the sent bytes grow over time, with speed and time left once measured.
  await expect(page.getByTestId('upload-progress-vocals-text')).toHaveText(
    /^[\d.]+ (B|kB|MB) of 1\.9 MB · [\d.]+ kB\/s · \d+ s left$/,
    { timeout: 10_000 },
  );
  const first = Number(await bar.getAttribute('aria-valuenow'));
  await expect.poll(async () => Number(await bar.getAttribute('aria-valuenow'))).toBeGreaterThan(first + 5);
  const now = Number(await bar.getAttribute('aria-valuenow'));
  expect(now).toBeLessThan(100);
  // The measured speed is the emulated one (200 kB/s), give or take the multipart framing and timing.
  const speed = Number(
    (await page.getByTestId('upload-progress-vocals-text').textContent())?.match(/ · ([\d.]+) kB\/s/)?.[1],
  );
  expect(speed).toBeGreaterThan(120);
  expect(speed).toBeLessThan(260);

  await status.getByRole('button', { name: 'Cancel upload' }).click();
  await expect(status).toHaveAttribute('data-state', 'cancelled');
  await expect(status).toContainText('Upload cancelled');
  expect(await tracks()).toBe(0);

  // Retry on a normal connection: the same file, not chosen again, is saved.
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: -1,
  });
  await status.getByRole('button', { name: 'Retry upload' }).click();
  await expect(status).toHaveAttribute('data-state', 'saved', { timeout: 30_000 });
  await expect.poll(tracks).toBe(1);
});

test('a failed upload shows why and is retried with the same file', async ({
  page,
  consoleGuard,
}, testInfo) => {
  test.setTimeout(90_000);
  await registerViaApi(page);
  await page.goto('/mixer');
  const path = await writeWav(testInfo.outputPath('audio'), 'take.wav', vocal(4));
  let refuse = true;
  await page.route('**/api/tracks', (route) =>
    refuse && route.request().method() === 'POST'
      ? route.fulfill({ status: 503, contentType: 'text/plain', body: 'Storage is busy' })
      : route.continue(),
  );
  consoleGuard.allow(/503/);
  await uploadTrack(page, 'vocals', path);
  await expectLoaded(page, 'vocals');
  const status = page.getByTestId('upload-progress-vocals');
  await expect(status).toHaveAttribute('data-state', 'failed');
  await expect(status).toContainText('Upload failed: Storage is busy');
  refuse = false;
  await status.getByRole('button', { name: 'Retry upload' }).click();
  await expect(status).toHaveAttribute('data-state', 'saved');
  const list = (await (await page.request.get('/api/tracks')).json()) as { tracks: { name: string }[] };
  expect(list.tracks.map((t) => t.name)).toEqual(['take.wav']);
});
