import { defineConfig } from '@playwright/test';
import { chromiumLaunch } from '../../playwright.config';

/**
 * Runs the audio mix/codec browser specs on their own, without the app server the main config starts:
 * `npx playwright test -c e2e/audio-harness-mix/playwright.config.ts`.
 * The same specs also run under the main config (they serve their own harness either way).
 */
export default defineConfig({
  testDir: '..',
  testMatch: ['audio-mix-*.spec.ts', 'audio-codec-*.spec.ts'],
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 180_000,
  reporter: [['list']],
  outputDir: '../../test-results/audio-harness-mix',
  use: { launchOptions: chromiumLaunch },
});
