import { describe, expect, it } from 'vitest';
import { concatBytes, ffmpegS32, ffprobe, runTool } from './codec-tools.test-helper';
import { encodeFlac } from './flac-encoder';

/** Integer test material: a chirp with noise, a silent stretch (constant subframes), full-scale edges. */
const integers = (frames: number, bits: 16 | 24, seed: number): Int32Array => {
  const max = 2 ** (bits - 1) - 1;
  const out = new Int32Array(frames);
  let s = seed;
  for (let i = 0; i < frames; i++) {
    s = (s * 1_103_515_245 + 12_345) >>> 0;
    const noise = (s / 2 ** 32 - 0.5) * 0.02;
    const phase = (i / 48_000) * (200 + i / 40);
    let v = 0.6 * Math.sin(2 * Math.PI * phase) + noise;
    if (i > frames * 0.4 && i < frames * 0.45) v = 0; // silence: constant subframes
    if (i % 9_973 === 0) v = i % 2 ? 1 : -1.01; // clipped full-scale samples
    out[i] = Math.max(-max - 1, Math.min(max, Math.round(v * (max + 1))));
  }
  return out;
};

const toFloat = (ints: Int32Array, bits: number) => Float32Array.from(ints, (v) => v / 2 ** (bits - 1));

describe('encodeFlac', () => {
  for (const [bits, channelCount, frames] of [
    [16, 2, 100_003],
    [24, 2, 70_001],
    [16, 1, 4096 * 3],
    [24, 1, 10],
  ] as const) {
    it(`${bits}-bit, ${channelCount} ch, ${frames} frames: flac -t passes (MD5) and ffmpeg decodes it bit-exactly`, async () => {
      const ints = Array.from({ length: channelCount }, (_, c) => integers(frames, bits, c + 1));
      const file = concatBytes(
        encodeFlac(
          ints.map((c) => toFloat(c, bits)),
          48_000,
          { bits, dither: false },
        ),
      );
      const test = await runTool(file, 'flac', 'flac', (input) => ['-t', '-w', input]);
      expect(test.stderr).toContain('ok');
      expect(test.status).toBe(0);
      const probe = await ffprobe(file, 'flac');
      expect(probe).toMatchObject({ codec: 'flac', sampleRate: 48_000, channels: channelCount, bits });
      const decoded = await ffmpegS32(file, 'flac');
      expect(decoded.length).toBe(frames * channelCount);
      let mismatches = 0;
      for (let i = 0; i < frames; i++)
        for (let c = 0; c < channelCount; c++)
          if (decoded[i * channelCount + c]! / 2 ** (32 - bits) !== ints[c]![i]) mismatches++;
      expect(mismatches).toBe(0);
    });
  }

  it('compresses music-like material below the size of 16-bit PCM', () => {
    const ints = [integers(200_000, 16, 3), integers(200_000, 16, 4)];
    const file = concatBytes(
      encodeFlac(
        ints.map((c) => toFloat(c, 16)),
        44_100,
        { dither: false },
      ),
    );
    expect(file.length).toBeLessThan(200_000 * 2 * 2 * 0.8);
  });

  it('refuses an empty buffer with the spec message', () => {
    expect(() => encodeFlac([new Float32Array(0)], 44_100)).toThrow('Invalid or empty audio buffer');
  });
});
