import { type Browser, chromium, type Page } from '@playwright/test';
import { chromiumLaunch } from '../../playwright.config';
import { type HarnessWorker, type MixHarness, startMixHarness } from './harness-server';

/**
 * Headless Chromium on the harness page, ready, for the benchmarks and the specs; `errors` collects the
 * page's uncaught errors and console errors (the specs expect none).
 */
export const openHarness = async (
  workers?: readonly HarnessWorker[],
): Promise<{ page: Page; browser: Browser; errors: string[]; close: () => Promise<void> }> => {
  const harness: MixHarness = await startMixHarness(workers);
  const browser: Browser = await chromium.launch(chromiumLaunch);
  const page = await browser.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => {
    errors.push(e.message);
    console.error('page error:', e.message);
  });
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  await page.goto(harness.url);
  await page.waitForFunction(() => document.body.dataset.state === 'ready');
  return {
    page,
    browser,
    errors,
    close: async () => {
      await browser.close();
      await harness.close();
    },
  };
};

const TASK_NAMES = new Set(['ThreadControllerImpl::RunTask', 'RunTask']);

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  dur?: number;
  tdur?: number;
  args?: { name?: string };
}

/**
 * Runs `fn` under a Chromium trace and returns the longest task on the page's main thread, as wall time and
 * as the thread's own CPU time. On a loaded machine the wall time includes waiting for a core; the CPU time
 * is what our code itself blocked the thread for.
 */
export const longestMainThreadTask = async <T>(
  browser: Browser,
  page: Page,
  fn: () => Promise<T>,
): Promise<{ result: T; wallMs: number; cpuMs: number }> => {
  await browser.startTracing(page, { categories: ['toplevel', 'devtools.timeline'] });
  const result = await fn();
  const buffer = await browser.stopTracing();
  const { traceEvents } = JSON.parse(buffer.toString()) as { traceEvents: TraceEvent[] };
  const mainThreads = new Set(
    traceEvents
      .filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain')
      .map((e) => `${e.pid}:${e.tid}`),
  );
  let wallMs = 0;
  let cpuMs = 0;
  for (const e of traceEvents) {
    // Chromium names its top-level task 'ThreadControllerImpl::RunTask' (older builds: 'RunTask').
    if (e.ph !== 'X' || !TASK_NAMES.has(e.name) || !mainThreads.has(`${e.pid}:${e.tid}`)) continue;
    wallMs = Math.max(wallMs, (e.dur ?? 0) / 1000);
    cpuMs = Math.max(cpuMs, (e.tdur ?? 0) / 1000);
  }
  return { result, wallMs, cpuMs };
};
