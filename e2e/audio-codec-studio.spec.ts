import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { openHarness } from './audio-harness-mix/harness-browser';
import { intNoise } from './audio-harness-mix/harness-signals';
import { ebur128 } from './helpers/mastering-audio';

/**
 * The studio export formats made by the encoder worker in real Chromium, checked by the reference tools:
 * ffprobe (codec, bit depth, rate, exact sample count), ffmpeg's EBU R128 meter (loudness kept), flac -t
 * (the MD5 of the samples) and ffmpeg's decode (FLAC bit-exact).
 */
let harness: Awaited<ReturnType<typeof openHarness>>;
let page: Page;
let dir: string;

test.beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'studio-formats-'));
  harness = await openHarness(['encode-worker']);
  page = harness.page;
  expect(harness.errors).toEqual([]);
});

test.afterAll(async () => {
  await harness?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const save = (name: string, data: string) => {
  const path = join(dir, name);
  writeFileSync(path, Buffer.from(data, 'base64'));
  return path;
};

const probe = (path: string) => {
  const s = JSON.parse(
    execFileSync('ffprobe', ['-v', 'error', '-count_packets', '-show_streams', '-of', 'json', path], {
      encoding: 'utf8',
    }),
  ).streams[0];
  return {
    codec: s.codec_name as string,
    sampleRate: Number(s.sample_rate),
    channels: s.channels as number,
    bits: Number(s.bits_per_raw_sample) || Number(s.bits_per_sample),
    samples: Number(s.duration_ts),
  };
};

const EXPECTED = {
  wav16: { codec: 'pcm_s16le', bits: 16, ext: 'wav', type: 'audio/wav' },
  wav24: { codec: 'pcm_s24le', bits: 24, ext: 'wav', type: 'audio/wav' },
  wav32f: { codec: 'pcm_f32le', bits: 32, ext: 'wav', type: 'audio/wav' },
  flac16: { codec: 'flac', bits: 16, ext: 'flac', type: 'audio/flac' },
  flac24: { codec: 'flac', bits: 24, ext: 'flac', type: 'audio/flac' },
} as const;

for (const [from, to] of [
  [44_100, 44_100],
  [44_100, 48_000],
  [48_000, 44_100],
] as const) {
  test(`every studio format from ${from} Hz at ${to} Hz: depth, rate, exact length, loudness kept`, async () => {
    const seconds = 7.5;
    const files = await page.evaluate(([s, a, b]) => window.studioHarness.exports(s, a, b), [
      seconds,
      from,
      to,
    ] as const);
    const source = ebur128(save('source.wav', files.source!.data));
    for (const [name, want] of Object.entries(EXPECTED)) {
      const file = files[name]!;
      expect(file.type, name).toBe(want.type);
      const path = save(`${name}-${to}.${want.ext}`, file.data);
      expect(probe(path), name).toMatchObject({
        codec: want.codec,
        sampleRate: to,
        channels: 2,
        bits: want.bits,
        samples: seconds * to,
      });
      const measured = ebur128(path);
      expect(Math.abs(measured.integrated - source.integrated), name).toBeLessThanOrEqual(0.05);
      if (want.ext === 'flac') {
        const check = spawnSync('flac', ['-t', '-w', path], { encoding: 'utf8' });
        expect(check.status, check.stderr).toBe(0);
      }
    }
  });
}

for (const bits of [16, 24] as const) {
  test(`FLAC ${bits}-bit made in Chromium decodes bit-exactly in Chromium and in ffmpeg`, async () => {
    const frames = 123_457;
    const r = await page.evaluate(([n, b]) => window.studioHarness.flacRoundTrip(n, 48_000, b), [
      frames,
      bits,
    ] as const);
    expect(r).toMatchObject({
      type: 'audio/flac',
      length: frames,
      sampleRate: 48_000,
      chromiumMismatches: 0,
    });
    const path = save(`roundtrip-${bits}.flac`, r.data);
    const decoded = spawnSync(
      'ffmpeg',
      ['-v', 'error', '-i', path, '-f', 's32le', '-acodec', 'pcm_s32le', '-'],
      {
        maxBuffer: 64 * 1024 * 1024,
      },
    );
    expect(decoded.status).toBe(0);
    const samples = new Int32Array(
      decoded.stdout.buffer,
      decoded.stdout.byteOffset,
      decoded.stdout.length / 4,
    );
    const ints = [intNoise(frames, bits, 3), intNoise(frames, bits, 4)];
    expect(samples.length).toBe(frames * 2);
    let mismatches = 0;
    for (let i = 0; i < frames; i++)
      for (let c = 0; c < 2; c++) if (samples[i * 2 + c]! >> (32 - bits) !== ints[c]![i]) mismatches++;
    expect(mismatches).toBe(0);
    expect(spawnSync('flac', ['-t', '-w', path]).status).toBe(0);
  });
}

test("a 10-minute 48 kHz 24-bit WAV export works (172.8 MB: the 100 MB cap is the spec 16-bit WAV's only)", async () => {
  const r = await page.evaluate(() => window.studioHarness.tenMinuteWav24());
  console.log(`10-minute 24-bit WAV: ${(r.size / 1e6).toFixed(1)} MB in ${Math.round(r.ms)} ms`);
  expect(r).toMatchObject({ type: 'audio/wav', bits: 24, rate: 48_000, dataBytes: 600 * 48_000 * 2 * 3 });
  expect(r.size).toBe(44 + 600 * 48_000 * 2 * 3);
});

for (const [from, to, top] of [
  [48_000, 44_100, 23_900],
  [44_100, 48_000, 22_000],
] as const) {
  test(`the worker's resampler in Chromium, ${from} → ${to} Hz: swept-sine aliases and images ≥ 90 dB down`, async () => {
    const r = await page.evaluate(([a, b, c]) => window.studioHarness.resampleSweep(a, b, c), [
      from,
      to,
      top,
    ] as const);
    console.log(
      `${from} → ${to}: passband error ${r.passbandDb.toFixed(1)} dB, aliases ${r.stopbandDb.toFixed(1)} dB`,
    );
    expect(r.length).toBe(3 * to);
    expect(r.passbandDb).toBeLessThanOrEqual(-90);
    if (from > to) {
      expect(r.stopBlocks).toBeGreaterThan(5);
      expect(r.stopbandDb).toBeLessThanOrEqual(-90);
    }
  });
}
