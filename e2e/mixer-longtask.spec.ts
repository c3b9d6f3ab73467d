import type { Page } from '@playwright/test';
import { traceMainThread } from './helpers/main-thread-trace';
import { toneAndNoise, vocal, writeWav } from './helpers/mixer-audio';
import { expectLoaded } from './helpers/mixer-page';
import { expect, registerViaApi, test } from './helpers/web-fixtures';

/**
 * Issue 26's target is main-thread stalls under 50 ms while mixing (and < 200 ms while a 10-minute track
 * decodes); the longest task of each phase (load, previews, mixdown) and the step it fell in (the page's User
 * Timing marks) are reported in the test's annotation and output. DESIGN.md keeps speed out of pass/fail on
 * these shared machines (under load a 50 ms slice reads as a few hundred), so the assertion only catches a
 * real regression: a freeze of a second or more, as a whole track copied, cloned or decoded in one
 * synchronous step on the page gives (decision 290).
 */
const LONG_TASK_TARGET_MS = 50;
const LONG_TASK_REGRESSION_MS = 1000;
/** The beat's length (600 s unless MIXER_LONGTASK_SECONDS says otherwise, e.g. 240 for a 4-minute song). */
const SECONDS = Number(process.env.MIXER_LONGTASK_SECONDS ?? 600);
const clockText = `${Math.floor(SECONDS / 60)}:${String(SECONDS % 60).padStart(2, '0')}.0`;

declare global {
  interface Window {
    mixerLongTasks: { start: number; duration: number }[];
  }
}

/**
 * The measured steps wait with CSS selectors (`waitFor`), never with `expect`: while an expectation is not
 * yet met, Playwright 1.65 takes an aria snapshot inside the page at every poll (of the whole body when the
 * element is not there yet: `_ariaSnapshotForExpect`), and those polls were 25-65 ms tasks on the page's
 * main thread every ~600 ms during the mixdown (a CPU trace of this spec: getTextAlternative, getCSSContent,
 * toAriaNode; 12 of the 14 tasks over 20 ms CPU in that phase). Role and label queries do the same work
 * once per call. They are the test's, not the page's, and no user runs them; every task of the app's own is
 * counted as before. What each step waits for is checked with `expect` after the measurement.
 */
const fileInput = (page: Page, type: 'vocals' | 'instrumental') =>
  page.locator(`[data-testid="upload-${type}"] input[type="file"]`);
const button = (page: Page, text: string) => page.locator('button', { hasText: text });
const waitFor = (page: Page, selector: string, timeout: number) =>
  page.locator(selector).waitFor({ state: 'attached', timeout });

// Playwright's own trace takes DOM snapshots inside the page at every step (a 70 ms task of its script on the
// page's main thread, seen in a Chromium trace): not the page's work, so it is off here.
test.use({ trace: 'off' });

test(`the page stays responsive while a ${SECONDS / 60}-minute track decodes, previews and mixes down`, async ({
  page,
}, testInfo) => {
  test.setTimeout(420_000);
  const dir = testInfo.outputPath('audio');
  const longInst = await writeWav(dir, 'ten-minutes.wav', toneAndNoise(SECONDS));
  const voice = await writeWav(dir, 'vocal.wav', vocal(30));

  await page.addInitScript(() => {
    window.mixerLongTasks = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries())
        window.mixerLongTasks.push({ start: e.startTime, duration: e.duration });
    }).observe({ type: 'longtask', buffered: true });
  });
  await registerViaApi(page);
  await page.goto('/mixer');
  await expect(page.getByRole('heading', { name: 'Track Sequencer' })).toBeVisible();
  // MIXER_TRACE=file.json: a Chromium trace of what follows, for bench/mixer-page-tasks.ts to read.
  const stopTrace = await traceMainThread(page, process.env.MIXER_TRACE);
  // Page load is not what is measured: only what follows the first upload.
  const from = await page.evaluate(() => {
    // The trace reader (bench/mixer-page-tasks.ts) counts from this mark too.
    performance.mark('longtask:from');
    return performance.now();
  });

  const mark = (name: string) => page.evaluate((n) => ({ n, t: performance.now() }), name);
  const marks = [await mark('upload')];
  const t0 = Date.now();
  await fileInput(page, 'instrumental').setInputFiles(longInst);
  await waitFor(page, '[data-testid="upload-instrumental"][data-state="loaded"]', 120_000);
  const decodeMs = Date.now() - t0;
  marks.push(await mark('loaded'));
  await fileInput(page, 'vocals').setInputFiles(voice);
  await waitFor(page, '[data-testid="upload-vocals"][data-state="loaded"]', 30_000);

  marks.push(await mark('apply'));
  const t1 = Date.now();
  await button(page, 'Apply Sequence').click();
  await waitFor(page, '[data-testid="mix-preview"][data-state="ready"]', 120_000);
  const previewMs = Date.now() - t1;
  // Met already (waited for above), so it passes on its first read: no unmet poll, no aria snapshot.
  await expect(page.getByTestId('mix-preview')).toHaveAttribute('data-state', 'ready');

  marks.push(await mark('mixdown'));
  const t2 = Date.now();
  await button(page, 'Create Mixdown').click();
  await waitFor(page, '[data-testid="final-mix"]', 300_000);
  const mixdownMs = Date.now() - t2;
  await stopTrace();
  await expectLoaded(page, 'instrumental');
  await expectLoaded(page, 'vocals');
  await expect(page.getByTestId('clock')).toContainText(clockText);
  await expect(page.getByTestId('final-mix')).toContainText(clockText);

  const tasks = await page.evaluate((start) => window.mixerLongTasks.filter((t) => t.start >= start), from);
  const longest = Math.max(0, ...tasks.map((t) => t.duration));
  // Where the long tasks fall among the loader's and the mixdown's steps (User Timing marks).
  const steps = await page.evaluate(() =>
    performance.getEntriesByType('mark').map((m) => [m.name, Math.round(m.startTime)] as const),
  );
  const stepOf = (t: number) => steps.filter(([, at]) => at <= t).at(-1)?.[0] ?? 'before the first step';
  const phases = [
    ['load', marks[0]!.t, marks[2]!.t],
    ['previews', marks[2]!.t, marks[3]!.t],
    ['mixdown', marks[3]!.t, Number.POSITIVE_INFINITY],
  ] as const;
  const byPhase = phases.map(([name, a, b]) => {
    const inPhase = tasks.filter((t) => t.start >= a && t.start < b);
    const top = inPhase.reduce((m, t) => (t.duration > m.duration ? t : m), { start: a, duration: 0 });
    return `${name}: longest ${top.duration.toFixed(0)} ms (after ${stepOf(top.start)}), ${inPhase.length} over 50 ms`;
  });
  const report = `decode+peaks ${decodeMs} ms, previews ${previewMs} ms, mixdown ${mixdownMs} ms; long tasks: ${tasks.length}, longest ${longest.toFixed(0)} ms (target < ${LONG_TASK_TARGET_MS} ms); ${byPhase.join('; ')}`;
  console.log(`mixer ${SECONDS / 60}-minute track: ${report}`);
  const timeline = { marks, steps, tasks: tasks.map((t) => [Math.round(t.start), Math.round(t.duration)]) };
  console.log(JSON.stringify(timeline));
  testInfo.annotations.push({ type: 'long tasks', description: report });
  expect(longest).toBeLessThan(LONG_TASK_REGRESSION_MS);
});
