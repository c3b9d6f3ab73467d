import { expect, test } from '@playwright/test';
import { openMasteringHarnessPage } from './audio-harness/harness-page';

/**
 * Vocal space (issue 18) in real Chromium: the live path (the AudioWorklet with the beat on input 0 and the
 * vocal on input 1) gives the samples of the export path (the worker's carve, beat + vocal, the master),
 * within the live path's float tolerance (decision 052).
 */
const harnessPage = openMasteringHarnessPage();

for (const [amount, sampleRate] of [
  [100, 44_100],
  [60, 48_000],
] as const) {
  test(`vocal space ${amount} at ${sampleRate} Hz: the worklet plays the export's samples`, async () => {
    const r = await harnessPage().evaluate(([a, sr]) => window.audioHarness.vocalSpaceEquality(a, 10, sr), [
      amount,
      sampleRate,
    ] as const);
    console.log(
      `vocal space ${amount} at ${sampleRate} Hz: max abs difference ${r.worst.toExponential(2)}, ` +
        `beat changed by up to ${r.carvedAway.toFixed(4)}, +${r.clarityDb.toFixed(2)} dB vocal clarity`,
    );
    expect(r.nonFinite).toBe(0);
    // The carve really acted, and the live path still gives the export's samples.
    expect(r.carvedAway).toBeGreaterThan(1e-3);
    expect(r.clarityDb).toBeGreaterThan(0.5);
    expect(r.worst).toBeLessThan(1e-5);
  });
}
