import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { brokenWav, silentWav, testWav, textFile } from './helpers/mastering-audio';
import { masterTrack, openMastering, upload, waitForSource } from './helpers/mastering-page';
import { currentUser, signUp } from './helpers/mastering-users';
import { expect, expectToast, test } from './helpers/web-fixtures';

/** Spends every mastering credit and crown behind the page's back (the page still shows the old balance). */
const exhaustCredits = async (page: Page) => {
  for (let i = 0; ; i++) {
    const res = await page.request.post('/api/spend-credit', {
      data: { type: 'mastering', idempotencyKey: `exhaust-${Date.now()}-${i}` },
    });
    if (res.status() === 402) break;
    expect(res.ok(), await res.text()).toBe(true);
  }
};

test('file problems: wrong type, undecodable audio, silence, nothing loaded', async ({ page }) => {
  await signUp(page, 'pro');
  await openMastering(page);
  await page.getByTestId('master-track').click();
  await expectToast(page, 'No Audio Loaded', 'Please upload an audio file first');

  await upload(page, textFile());
  await expectToast(page, 'Invalid file type', 'Please upload a WAV, MP3, OGG, FLAC, AIFF or M4A file');

  await upload(page, brokenWav());
  await expectToast(page, 'Error loading audio', 'Failed to load audio file');
  await expect(page.getByTestId('audio-source')).toHaveAttribute('data-state', 'empty');

  await upload(page, silentWav(3));
  await waitForSource(page);
  await expect(page.getByTestId('original-lufs')).toHaveText('-∞');
  await page.getByTestId('master-track').click();
  await expectToast(page, 'No Audio', 'No audio source available to master');
});

test('?trackId: invalid id, missing track, and a track saved by the mixer', async ({
  page,
  consoleGuard,
}) => {
  consoleGuard.allow(/status of 404/);
  await signUp(page, 'pro');
  await openMastering(page, '?trackId=abc');
  await expectToast(page, 'Error Loading Track', 'Invalid track ID');
  await openMastering(page, '?trackId=0');
  await expectToast(page, 'Error Loading Track', 'Invalid track ID');
  await openMastering(page, '?trackId=987654');
  await expectToast(page, 'Error Loading Track', 'Failed to fetch track: 404 Not Found');

  // The mixer saves its final mix as a track and links here with its id.
  const saved = await page.request.post('/api/tracks', {
    multipart: {
      audio: {
        name: 'final_mix.wav',
        mimeType: 'audio/wav',
        buffer: readFileSync(testWav('mixer-final', 'pop', 6)),
      },
      type: 'mixed',
      name: 'Final Mix',
      duration: '0',
    },
  });
  expect(saved.status(), await saved.text()).toBe(201);
  const { id } = (await saved.json()) as { id: number };
  await openMastering(page, `?trackId=${id}`);
  await expectToast(page, 'Track Loaded', 'Final Mix loaded successfully from mixer');
  await waitForSource(page);
  await expect(page.getByTestId('source-name')).toContainText('Final Mix');
});

test('playback of a preset not mastered yet, and Upload different file clears every result', async ({
  page,
}) => {
  await signUp(page, 'pro');
  await openMastering(page);
  await upload(page, testWav('errors-source', 'acoustic', 8));
  await waitForSource(page);
  await page.getByLabel('Preset').selectOption('clean');
  await masterTrack(page);
  await page.getByLabel('Preset').selectOption('balanced');
  await page.getByRole('button', { name: 'Play mastered' }).click();
  await expectToast(page, 'Playback Error', 'No mastered audio available for Balanced preset');

  await page.getByRole('button', { name: 'Upload different file' }).click();
  await expect(page.getByTestId('audio-source')).toHaveAttribute('data-state', 'empty');
  await expect(page.getByTestId('mastered-card')).toHaveCount(0);
  await expect(page.getByTestId('master-progress')).toHaveCount(0);
});

test('download refusals: no credits left, and a spend refused by the server saves nothing', async ({
  page,
  consoleGuard,
}) => {
  consoleGuard.allow(/status of 402/);
  test.setTimeout(120_000);
  await signUp(page, 'pro');
  await openMastering(page);
  await upload(page, testWav('refusal-source', 'pop', 6));
  await waitForSource(page);
  await masterTrack(page);

  // The server's balance runs out while this page still shows 10 credits: the spend is refused.
  await exhaustCredits(page);
  const downloads: string[] = [];
  page.on('download', (d) => downloads.push(d.suggestedFilename()));
  await page.getByRole('button', { name: 'Download', exact: true }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Download (1 format(s))' }).click();
  await expectToast(
    page,
    'Credit Error',
    'You need mastering credits or crowns to download. Purchase more or upgrade your plan.',
  );
  expect(downloads).toEqual([]);
  expect((await currentUser(page.request)).masteringCredits).toBe(0);

  // With the balance known to be empty, the download is refused before any file is made.
  await page.reload();
  await upload(page, testWav('refusal-source', 'pop', 6));
  await waitForSource(page);
  await masterTrack(page);
  await page.getByRole('button', { name: 'Download', exact: true }).click();
  await expectToast(
    page,
    'No Credits Available',
    'You need mastering credits or crowns to download. Purchase more or upgrade your plan.',
  );
  await expect(page.getByRole('dialog')).toHaveCount(0);
  expect(downloads).toEqual([]);
});

test('a crash of the mastering view shows the error screen', async ({ page, consoleGuard }) => {
  consoleGuard.allow(/Web Audio/);
  await page.addInitScript(() => {
    // A browser without Web Audio: the view cannot work and says so.
    Reflect.deleteProperty(window, 'AudioContext');
  });
  await signUp(page, 'pro');
  await openMastering(page);
  const screen = page.getByTestId('mastering-error');
  await expect(screen.getByRole('heading', { name: 'Mastering Error' })).toBeVisible();
  await expect(screen).toContainText(
    'The mastering process encountered an error. Please refresh the page to try again.',
  );
  await expect(screen).toContainText(
    'This browser does not support Web Audio and Workers, which mastering needs.',
  );
  await expect(screen.getByRole('button', { name: 'Refresh Page' })).toBeVisible();
});
