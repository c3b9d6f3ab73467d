/**
 * Issue 30, the library and item 6 ("Work gets lost"): a paid master downloaded again from the library,
 * byte for byte and without a second charge; the library's list, search, rename, delete and reopen; the
 * mixer and the mastering page keeping their work across navigation; more than one saved session offered.
 * At 1280 px and at 375 px with touch.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { testWav } from './helpers/mastering-audio';
import { masterTrack, openMastering, upload, waitForSource } from './helpers/mastering-page';
import { currentUser, signUp } from './helpers/mastering-users';
import { instrumental, vocal, writeWav } from './helpers/mixer-audio';
import { expectLoaded, uploadTrack } from './helpers/mixer-page';
import { expect, expectToast, test } from './helpers/web-fixtures';

const sha256 = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

const nav = (page: Page, name: string) =>
  page.getByRole('navigation', { name: 'Main' }).first().getByRole('link', { name, exact: true });

const items = (page: Page) => page.getByTestId('library-item');
const item = (page: Page, name: string) => items(page).filter({ has: page.getByRole('heading', { name }) });

/** Saves a session through the API (the mixer's own autosave body) over two uploaded tracks. */
const apiSession = async (page: Page, name: string, vocals: number, beat: number) => {
  const res = await page.request.post('/api/sessions', {
    data: {
      name,
      vocalTrackId: vocals,
      instrumentalTrackId: beat,
      vocalDuration: 6,
      instrumentalDuration: 8,
      clips: {
        vocals: [
          { id: 'vocals-clip', trackType: 'vocals', startTime: 0, endTime: 6, position: 1, selected: false },
        ],
        instrumental: [
          {
            id: 'instrumental-clip',
            trackType: 'instrumental',
            startTime: 0,
            endTime: 8,
            position: 0,
            selected: false,
          },
        ],
      },
      style: 'balanced',
      outputVolume: 70,
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { id: number }).id;
};

const apiUpload = async (page: Page, type: 'vocals' | 'instrumental', path: string, name: string) => {
  const res = await page.request.post('/api/tracks', {
    multipart: {
      type,
      name,
      duration: '0',
      audio: { name: `${name}.wav`, mimeType: 'audio/wav', buffer: readFileSync(path) },
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { id: number }).id;
};

test('a paid master is downloaded again from the library, byte for byte, without a second charge', async ({
  page,
}) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  const user = await signUp(page, 'pro');
  await openMastering(page);
  await upload(page, testWav('library-song', 'pop', 8));
  await waitForSource(page);
  await masterTrack(page);
  await expectToast(page, 'Mastering Complete');

  // Mastering → Settings → Mastering: the track and its master are still there, not an empty drop zone.
  await page.getByRole('button', { name: new RegExp(user.username) }).click();
  await page.getByRole('menuitem', { name: 'Settings' }).click();
  await expect(page).toHaveURL(/\/settings$/);
  await nav(page, 'Mastering').click();
  await expect(page.getByTestId('audio-source')).toHaveAttribute('data-state', 'loaded');
  await expect(page.getByTestId('mastered-card')).toHaveAttribute('data-state', 'mastered');

  await page.getByRole('button', { name: 'Download', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Choose Download Format' });
  await dialog.getByRole('checkbox', { name: /^MP3/ }).check();
  const downloads: import('@playwright/test').Download[] = [];
  page.on('download', (d) => downloads.push(d));
  await dialog.getByRole('button', { name: 'Download (2 format(s))' }).click();
  await expectToast(page, 'Download Started');
  await expect.poll(() => downloads.length).toBe(2);
  const first = await Promise.all(
    downloads.map(async (d) => ({ name: d.suggestedFilename(), hash: sha256((await d.path())!) })),
  );
  const paid = await currentUser(page.request);
  expect(paid.masteringCredits).toBe(user.masteringCredits - 1);

  // The library (from the header) lists the master with how it was made and what it measured.
  await nav(page, 'Library').click();
  await expect(page.getByRole('heading', { name: 'Library', level: 1 })).toBeVisible();
  const master = items(page).filter({ hasText: 'Master' }).first();
  await expect(master).toHaveAttribute('data-kind', 'master', { timeout: 20_000 });
  await expect(master).toContainText('Preset');
  await expect(master).toContainText('LUFS');
  await expect(master).toContainText('Paid for: main in wav, mp3');
  await expect(master).toContainText('Download again without a charge until');
  await page.screenshot({ path: 'screenshots/library-master-1280.png', fullPage: true });

  downloads.length = 0;
  await master.getByRole('button', { name: 'Download again' }).click();
  await expect.poll(() => downloads.length).toBe(2);
  const again = await Promise.all(
    downloads.map(async (d) => ({ name: d.suggestedFilename(), hash: sha256((await d.path())!) })),
  );
  // The same files, bit for bit (the kept files themselves, decision 226).
  const byName = (list: typeof first) => [...list].sort((a, b) => a.name.localeCompare(b.name));
  expect(byName(again)).toEqual(byName(first));
  // No second charge: the balances, which equal the ledger's sums (server tests), did not move.
  const after = await currentUser(page.request);
  expect([after.masteringCredits, after.crowns]).toEqual([paid.masteringCredits, paid.crowns]);
  const list = (await (await page.request.get('/api/library')).json()) as {
    items: { kind: string; files?: unknown[] }[];
  };
  expect(list.items.filter((i) => i.kind === 'master')).toHaveLength(1);
});

for (const phone of [false, true]) {
  test.describe(phone ? '375 px, touch' : '1280 px', () => {
    if (phone) test.use({ viewport: { width: 375, height: 800 }, hasTouch: true, isMobile: true });
    else test.use({ viewport: { width: 1280, height: 900 } });

    test('lists, searches, renames, deletes and reopens in the mixer', async ({
      page,
      consoleGuard,
    }, testInfo) => {
      test.setTimeout(240_000);
      const press = (l: import('@playwright/test').Locator) => (phone ? l.tap() : l.click());
      const dir = testInfo.outputPath('audio');
      await signUp(page, 'pro');
      const vocals = await apiUpload(page, 'vocals', await writeWav(dir, 'take.wav', vocal(6)), 'Lead take');
      const beat = await apiUpload(
        page,
        'instrumental',
        await writeWav(dir, 'beat.wav', instrumental(8)),
        'Night beat',
      );
      const older = await apiSession(page, 'Older session', vocals, beat);
      await apiSession(page, 'Newer session', vocals, beat);

      await page.goto('/library');
      await expect(page.getByTestId('library')).toHaveAttribute('data-state', 'ready');
      await expect(items(page).getByRole('heading')).toHaveText([
        'Newer session',
        'Older session',
        'Night beat',
        'Lead take',
      ]);
      await page.screenshot({ path: `screenshots/library-${phone ? 375 : 1280}.png`, fullPage: true });
      // The page's own content has no serious axe violations (the shared header is web-a11y.spec's).
      const axe = await new AxeBuilder({ page })
        .include('[data-testid="library"]')
        .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
        .analyze();
      expect(
        axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id),
      ).toEqual([]);

      await page.getByRole('searchbox', { name: 'Search your library' }).fill('night');
      await expect(items(page).getByRole('heading')).toHaveText(['Night beat']);
      await page.getByRole('searchbox', { name: 'Search your library' }).fill('');
      await expect(items(page)).toHaveCount(4);

      // Rename.
      await press(item(page, 'Older session').getByRole('button', { name: 'Rename' }));
      await page.getByLabel('New name for Older session').fill('Sunday take');
      await press(page.getByRole('button', { name: 'Save' }));
      await expect(item(page, 'Sunday take')).toBeVisible();

      // An upload a session uses is not deleted (nothing would be left to reopen): 409, said in a toast.
      consoleGuard.allow(/409 \(Conflict\) @ .*\/api\/library\/track\//);
      page.on('dialog', (d) => void d.accept());
      await press(item(page, 'Lead take').getByRole('button', { name: 'Delete' }));
      await expectToast(page, 'Error');
      await expect(item(page, 'Lead take')).toBeVisible();
      // Delete a session.
      await press(item(page, 'Newer session').getByRole('button', { name: 'Delete' }));
      await expect(item(page, 'Newer session')).toHaveCount(0);
      const left = (await (await page.request.get('/api/sessions')).json()) as { sessions: { id: number }[] };
      expect(left.sessions.map((s) => s.id)).toEqual([older]);

      // Reopen the renamed session in the mixer: its tracks load and its clips are laid out.
      await press(item(page, 'Sunday take').getByRole('link', { name: 'Open in Mixer' }));
      await expect(page).toHaveURL(new RegExp(`/mixer\\?session=${older}$`));
      await expectLoaded(page, 'vocals');
      await expectLoaded(page, 'instrumental');
      await expect(page.getByTestId('upload-vocals')).toContainText('Lead take');
      await expect(
        page.getByRole('group', { name: 'Mix styles' }).locator('button[aria-pressed="true"]'),
      ).toContainText('Balanced');
    });
  });
}

test('the mixer keeps its work across navigation and offers more than one saved session', async ({
  page,
}, testInfo) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  const dir = testInfo.outputPath('audio');
  await signUp(page, 'pro');
  await page.goto('/mixer');
  await uploadTrack(page, 'vocals', await writeWav(dir, 'first-take.wav', vocal(6)));
  await expectLoaded(page, 'vocals');
  await uploadTrack(page, 'instrumental', await writeWav(dir, 'first-beat.wav', instrumental(8)));
  await expectLoaded(page, 'instrumental');
  // Mixer → Help → Mixer: the tracks are still there.
  await nav(page, 'Help').click();
  await expect(page).toHaveURL(/\/help$/);
  await nav(page, 'Mixer').click();
  await expectLoaded(page, 'vocals');
  await expectLoaded(page, 'instrumental');
  await expect(page.getByTestId('upload-vocals')).toContainText('first-take.wav');
  await expect
    .poll(
      async () =>
        ((await (await page.request.get('/api/sessions')).json()) as { sessions: unknown[] }).sessions.length,
      {
        timeout: 20_000,
      },
    )
    .toBe(1);

  // A second song in a fresh page load: a second saved session, the first one kept.
  await page.goto('/mixer');
  await expect(page.getByText('Continue where you left off')).toBeVisible();
  await page.getByRole('button', { name: 'Dismiss' }).click();
  await uploadTrack(page, 'vocals', await writeWav(dir, 'second-take.wav', vocal(5)));
  await expectLoaded(page, 'vocals');
  await expect
    .poll(
      async () =>
        ((await (await page.request.get('/api/sessions')).json()) as { sessions: unknown[] }).sessions.length,
      {
        timeout: 20_000,
      },
    )
    .toBe(2);

  await page.goto('/mixer');
  const offer = page.getByRole('region', { name: 'Saved session' });
  await expect(offer).toContainText('Continue where you left off: second-take.wav');
  const others = offer.getByRole('list', { name: 'Other saved sessions' });
  await expect(others).toContainText('first-take.wav + first-beat.wav');
  await others.getByRole('button', { name: /^Restore first-take\.wav/ }).click();
  await expectLoaded(page, 'vocals');
  await expectLoaded(page, 'instrumental');
  await expect(page.getByTestId('upload-vocals')).toContainText('first-take.wav');
});
