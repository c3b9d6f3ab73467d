import { expect, type Page, test } from '@playwright/test';
import { openHarness } from './audio-harness-mix/harness-browser';

/**
 * Encoders in real Chromium: the WAV and MP3 workers' output decoded by the browser's own decodeAudioData.
 * The harness is served by this spec (no app server needed); see audio-harness-mix/.
 */
let harness: Awaited<ReturnType<typeof openHarness>>;
let page: Page;

test.beforeAll(async () => {
  harness = await openHarness(['encode-worker', 'peaks-worker']);
  page = harness.page;
  expect(harness.errors).toEqual([]);
});

test.afterAll(async () => {
  await harness?.close();
});

test('WAV from the worker round-trips bit-exactly through Chromium and our reader', async () => {
  const r = await page.evaluate(() => window.mixHarness.wavRoundTrip(200_003, 48_000));
  expect(r).toMatchObject({
    type: 'audio/wav',
    length: 200_003,
    channels: 2,
    sampleRate: 48_000,
    chromiumMismatches: 0,
    oursMismatches: 0,
    lastProgress: 1,
  });
  expect(r.size).toBe(44 + 200_003 * 4);
});

test('a long WAV split over two workers has the bytes of one worker, dither included', async () => {
  const r = await page.evaluate(() => window.mixHarness.wavTwoWorkers(25, 44_100));
  const bytes = 44 + 25 * 44_100 * 4;
  expect(r).toEqual({ sizes: [bytes, bytes], differing: 0, length: 25 * 44_100, lastProgress: 1 });
});

test('WAV refuses an empty buffer with the spec message', async () => {
  expect(await page.evaluate(() => window.mixHarness.wavErrors())).toEqual(['Invalid or empty audio buffer']);
});

for (const [channels, sampleRate] of [
  [2, 44_100],
  [1, 48_000],
] as const) {
  test(`MP3 (${channels} ch, ${sampleRate} Hz) is real MPEG-1 Layer III and decodes to its length`, async () => {
    const r = await page.evaluate(([c, sr]) => window.mixHarness.mp3(12.345, sr, c), [channels, sampleRate]);
    expect(r.type).toBe('audio/mpeg');
    expect(r.frames).toBeGreaterThan(0); // every frame header has the sync word, MPEG-1, Layer III
    expect(r.channels).toBe(channels);
    // The spec allows ±1 frame; our LAME Info tag lets Chromium trim delay and padding to the exact length.
    expect(Math.abs(r.decodedLength - r.inputLength)).toBeLessThanOrEqual(1152);
    expect(r.decodedLength).toBe(r.inputLength);
    expect(r.correlation).toBeGreaterThan(0.99);
    expect(r.progressMonotonic).toBe(true);
    expect(r.lastProgress).toBe(1);
    // 320 kbps CBR: bytes ≈ 40 kB per second (plus the Info frame).
    expect(r.bytes / (r.inputLength / sampleRate)).toBeGreaterThan(39_000);
    expect(r.bytes / (r.inputLength / sampleRate)).toBeLessThan(41_500);
  });
}

test('a long MP3 (split over two workers, joined at a frame) decodes in Chromium to its exact length', async () => {
  // 45 s is past MP3_PARALLEL_MIN_SECONDS: the encoder client splits it (this machine has 2 cores).
  expect(await page.evaluate(() => navigator.hardwareConcurrency)).toBeGreaterThanOrEqual(2);
  const r = await page.evaluate(() => window.mixHarness.mp3(45, 44_100, 2));
  expect(r.type).toBe('audio/mpeg');
  expect(r.frames).toBeGreaterThan(0);
  expect(r.channels).toBe(2);
  expect(r.decodedLength).toBe(r.inputLength);
  expect(r.correlation).toBeGreaterThan(0.99);
  expect(r.progressMonotonic).toBe(true);
  expect(r.lastProgress).toBe(1);
  expect(r.bytes / (r.inputLength / 44_100)).toBeGreaterThan(39_000);
  expect(r.bytes / (r.inputLength / 44_100)).toBeLessThan(41_500);
});

test('an MP3 export can be cancelled and the worker keeps working', async () => {
  const r = await page.evaluate(() => window.mixHarness.mp3Cancel());
  expect(r.name).toBe('AbortError');
  expect(r.after).toBe('audio/mpeg');
});

test('waveform peaks from the worker equal the reference at every zoom level', async () => {
  const r = await page.evaluate(() => window.mixHarness.peaks(20));
  expect(r.equal).toBe(true);
  expect(r.levels[0]).toEqual([128, Math.ceil((20 * 44_100) / 128)]);
  expect(r.levels).toHaveLength(7);
});
