import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { PRESETS } from '../src/shared/mastering';
import { ffprobe, testWav } from './helpers/mastering-audio';
import { masterTrack, number, openMastering, upload, waitForSource } from './helpers/mastering-page';
import { signUp } from './helpers/mastering-users';
import { expect, expectToast, test } from './helpers/web-fixtures';

/**
 * Issue 19's input formats, each made by ffmpeg from one synthesised track, uploaded through the mastering
 * screen and mastered: AIFF goes through our reader, FLAC and M4A/AAC through Chromium's decoder.
 */
const FORMATS = [
  { name: 'FLAC', ext: 'flac', args: ['-c:a', 'flac', '-f', 'flac'] },
  { name: 'AIFF 24-bit', ext: 'aiff', args: ['-c:a', 'pcm_s24be', '-f', 'aiff'] },
  { name: "AIFF-C 'sowt'", ext: 'aifc', args: ['-c:a', 'pcm_s16le', '-f', 'aiff'] },
  { name: 'M4A (AAC)', ext: 'm4a', args: ['-c:a', 'aac', '-b:a', '192k', '-f', 'ipod'] },
  { name: 'AAC (ADTS)', ext: 'aac', args: ['-c:a', 'aac', '-b:a', '192k', '-f', 'adts'] },
] as const;

for (const format of FORMATS) {
  test(`${format.name}: uploaded through the mastering screen and mastered to its target`, async ({
    page,
  }) => {
    test.setTimeout(120_000);
    const wav = testWav('input-formats-source', 'pop', 10, 48_000);
    const path = join(wav, '..', `input-format.${format.ext}`);
    const run = spawnSync('ffmpeg', ['-v', 'error', '-y', '-i', wav, ...format.args, path], {
      encoding: 'utf8',
    });
    expect(run.status, run.stderr).toBe(0);
    expect(ffprobe(path).sampleRate).toBe(48_000);
    await signUp(page, 'pro');
    await openMastering(page);
    await upload(page, path);
    await expectToast(page, 'Audio loaded');
    await waitForSource(page);
    expect(await number(page, 'original-lufs')).toBeLessThan(-5);
    await masterTrack(page);
    await expectToast(page, 'Mastering Complete');
    const lufs = await number(page, 'master-lufs');
    expect(Math.abs(lufs - PRESETS.balanced.targetLufs)).toBeLessThanOrEqual(1);
    expect(await number(page, 'master-true-peak')).toBeLessThanOrEqual(-1);
  });
}
