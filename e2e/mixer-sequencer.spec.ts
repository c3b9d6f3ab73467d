import { instrumental, vocal, writeWav } from './helpers/mixer-audio';
import { clip, clipPosition, expectLoaded, playheadSeconds, uploadTrack } from './helpers/mixer-page';
import { expect, registerViaApi, test } from './helpers/web-fixtures';

test.beforeEach(async ({ page }, testInfo) => {
  const dir = testInfo.outputPath('audio');
  await registerViaApi(page);
  await page.goto('/mixer');
  await uploadTrack(page, 'vocals', await writeWav(dir, 'v.wav', vocal(20)));
  await expectLoaded(page, 'vocals');
  await uploadTrack(page, 'instrumental', await writeWav(dir, 'i.wav', instrumental(30)));
  await expectLoaded(page, 'instrumental');
  await page.getByTestId('sequencer').scrollIntoViewIfNeeded();
});

test('shortcuts, help popover, zoom, knob drag and Reset All', async ({ page }) => {
  // An empty-ish timeline is 60 s long (the floor), whatever the shorter sources.
  await expect(page.getByTestId('scrub-labels')).toHaveText(/0:00.*0:15.*0:30.*0:45.*1:00/);

  await page.getByText('Keyboard shortcuts').click();
  await expect(page.getByText('Cut at playhead', { exact: true })).toBeVisible();
  await page.getByText('Keyboard shortcuts').click();

  const strip = page.locator('[data-zoom]');
  const scroller = (await page.getByTestId('timeline-scroll').boundingBox())!;
  await page.getByRole('button', { name: 'Zoom in' }).click();
  await expect(strip).toHaveAttribute('data-zoom', '2');
  expect((await strip.boundingBox())!.width).toBeCloseTo(scroller.width * 2, -1);
  await page.getByRole('button', { name: 'Zoom out' }).click();
  await expect(strip).toHaveAttribute('data-zoom', '1');

  // Dragging the knob: seeks follow (debounced), the last one lands where the pointer let go.
  const bar = (await page.getByTestId('scrub-bar').boundingBox())!;
  const y = bar.y + bar.height / 2;
  await page.mouse.move(bar.x + 2, y);
  await page.mouse.down();
  await page.mouse.move(bar.x + bar.width * 0.3, y, { steps: 10 });
  await page.mouse.move(bar.x + bar.width * 0.25, y, { steps: 5 });
  await page.mouse.up();
  await expect.poll(() => playheadSeconds(page)).toBeCloseTo(15, 0);
  const knob = page.getByRole('slider', { name: 'Playback position' });
  await knob.focus();
  const before = await playheadSeconds(page);
  await page.keyboard.press('ArrowRight');
  await expect.poll(() => playheadSeconds(page)).toBeCloseTo(before + 1, 1);
  await page.getByRole('heading', { name: 'Track Sequencer' }).click();

  // Select, clear with Escape, select again and cut with S.
  await clip(page, 'vocals-clip').click({ position: { x: 20, y: 20 } });
  await expect(clip(page, 'vocals-clip')).toHaveAttribute('data-selected', 'true');
  await page.keyboard.press('Escape');
  await expect(clip(page, 'vocals-clip')).toHaveAttribute('data-selected', 'false');
  await clip(page, 'vocals-clip').click({ position: { x: 20, y: 20 } });
  await page.keyboard.press('s');
  await expect(clip(page, 'vocals-clip-1')).toBeVisible();
  expect(await clipPosition(page, 'vocals-clip-2')).toBeCloseTo(before + 1, 1);
  // The instrumental lane is not editable: clicking it selects nothing, S cuts nothing.
  await clip(page, 'instrumental-clip').click({ position: { x: 20, y: 20 } });
  await page.keyboard.press('s');
  await expect(clip(page, 'instrumental-clip')).toHaveAttribute('data-selected', 'false');
  await expect(clip(page, 'instrumental-clip-1')).toHaveCount(0);

  // Space plays and pauses.
  await page.keyboard.press('Space');
  await expect(page.getByRole('button', { name: 'Pause', exact: true })).toBeVisible();
  await page.keyboard.press('Space');
  await expect(page.getByRole('button', { name: 'Play', exact: true })).toBeVisible();

  // Reset All: full-length clips again, playhead at 0.
  await page.getByRole('button', { name: 'Reset All' }).click();
  await expect(clip(page, 'vocals-clip')).toBeVisible();
  await expect(clip(page, 'vocals-clip-1')).toHaveCount(0);
  expect(await clipPosition(page, 'vocals-clip')).toBe(0);
  await expect.poll(() => playheadSeconds(page)).toBe(0);
});

test.describe('on a touch screen', () => {
  test.use({ hasTouch: true });

  test('a vocal clip is dragged with a finger', async ({ page }) => {
    const lane = (await page.getByTestId('lane-vocals').boundingBox())!;
    const box = (await clip(page, 'vocals-clip').boundingBox())!;
    const cdp = await page.context().newCDPSession(page);
    const y = box.y + box.height / 2;
    const touch = (type: 'touchStart' | 'touchMove' | 'touchEnd', x: number) =>
      cdp.send('Input.dispatchTouchEvent', {
        type,
        touchPoints: type === 'touchEnd' ? [] : [{ x, y }],
      });
    await touch('touchStart', box.x + 10);
    for (let i = 1; i <= 5; i++) await touch('touchMove', box.x + 10 + (lane.width * 0.2 * i) / 5);
    await touch('touchEnd', 0);
    // A fifth of 60 s: 12 s, snapped to hundredths.
    await expect.poll(() => clipPosition(page, 'vocals-clip')).toBeCloseTo(12, 0);
    await page.keyboard.press('ControlOrMeta+z');
    await expect.poll(() => clipPosition(page, 'vocals-clip')).toBe(0);
  });
});
