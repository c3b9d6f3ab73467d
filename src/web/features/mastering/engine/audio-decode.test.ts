import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sniffRate } from './audio-decode';

/** Real files made by ffmpeg, so the header reading is checked against an independent writer. */
const make = (args: string[], ext: string): Uint8Array => {
  const path = join(mkdtempSync(join(tmpdir(), 'sniff-')), `x.${ext}`);
  execFileSync('/usr/bin/ffmpeg', ['-v', 'error', '-f', 'lavfi', '-i', 'sine=f=440:d=0.5', ...args, path]);
  return new Uint8Array(readFileSync(path));
};

describe('sniffRate', () => {
  it('reads the sample rate of WAV, MP3 (after an ID3 tag) and Ogg Vorbis files', () => {
    expect(sniffRate(make(['-ar', '48000'], 'wav'))).toBe(48_000);
    expect(sniffRate(make(['-ar', '22050', '-c:a', 'libmp3lame'], 'mp3'))).toBe(22_050);
    expect(sniffRate(make(['-ar', '44100', '-c:a', 'libvorbis'], 'ogg'))).toBe(44_100);
  });

  it('returns null for bytes it does not recognise', () => {
    expect(sniffRate(new TextEncoder().encode('not audio at all'))).toBeNull();
  });
});
