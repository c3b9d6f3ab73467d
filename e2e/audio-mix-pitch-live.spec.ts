import { expect, test } from '@playwright/test';
import { openHarness } from './audio-harness-mix/harness-browser';

/**
 * The live pitch AudioWorklet in real Chromium (decision 260) against the offline correction: the live
 * paths' tolerance rule (decision 052: the largest difference under 1e-5), and amount 0 bit for bit.
 */
let harness: Awaited<ReturnType<typeof openHarness>>;

test.beforeAll(async () => {
  harness = await openHarness();
});
test.afterAll(async () => harness?.close());

for (const timelineRate of [44_100, 48_000]) {
  test(`the worklet plays the offline corrected vocal within 1e-5 (timeline ${timelineRate} Hz)`, async () => {
    const r = await harness.page.evaluate(
      (rate) => window.pitchHarness.liveEquality(100, rate),
      timelineRate,
    );
    console.log(
      `live pitch worklet at ${timelineRate} Hz: max abs difference ${r.worst.toExponential(2)} (${r.differing} samples differ), correction moved samples by up to ${r.moved.toFixed(3)}, ${r.corrected} runs corrected`,
    );
    expect(r.corrected).toBeGreaterThan(3);
    expect(r.moved).toBeGreaterThan(0.05);
    expect(r.worst).toBeLessThan(1e-5);
    expect(harness.errors).toEqual([]);
  });
}

test('at amount 0 the worklet passes the vocal bit for bit', async () => {
  const r = await harness.page.evaluate(() => window.pitchHarness.liveEquality(0, 44_100));
  expect(r.corrected).toBe(0);
  expect(r.differing).toBe(0);
  expect(r.worst).toBe(0);
  expect(harness.errors).toEqual([]);
});
