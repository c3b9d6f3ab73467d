import { type Browser, chromium, expect, type Page, test } from '@playwright/test';
import { chromiumLaunch } from '../playwright.config';
import { type MasteringHarness, startMasteringHarness } from './audio-harness/harness-server';

/**
 * Vocal space (issue 18) in real Chromium: the live path (the AudioWorklet with the beat on input 0 and the
 * vocal on input 1) gives the samples of the export path (the worker's carve, beat + vocal, the master),
 * within the live path's float tolerance (decision 052).
 */
let harness: MasteringHarness;
let browser: Browser;
let page: Page;

test.beforeAll(async () => {
  harness = await startMasteringHarness();
  browser = await chromium.launch(chromiumLaunch);
  page = await browser.newPage();
  page.on('console', (m) => {
    if (m.type() === 'error') throw new Error(`console.error in harness: ${m.text()}`);
  });
  await page.goto(harness.url);
  await expect(page.locator('body')).toHaveAttribute('data-state', 'ready');
});

test.afterAll(async () => {
  await browser?.close();
  await harness?.close();
});

for (const [amount, sampleRate] of [
  [100, 44_100],
  [60, 48_000],
] as const) {
  test(`vocal space ${amount} at ${sampleRate} Hz: the worklet plays the export's samples`, async () => {
    const r = await page.evaluate(([a, sr]) => window.audioHarness.vocalSpaceEquality(a, 10, sr), [
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
