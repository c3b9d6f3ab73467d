import { describe, expect, it } from 'vitest';
import { concatBytes } from './codec-tools.test-helper';
import { EXPORT_MESSAGES } from './export-errors';
import { chosenFormats, exportFileName } from './export-formats';
import { decodeWav } from './wav-decoder';
import { encodeWav, WAV_HEADER_BYTES, wavFileBytes, wavParts } from './wav-encoder';

/** Every 16-bit value, in a scrambled order, as the floats a decoder would produce from a 16-bit file. */
const allInt16 = (frames: number, seed: number): Int16Array => {
  const out = new Int16Array(frames);
  let x = seed;
  for (let i = 0; i < frames; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    out[i] = i < 65536 ? i - 32768 : (x >>> 16) - 32768;
  }
  return out;
};

describe('WAV encoder', () => {
  it('round-trips 16-bit material bit-exactly without dither', () => {
    const left = allInt16(70_001, 1);
    const right = allInt16(70_001, 2).reverse();
    const floats = [left, right].map((ch) => Float32Array.from(ch, (v) => v / 32768));
    const parts = encodeWav(floats, 44_100, { dither: false, chunkFrames: 10_000 });
    expect(parts).toHaveLength(1 + 8);
    const file = concatBytes(parts);
    expect(file.length).toBe(wavFileBytes(70_001, 2));
    const decoded = decodeWav(file);
    expect(decoded).toMatchObject({ sampleRate: 44_100, channelCount: 2, bitsPerSample: 16, frames: 70_001 });
    expect(decoded.int16![0]).toEqual(left);
    expect(decoded.int16![1]).toEqual(right);
  });

  it('writes a header ffmpeg-compatible players read', () => {
    const file = concatBytes(encodeWav([new Float32Array(10)], 48_000, { dither: false }));
    const view = new DataView(file.buffer);
    const text = (at: number) => String.fromCharCode(...file.subarray(at, at + 4));
    expect([text(0), text(8), text(12), text(36)]).toEqual(['RIFF', 'WAVE', 'fmt ', 'data']);
    expect(view.getUint32(4, true)).toBe(file.length - 8);
    expect(view.getUint16(20, true)).toBe(1);
    expect(view.getUint32(24, true)).toBe(48_000);
    expect(view.getUint32(28, true)).toBe(96_000);
    expect(view.getUint32(40, true)).toBe(20);
    expect(file.length).toBe(WAV_HEADER_BYTES + 20);
  });

  it('dithers with TPDF noise: mean error ~0, within ±1 LSB of plain rounding, and decorrelated', () => {
    const n = 200_000;
    const x = Float32Array.from({ length: n }, (_, i) => 0.25 * Math.sin((2 * Math.PI * 997 * i) / 44_100));
    const plain = decodeWav(concatBytes(encodeWav([x], 44_100, { dither: false }))).int16![0]!;
    const dithered = decodeWav(concatBytes(encodeWav([x], 44_100, { ditherSeed: 7 }))).int16![0]!;
    let sum = 0;
    let sq = 0;
    let changed = 0;
    let farther = 0;
    for (let i = 0; i < n; i++) {
      const e = dithered[i]! - x[i]! * 32768;
      sum += e;
      sq += e * e;
      if (Math.abs(dithered[i]! - plain[i]!) > 1) farther++;
      if (dithered[i] !== plain[i]) changed++;
    }
    expect(farther).toBe(0);
    expect(Math.abs(sum / n)).toBeLessThan(0.02);
    // TPDF ±1 LSB plus rounding: error variance 1/6 + 1/12 = 0.25 LSB².
    expect(sq / n).toBeGreaterThan(0.2);
    expect(sq / n).toBeLessThan(0.3);
    expect(changed).toBeGreaterThan(n / 4);
  });

  it('dithers by position: the same bytes whatever blocks the file is cut into', () => {
    const x = [0.3, 0.5].map((a) => Float32Array.from({ length: 30_011 }, (_, i) => a * Math.sin(i / 13)));
    const whole = concatBytes(encodeWav(x, 44_100, { ditherSeed: 3 }));
    expect(concatBytes(encodeWav(x, 44_100, { ditherSeed: 3, chunkFrames: 4_097 }))).toEqual(whole);
    expect(concatBytes(encodeWav(x, 44_100, { ditherSeed: 4 }))).not.toEqual(whole);
  });

  it('keeps at most two channels and mono stays mono', () => {
    const ch = () => new Float32Array(100);
    expect(decodeWav(concatBytes(encodeWav([ch(), ch(), ch(), ch()], 44_100))).channelCount).toBe(2);
    expect(decodeWav(concatBytes(encodeWav([ch()], 44_100))).channelCount).toBe(1);
  });

  it('refuses an empty buffer and anything over 100 MB with the spec messages', () => {
    expect(() => encodeWav([], 44_100)).toThrow(EXPORT_MESSAGES.emptyBuffer);
    expect(() => encodeWav([new Float32Array(0)], 44_100)).toThrow(EXPORT_MESSAGES.emptyBuffer);
    expect(() => encodeWav([new Float32Array(5), new Float32Array(4)], 44_100)).toThrow(
      EXPORT_MESSAGES.emptyBuffer,
    );
    // 100 MiB of stereo 16-bit is 26,214,389 frames after the header; one frame more is over.
    const limit = (100 * 1024 * 1024 - WAV_HEADER_BYTES) / 4;
    const frames = Math.floor(limit) + 1;
    const big = [new Float32Array(frames), new Float32Array(frames)];
    expect(() => wavParts(big, 44_100).next()).toThrow('Audio file too large for export');
    const fits = [big[0]!.subarray(0, frames - 1), big[1]!.subarray(0, frames - 1)];
    expect(wavParts(fits, 44_100).next().done).toBe(false);
  });

  it('needs at least one known format', () => {
    expect(() => chosenFormats([])).toThrow(EXPORT_MESSAGES.noFormat);
    expect(chosenFormats(['mp3', 'flac', 'wav', 'mp3'])).toEqual(['wav', 'mp3']);
    expect(exportFileName('mp3', { kind: 'mix' })).toBe('Mixdown.mp3');
    expect(exportFileName('wav', { kind: 'master', preset: 'loud', timestamp: 1700000000000 })).toBe(
      'mastered-loud-1700000000000.wav',
    );
  });

  it("names a version of a mix's master after it (issue 18)", () => {
    const master = {
      kind: 'master',
      preset: 'balanced',
      timestamp: 1700000000000,
      version: 'acappella',
    } as const;
    expect(exportFileName('wav', master)).toBe('mastered-balanced-1700000000000-acappella.wav');
    expect(exportFileName('mp3', master)).toBe('mastered-balanced-1700000000000-acappella.mp3');
    expect(exportFileName('flac24', master)).toBe('mastered-balanced-1700000000000-acappella-24bit.flac');
  });

  it('names the studio formats apart from the spec files of the same download', () => {
    const master = { kind: 'master', preset: 'clean', timestamp: 1 } as const;
    expect(chosenFormats(['flac24', 'wav', 'wav24', 'wav32f', 'flac16'])).toEqual([
      'wav',
      'wav24',
      'wav32f',
      'flac16',
      'flac24',
    ]);
    expect(
      ['wav', 'wav24', 'wav32f', 'flac16', 'flac24'].map((f) => exportFileName(f as never, master)),
    ).toEqual([
      'mastered-clean-1.wav',
      'mastered-clean-1-24bit.wav',
      'mastered-clean-1-32float.wav',
      'mastered-clean-1-16bit.flac',
      'mastered-clean-1-24bit.flac',
    ]);
  });
});
