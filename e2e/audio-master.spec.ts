import { expect, test } from '@playwright/test';
import { openMasteringHarnessPage } from './audio-harness/harness-page';

/** The mastering engine in real Chromium: the AudioWorklet (live) and the Worker (offline) paths agree. */
const harnessPage = openMasteringHarnessPage();

for (const [preset, sampleRate, withReference] of [
  ['loud', 44_100, false],
  ['clean', 48_000, false],
  ['balanced', 44_100, true],
] as const) {
  const what = withReference ? `${preset} toward a reference` : preset;
  test(`AudioWorklet and Worker give the same samples: ${what} at ${sampleRate} Hz`, async () => {
    const r = await harnessPage().evaluate(([p, sr, ref]) => window.audioHarness.equality(p, 10, sr, ref), [
      preset,
      sampleRate,
      withReference,
    ] as const);
    // The reference plan's 1/3-octave mid and side sections reached both paths (decision 115).
    if (withReference) expect(r.referenceSections).toBe(26);
    console.log(
      `${what} ${sampleRate} Hz: max abs difference ${r.worst.toExponential(2)}, gain ${r.gainDb.toFixed(2)} dB, ${r.integrated.toFixed(2)} LUFS, ${r.truePeak.toFixed(2)} dBTP`,
    );
    expect(r.outFrames).toBe(r.frames);
    expect(r.nonFinite).toBe(0);
    expect(r.latency).toBeGreaterThan(0);
    // Float tolerance: the two paths round to float32 at slightly different points.
    expect(r.worst).toBeLessThan(1e-5);
    expect(Math.abs(r.integrated - r.targetLufs)).toBeLessThanOrEqual(0.5);
    expect(r.truePeak).toBeLessThanOrEqual(-1);
  });
}

test('the worklet posts level readings every 100 ms and applies settings sent while playing', async () => {
  const r = await harnessPage().evaluate(() => window.audioHarness.liveControls());
  // 4 s of audio plus the lookahead: 40 readings.
  expect(r.readings).toBe(40);
  expect(r.peaksFinite).toBe(true);
  expect(r.beforeChange).toBe(0);
  expect(r.afterChange).toBeGreaterThan(0.01);
});

test('a crashed worker rejects every pending call and refuses later ones', async () => {
  const r = await harnessPage().evaluate(() => window.audioHarness.crash());
  expect(r.rejected).toEqual(['crashed', 'crashed', 'crashed']);
  expect(r.later).toBe('crashed');
  expect(r.pending).toBe(0);
});

test('the meter worker measures as the page does, and the live plan gain is the render gain', async () => {
  const r = await harnessPage().evaluate(() => window.audioHarness.workersAgree());
  expect(r.integrated[0]).toBe(r.integrated[1]);
  expect(r.range[0]).toBe(r.range[1]);
  expect(r.truePeak[0]).toBe(r.truePeak[1]);
  expect(r.bands).toBe(7);
  expect(r.returned).toBe(12 * 44_100);
  expect(r.planGain).toBe(r.renderGain);
});

// The two-worker render (decision 141): two Workers on SharedArrayBuffer channels give the one-worker
// render's output bit for bit, and a cancel stops both (the next render runs normally).
for (const [preset, channels, adaptive] of [
  ['balanced', 2, true],
  ['loud', 2, true],
  ['clean', 2, false],
  ['balanced', 1, true],
] as const) {
  const what = `${preset}, ${channels === 2 ? 'stereo' : 'mono'}, ${adaptive ? 'adaptive chain' : 'spec chain'}`;
  test(`two workers give the one-worker render's samples exactly: ${what}`, async () => {
    test.setTimeout(120_000);
    const r = await harnessPage().evaluate(([p, c, a]) => window.audioHarness.pairEquality(p, 25, c, a), [
      preset,
      channels,
      adaptive,
    ] as const);
    expect(r.available).toBe(true);
    expect(r.pairFrames).toBe(r.frames);
    expect(r.differing).toBe(0);
    expect(r.worst).toBe(0);
    expect(r.sameReport).toBe(true);
    expect(r.cancelled).toBe('AbortError');
    expect(r.againDiffering).toBe(0);
    expect(r.againTookCopy).toBe(true);
    expect(r.sameReportAgain).toBe(true);
    expect(r.streamedDiffering).toBe(0);
    expect(r.sameReportStreamed).toBe(true);
  });
}
