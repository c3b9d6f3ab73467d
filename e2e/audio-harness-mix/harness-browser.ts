import { type Browser, chromium, type Page } from '@playwright/test';
import { chromiumLaunch } from '../../playwright.config';
import { type HarnessWorker, type MixHarness, startMixHarness } from './harness-server';

/** Headless Chromium on the harness page, for the benchmarks (the specs use Playwright's runner instead). */
export const openHarness = async (
  workers?: readonly HarnessWorker[],
): Promise<{ page: Page; close: () => Promise<void> }> => {
  const harness: MixHarness = await startMixHarness(workers);
  const browser: Browser = await chromium.launch(chromiumLaunch);
  const page = await browser.newPage();
  page.on('pageerror', (e) => console.error('page error:', e.message));
  await page.goto(harness.url);
  await page.waitForFunction(() => document.body.dataset.state === 'ready');
  return {
    page,
    close: async () => {
      await browser.close();
      await harness.close();
    },
  };
};
