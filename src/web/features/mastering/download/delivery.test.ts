import { describe, expect, it } from 'vitest';
import { exportFileName } from '../engine/engine-api';
import { TEXT } from '../mastering-texts';
import { deliversZip, fileVersionName } from './delivery';

const name = (format: 'wav' | 'mp3', version: Parameters<typeof fileVersionName>[0], count: number) =>
  exportFileName(format, {
    kind: 'master',
    preset: 'loud',
    timestamp: 1700000000000,
    version: fileVersionName(version, count),
  });

describe('how a master download arrives (issue 30)', () => {
  it('one version in two formats: two files with the spec names, no ZIP', () => {
    expect(deliversZip(1)).toBe(false);
    expect(deliversZip(0)).toBe(false);
    expect([name('wav', 'main', 1), name('mp3', 'main', 1)]).toEqual([
      'mastered-loud-1700000000000.wav',
      'mastered-loud-1700000000000.mp3',
    ]);
    expect(name('wav', null, 0)).toBe('mastered-loud-1700000000000.wav');
    // A single version other than Main keeps its name: an a cappella is not the master.
    expect(name('wav', 'acappella', 1)).toBe('mastered-loud-1700000000000-acappella.wav');
  });
  it('more than one version: one ZIP, each file named by its version', () => {
    expect(deliversZip(2)).toBe(true);
    expect(name('wav', 'main', 2)).toBe('mastered-loud-1700000000000-main.wav');
  });
  it('the dialog says what arrives', () => {
    expect(TEXT.versionsSummary(1, 1)).toBe('One file, for one credit/crown.');
    expect(TEXT.versionsSummary(1, 2)).toBe('2 separate files, for one credit/crown.');
    expect(TEXT.versionsSummary(5, 10)).toBe('5 version(s), 10 file(s) in one ZIP, for one credit/crown.');
  });
});
