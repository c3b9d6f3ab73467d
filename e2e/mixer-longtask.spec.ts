import { toneAndNoise, vocal, writeWav } from './helpers/mixer-audio';
import { createMixdown, expectLoaded, uploadTrack } from './helpers/mixer-page';
import { expect, registerViaApi, test } from './helpers/web-fixtures';

/**
 * The target is < 200 ms of main-thread task while a 10-minute track decodes and renders (132-173 ms measured
 * here); the figure is reported in the test's annotation and output. DESIGN.md keeps speed out of pass/fail on
 * these shared machines, so the assertion only catches a real regression: a freeze of a second or more
 * (e.g. a whole track copied or decoded in one synchronous step on the page).
 */
const LONG_TASK_TARGET_MS = 200;
const LONG_TASK_REGRESSION_MS = 1000;

declare global {
  interface Window {
    mixerLongTasks: { start: number; duration: number }[];
  }
}

test('the page stays responsive while a 10-minute track decodes, previews and mixes down', async ({
  page,
}, testInfo) => {
  test.setTimeout(420_000);
  const dir = testInfo.outputPath('audio');
  const longInst = await writeWav(dir, 'ten-minutes.wav', toneAndNoise(600));
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
  // Page load is not what is measured: only what follows the first upload.
  const from = await page.evaluate(() => performance.now());

  const mark = (name: string) => page.evaluate((n) => ({ n, t: performance.now() }), name);
  const marks = [await mark('upload')];
  const t0 = Date.now();
  await uploadTrack(page, 'instrumental', longInst);
  await expectLoaded(page, 'instrumental', 120_000);
  const decodeMs = Date.now() - t0;
  marks.push(await mark('loaded'));
  await uploadTrack(page, 'vocals', voice);
  await expectLoaded(page, 'vocals');
  await expect(page.getByTestId('clock')).toContainText('10:00.0');

  marks.push(await mark('apply'));
  const t1 = Date.now();
  await page.getByRole('button', { name: 'Apply Sequence' }).click();
  await expect(page.getByTestId('mix-preview')).toHaveAttribute('data-state', 'ready', { timeout: 120_000 });
  const previewMs = Date.now() - t1;

  marks.push(await mark('mixdown'));
  const t2 = Date.now();
  await createMixdown(page, 300_000);
  const mixdownMs = Date.now() - t2;
  await expect(page.getByTestId('final-mix')).toContainText('10:00.0');

  const tasks = await page.evaluate((start) => window.mixerLongTasks.filter((t) => t.start >= start), from);
  const longest = Math.max(0, ...tasks.map((t) => t.duration));
  const report = `decode+peaks ${decodeMs} ms, previews ${previewMs} ms, mixdown ${mixdownMs} ms; long tasks: ${tasks.length}, longest ${longest.toFixed(0)} ms (target < ${LONG_TASK_TARGET_MS} ms)`;
  console.log(`mixer 10-minute track: ${report}`);
  // Where the long tasks fall among the loader's steps (User Timing marks), for the report.
  const steps = await page.evaluate(() =>
    performance.getEntriesByType('mark').map((m) => [m.name, Math.round(m.startTime)]),
  );
  const timeline = { marks, steps, tasks: tasks.map((t) => [Math.round(t.start), Math.round(t.duration)]) };
  console.log(JSON.stringify(timeline));
  testInfo.annotations.push({ type: 'long tasks', description: report });
  expect(longest).toBeLessThan(LONG_TASK_REGRESSION_MS);
});
