import { defineConfig } from '@playwright/test';
import { chromiumLaunch } from '../../playwright.config';

/**
 * Runs the mastering browser specs on their own, without the app server the main config starts:
 * `npx playwright test -c e2e/audio-harness/playwright.config.ts`.
 * The same specs also run under the main config (they serve their own harness either way).
 */
export default defineConfig({
  testDir: '..',
  testMatch: ['audio-master*.spec.ts'],
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 180_000,
  reporter: [['list']],
  outputDir: '../../test-results/audio-harness',
  use: { launchOptions: chromiumLaunch },
});
