import { type Browser, chromium, expect, type Page, test } from '@playwright/test';
import { chromiumLaunch } from '../../playwright.config';
import { type MasteringHarness, startMasteringHarness } from './harness-server';

/**
 * The mastering harness opened in Chromium once for a spec file (its beforeAll/afterAll), failing on any
 * console error of the page. Returns the page's getter: the page exists only once beforeAll has run.
 */
export const openMasteringHarnessPage = (): (() => Page) => {
  let harness: MasteringHarness | undefined;
  let browser: Browser | undefined;
  let page: Page | undefined;
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
  return () => {
    if (!page) throw new Error('the mastering harness page is not open yet');
    return page;
  };
};
