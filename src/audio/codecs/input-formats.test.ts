import { describe, expect, it } from 'vitest';
import { runTool } from './codec-tools.test-helper';
import { studioInputRate } from './input-formats';

/** Two seconds of a tone at `rate` in ffmpeg's `format` (through a file: AIFF and MP4 seek back). */
const made = async (rate: number, args: string[], ext: string) => {
  const run = await runTool(
    new Uint8Array(0),
    'none',
    'ffmpeg',
    (_, output) => ['-v', 'error', '-f', 'lavfi', '-i', `sine=f=440:r=${rate}:d=2`, ...args, output],
    ext,
  );
  expect(run.status, run.stderr).toBe(0);
  return run.output!;
};

describe('studioInputRate', () => {
  it.each([
    ['flac', 48_000, ['-c:a', 'flac']],
    ['flac', 96_000, ['-c:a', 'flac']],
    ['aiff', 88_200, ['-c:a', 'pcm_s24be']],
    ['m4a', 44_100, ['-c:a', 'aac', '-f', 'ipod']],
    ['aac', 22_050, ['-c:a', 'aac', '-f', 'adts']],
  ] as const)('reads the rate of a real %s file at %i Hz', async (ext, rate, args) => {
    expect(studioInputRate(await made(rate, [...args], ext))).toBe(rate);
  });

  it('knows nothing of other files', () => {
    expect(studioInputRate(new TextEncoder().encode('RIFF\0\0\0\0WAVEfmt '))).toBeNull();
  });
});
