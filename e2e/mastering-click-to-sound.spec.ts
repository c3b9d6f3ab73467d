import { testWav } from './helpers/mastering-audio';
import { maxLevel, openMastering, upload, waitForSource } from './helpers/mastering-page';
import { signUp } from './helpers/mastering-users';
import { expect, test } from './helpers/web-fixtures';

/**
 * Click to sound (issue 17, decision 142): while the original plays, 'Master Track' switches what plays to
 * the live chain (the render's kernels in the AudioWorklet) with the render's settings and plan at once,
 * long before the render is done; the finished master then takes over where the playhead is.
 */

test('while the original plays, the master is heard before the render finishes, then the render takes over', async ({
  page,
}) => {
  test.setTimeout(240_000);
  await signUp(page, 'pro');
  await openMastering(page);
  await upload(page, testWav('click-to-sound', 'pop', 240));
  await waitForSource(page);
  await expect(page.getByTestId('analysis-summary')).toHaveAttribute('data-state', 'ready', {
    timeout: 60_000,
  });
  await page.getByRole('button', { name: 'Play', exact: true }).click();
  await expect.poll(() => maxLevel(page, 300)).toBeGreaterThan(2);
  // The click, then the first moment the live master is what plays and the meter reads sound, timed in
  // the page (the master plays loudness-matched to the original, as 'Play mastered' does).
  const heard = await page.evaluate(async () => {
    const card = document.querySelector('[data-testid="audio-source"]') as HTMLElement;
    const meter = document.querySelector('[data-testid="level-meter"]') as HTMLElement;
    const status = () =>
      document.querySelector('[data-testid="master-progress"]')?.getAttribute('data-state');
    const started = performance.now();
    (document.querySelector('[data-testid="master-track"]') as HTMLElement).click();
    let switched = Number.POSITIVE_INFINITY;
    while (performance.now() - started < 10_000) {
      const now = performance.now();
      if (card.dataset.hearing === 'live-master' && switched === Number.POSITIVE_INFINITY) switched = now;
      // The meter reads the last 100 ms every 100 ms: 250 ms after the switch it holds only the live chain's
      // samples, so sound then is the live master's, not the original's tail.
      if (
        card.dataset.hearing === 'live-master' &&
        now - switched > 250 &&
        Number(meter.dataset.level ?? 0) > 2
      )
        return { ms: switched - started, render: status() };
      await new Promise((r) => requestAnimationFrame(r));
    }
    return { ms: Number.POSITIVE_INFINITY, render: status() };
  });
  // The live chain's first samples are scheduled 30 ms after the switch (the player's start offset).
  console.log(
    `click to the live master engaged: ${Math.round(heard.ms)} ms (+30 ms to its first samples), render ${heard.render}`,
  );
  // Heard while the render still runs: the live chain, not the finished file.
  expect(heard.render).toBe('running');
  expect(heard.ms).toBeLessThan(1_000);
  await expect(page.getByText('You hear the master live while it renders')).toBeVisible();
  await expect(page.getByTestId('master-progress')).toHaveAttribute('data-state', 'done', {
    timeout: 120_000,
  });
  // The finished master plays on from where the playhead was (the mastered card's Stop).
  await expect(page.getByTestId('mastered-card').getByRole('button', { name: 'Stop' })).toBeVisible();
  await expect(page.getByTestId('audio-source')).toHaveAttribute('data-hearing', 'mastered');
  expect(await maxLevel(page, 1_000)).toBeGreaterThan(2);
  await page.getByTestId('mastered-card').getByRole('button', { name: 'Stop' }).click();
});
