import { writeFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';

/**
 * A Chromium trace of the page (its main thread and workers: tasks, the DevTools timeline's events, User
 * Timing marks and V8's sampling profiler) written to `path`, for `bench/mixer-page-tasks.ts` to say which
 * main-thread tasks ran long and what ran in them. Only when a spec is asked to (an env variable): the
 * sampling profiler slows the page a little.
 */
export const traceMainThread = async (page: Page, path: string | undefined) => {
  const browser = page.context().browser();
  if (!path || !browser) return async () => {};
  await browser.startTracing(page, {
    categories: [
      'toplevel',
      'devtools.timeline',
      'v8',
      'v8.execute',
      'blink.user_timing',
      'disabled-by-default-v8.cpu_profiler',
    ],
  });
  return async () => {
    await writeFile(path, await browser.stopTracing());
  };
};
