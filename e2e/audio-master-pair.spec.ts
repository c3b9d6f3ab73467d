import { type Browser, chromium, expect, type Page, test } from '@playwright/test';
import { chromiumLaunch } from '../playwright.config';
import { type MasteringHarness, startMasteringHarness } from './audio-harness/harness-server';

/**
 * The two-worker mastering render (decision 141) in real Chromium, cross-origin isolated like the app: two
 * Workers on SharedArrayBuffer channels give the one-worker render's output bit for bit, and a cancel stops
 * both (the next render runs normally).
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

for (const [preset, channels, adaptive] of [
  ['balanced', 2, true],
  ['loud', 2, true],
  ['clean', 2, false],
  ['balanced', 1, true],
] as const) {
  const what = `${preset}, ${channels === 2 ? 'stereo' : 'mono'}, ${adaptive ? 'adaptive chain' : 'spec chain'}`;
  test(`two workers give the one-worker render's samples exactly: ${what}`, async () => {
    test.setTimeout(120_000);
    const r = await page.evaluate(([p, c, a]) => window.audioHarness.pairEquality(p, 25, c, a), [
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
  });
}
