/**
 * Issue 30, item 8: a mixer export's master (it has versions) downloaded as the Main alone in WAV and MP3
 * arrives as two files named as spec 8 names them, 'mastered-{preset}-{timestamp}.wav' and '.mp3', not as
 * a ZIP; one credit is spent. At 1280 px and on a 375 px touch screen.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Download } from '@playwright/test';
import { ffprobe } from './helpers/mastering-audio';
import { masterTrack, waitForSource } from './helpers/mastering-page';
import { currentUser, signUp } from './helpers/mastering-users';
import { createMixdown, loadAndApply } from './helpers/mixer-page';
import { press, WIDTHS } from './helpers/plans';
import { expect, test, toastWith } from './helpers/web-fixtures';

const BEAT = '/usr/share/games/asc/music/time_to_strike.mp3';

const run = (cmd: string, args: string[]) => {
  const r = spawnSync(cmd, args, { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${cmd} failed: ${r.stderr?.slice(-400)}`);
};

/** A 12 s cut of a real beat (asc-music) and a spoken vocal (espeak-ng). */
const sources = (dir: string) => {
  mkdirSync(dir, { recursive: true });
  const beat = join(dir, 'beat.wav');
  const voice = join(dir, 'voice.wav');
  run('/usr/bin/ffmpeg', ['-v', 'error', '-y', '-t', '12', '-i', BEAT, '-ar', '44100', beat]);
  run('espeak-ng', ['-s', '150', '-w', voice, 'One version, two formats, two files.']);
  return { beat, voice };
};

for (const width of WIDTHS) {
  test.describe(`download at ${width.name}`, () => {
    test.use(width.use);

    test('Main alone in WAV and MP3: two files with the spec names, no ZIP, one credit', async ({
      page,
    }, testInfo) => {
      test.setTimeout(300_000);
      const { beat, voice } = sources(testInfo.outputPath('audio'));
      await signUp(page, 'pro');
      await page.goto('/mixer');
      await loadAndApply(page, voice, beat);
      await createMixdown(page, 120_000);
      const exportLink = page.getByTestId('final-mix').getByRole('link', { name: 'Export to Mastering' });
      await expect(exportLink).toBeVisible({ timeout: 60_000 });
      await press(page, exportLink);
      await waitForSource(page);
      await expect(page.getByTestId('versions-panel')).toHaveAttribute('data-state', 'ready', {
        timeout: 120_000,
      });
      await masterTrack(page, 240_000);
      await expect(toastWith(page, 'Mastering Complete')).toBeHidden({ timeout: 15_000 });

      const before = await currentUser(page.request);
      await press(page, page.getByTestId('download-button'));
      const dialog = page.getByRole('dialog', { name: 'Choose Download Format' });
      await expect(dialog).toContainText('Select the versions and formats you want.');
      await expect(dialog).not.toContainText('Select one or both formats');
      await press(page, dialog.getByRole('checkbox', { name: /MP3/ }));
      await expect(dialog.getByTestId('download-summary')).toHaveText(
        '2 separate files, for one credit/crown.',
      );
      const downloads: Download[] = [];
      page.on('download', (d) => downloads.push(d));
      await press(page, dialog.getByRole('button', { name: 'Download (2 format(s))' }));
      await expect.poll(() => downloads.length, { timeout: 120_000 }).toBe(2);
      const names = downloads.map((d) => d.suggestedFilename()).sort();
      const stamp = names[0]!.match(/^mastered-[a-z]+-(\d+)\.mp3$/)?.[1];
      expect(stamp, names.join(', ')).toBeDefined();
      const preset = names[0]!.split('-')[1];
      expect(names).toEqual([`mastered-${preset}-${stamp}.mp3`, `mastered-${preset}-${stamp}.wav`]);
      // Real files: ffprobe reads a WAV and an MP3 of the same length.
      const probes = [];
      for (const d of downloads) {
        const path = testInfo.outputPath(d.suggestedFilename());
        await d.saveAs(path);
        probes.push({ name: d.suggestedFilename(), ...ffprobe(path) });
      }
      const wav = probes.find((p) => p.name.endsWith('.wav'))!;
      const mp3 = probes.find((p) => p.name.endsWith('.mp3'))!;
      expect(wav.codec).toBe('pcm_s16le');
      expect(mp3.codec).toBe('mp3');
      expect(Math.abs(wav.duration - mp3.duration)).toBeLessThan(0.1);
      const after = await currentUser(page.request);
      expect(before.masteringCredits - after.masteringCredits).toBe(1);
      expect(after.crowns).toBe(before.crowns);
    });
  });
}
