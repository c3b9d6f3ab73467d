/// <reference types="node" />
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EXPORT_MESSAGES } from './export-errors';
import { encodeMp3 } from './mp3-encoder';

const require = createRequire(import.meta.url);
const wasm = readFileSync(require.resolve('wasm-media-encoders/wasm/mp3'));
const dir = mkdtempSync(join(tmpdir(), 'mp3-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const tone = (seconds: number, sampleRate: number, freq: number) =>
  Float32Array.from(
    { length: Math.round(seconds * sampleRate) },
    (_, i) => 0.5 * Math.sin((2 * Math.PI * freq * i) / sampleRate),
  );
const concat = (parts: Uint8Array[]) =>
  Buffer.concat(parts.map((p) => Buffer.from(p.buffer, p.byteOffset, p.length)));

/** Walks MPEG audio frame headers: every frame must start with the 11-bit sync and say MPEG-1 Layer III. */
const mpegFrames = (bytes: Uint8Array) => {
  let at = 0;
  // Skip an ID3v2 tag if one is present.
  if (bytes[0] === 0x49 && bytes[1] === 0x44 && bytes[2] === 0x33) {
    at = 10 + ((bytes[6]! << 21) | (bytes[7]! << 14) | (bytes[8]! << 7) | bytes[9]!);
  }
  const bitrates = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320];
  const rates = [44_100, 48_000, 32_000];
  const frames: { bitrate: number; sampleRate: number }[] = [];
  while (at + 4 <= bytes.length) {
    const h = (bytes[at]! << 24) | (bytes[at + 1]! << 16) | (bytes[at + 2]! << 8) | bytes[at + 3]!;
    expect((h >>> 21) & 0x7ff).toBe(0x7ff);
    expect((h >>> 19) & 3).toBe(3); // MPEG-1
    expect((h >>> 17) & 3).toBe(1); // Layer III
    const bitrate = bitrates[(h >>> 12) & 15]!;
    const sampleRate = rates[(h >>> 10) & 3]!;
    const padding = (h >>> 9) & 1;
    frames.push({ bitrate, sampleRate });
    at += Math.floor((144_000 * bitrate) / sampleRate) + padding;
  }
  expect(at).toBe(bytes.length);
  return frames;
};

const ffprobe = (file: string) =>
  JSON.parse(
    execFileSync('/usr/bin/ffprobe', ['-v', 'error', '-show_streams', '-of', 'json', file], {
      encoding: 'utf8',
    }),
  ).streams[0] as { channels: number; sample_rate: string; codec_name: string; bit_rate: string };

/** Decode with ffmpeg to raw float samples and count them. */
const ffmpegDecodedFrames = (file: string, channels: number) =>
  execFileSync('/usr/bin/ffmpeg', ['-v', 'error', '-i', file, '-f', 'f32le', '-'], { maxBuffer: 1 << 28 })
    .length /
  (4 * channels);

describe('MP3 encoder (LAME in WebAssembly)', () => {
  it('writes real MPEG-1 Layer III at 320 kbps CBR, stereo, decodable to the right length', async () => {
    const sr = 44_100;
    const left = tone(7.3, sr, 440);
    const right = tone(7.3, sr, 660);
    const progress: number[] = [];
    const bytes = concat(await encodeMp3([left, right], sr, { wasm, onProgress: (f) => progress.push(f) }));
    const frames = mpegFrames(bytes);
    // Every frame, the leading Info tag included, is 320 kbps at 44.1 kHz.
    expect(frames.every((f) => f.bitrate === 320 && f.sampleRate === sr)).toBe(true);
    expect(String.fromCharCode(...bytes.subarray(36, 40))).toBe('Info');
    expect(String.fromCharCode(...bytes.subarray(156, 160))).toBe('LAME');
    expect(progress.at(-1)).toBe(1);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    const file = join(dir, 'stereo.mp3');
    writeFileSync(file, bytes);
    const info = ffprobe(file);
    expect(info).toMatchObject({ codec_name: 'mp3', channels: 2, sample_rate: '44100', bit_rate: '320000' });
    // The Info tag's delay and padding let ffmpeg trim to exactly the input length.
    expect(ffmpegDecodedFrames(file, 2)).toBe(left.length);
  });

  it('keeps mono mono and encodes 48 kHz at its own rate', async () => {
    const sr = 48_000;
    const mono = tone(3, sr, 1000);
    const bytes = concat(await encodeMp3([mono], sr, { wasm }));
    const file = join(dir, 'mono.mp3');
    writeFileSync(file, bytes);
    expect(ffprobe(file)).toMatchObject({ channels: 1, sample_rate: '48000' });
    expect(ffmpegDecodedFrames(file, 1)).toBe(mono.length);
  });

  it('stops when aborted and refuses empty input', async () => {
    const controller = new AbortController();
    const long = tone(20, 44_100, 220);
    const job = encodeMp3([long, long], 44_100, {
      wasm,
      signal: controller.signal,
      onProgress: (f) => {
        if (f > 0.2) controller.abort();
      },
    });
    await expect(job).rejects.toThrow(/abort/i);
    await expect(encodeMp3([new Float32Array(0)], 44_100, { wasm })).rejects.toThrow(
      EXPORT_MESSAGES.emptyBuffer,
    );
  });

  it.runIf(existsSync('/usr/bin/ffmpeg'))(
    'decodes to its input, sample-aligned (correlation at lag 0)',
    async () => {
      const sr = 44_100;
      const x = tone(2, sr, 523.25);
      const file = join(dir, 'corr.mp3');
      writeFileSync(file, concat(await encodeMp3([x], sr, { wasm })));
      const raw = execFileSync('/usr/bin/ffmpeg', ['-v', 'error', '-i', file, '-f', 'f32le', '-'], {
        maxBuffer: 1 << 26,
      });
      const y = new Float32Array(raw.buffer, raw.byteOffset, raw.length / 4);
      // Gapless: the decoded samples line up with the input at lag 0.
      let xy = 0;
      let xx = 0;
      let yy = 0;
      for (let i = 0; i < x.length; i++) {
        xy += x[i]! * (y[i] ?? 0);
        xx += x[i]! * x[i]!;
        yy += (y[i] ?? 0) ** 2;
      }
      expect(y.length).toBe(x.length);
      expect(xy / Math.sqrt(xx * yy)).toBeGreaterThan(0.999);
    },
  );
});
