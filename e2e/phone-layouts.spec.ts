import type { Page } from '@playwright/test';
import { testWav } from './helpers/mastering-audio';
import { masterTrack, openMastering, upload, waitForSource } from './helpers/mastering-page';
import { signUp } from './helpers/mastering-users';
import { instrumental, vocal, writeWav } from './helpers/mixer-audio';
import { clip, clipPosition, expectLoaded, uploadTrack } from './helpers/mixer-page';
import { BYPASS_SECRET, expect, expectToast, registerViaApi, test, toastWith } from './helpers/web-fixtures';

/** Issue 30, item 5: the mastering page and the mixer on a 375 × 800 touch screen (decisions 240-242). */
test.use({ viewport: { width: 375, height: 800 }, hasTouch: true, isMobile: true });

const SCREEN = 800;

test('mastering on a phone: source, controls and Master Track on the first screen, panels folded below', async ({
  page,
}, testInfo) => {
  test.setTimeout(180_000);
  await signUp(page, 'pro');
  await openMastering(page);
  await upload(page, testWav('phone-source', 'pop', 12));
  await waitForSource(page);
  // The 'Audio loaded' toast (5 s) sits over the bottom of the screen: the picture is taken without it.
  await expect(toastWith(page, 'Audio loaded')).toBeHidden({ timeout: 10_000 });
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: testInfo.outputPath('phone-mastering.png') });
  await page.screenshot({ path: 'docs/screenshots/phone-mastering.png' });

  const top = async (testId: string) => (await page.getByTestId(testId).boundingBox())!.y;
  // The drop zone / source and the controls start within the first screen; the sticky Master Track
  // button is in sight without scrolling.
  expect(await top('audio-source')).toBeLessThan(SCREEN);
  expect(await top('mastering-controls')).toBeLessThan(SCREEN);
  const button = (await page.getByTestId('master-track').boundingBox())!;
  expect(button.y + button.height).toBeLessThanOrEqual(SCREEN);
  await expect(page.getByTestId('master-track')).toBeInViewport();
  // The analysis panels come after the controls, folded.
  const fold = page.getByTestId('fold-loudness');
  await expect(fold).toBeVisible();
  expect(await top('fold-loudness')).toBeGreaterThan(await top('mastering-controls'));
  await expect(page.getByTestId('loudness-panel')).toBeHidden();
  const pageHeight = await page.evaluate(() => document.documentElement.scrollHeight);

  // Master from the first screen, then the result shows above the folded panels.
  await masterTrack(page);
  await expect(page.getByTestId('mastered-card')).toBeVisible();
  expect(await top('mastered-card')).toBeLessThan(await top('fold-loudness'));
  // A fold opens with a tap and shows the panel.
  await page.getByTestId('fold-loudness').locator('summary').tap();
  await expect(page.getByTestId('loudness-panel')).toBeVisible();
  testInfo.annotations.push({ type: 'page height before mastering', description: `${pageHeight} px` });
});

test('toasts on a phone never cover the navigation', async ({ page }) => {
  await signUp(page, 'pro');
  await openMastering(page);
  await upload(page, testWav('phone-toast', 'pop', 4));
  const toast = await expectToast(page, 'Audio loaded');
  const header = (await page.locator('header').first().boundingBox())!;
  const box = (await toast.boundingBox())!;
  expect(box.y).toBeGreaterThan(header.y + header.height);
  expect(box.y + box.height).toBeLessThanOrEqual(SCREEN);
});

test('the mixer on a phone: 20 px per second, a 40 px finger drag moves a clip 2 s, fine drag and pinch', async ({
  page,
}, testInfo) => {
  const dir = testInfo.outputPath('audio');
  await registerViaApi(page);
  await page.goto('/mixer');
  await uploadTrack(page, 'vocals', await writeWav(dir, 'v.wav', vocal(20)));
  await expectLoaded(page, 'vocals');
  await uploadTrack(page, 'instrumental', await writeWav(dir, 'i.wav', instrumental(30)));
  await expectLoaded(page, 'instrumental');
  await page.getByTestId('sequencer').scrollIntoViewIfNeeded();

  // 60 s timeline (the floor): at least 20 px per second on the lane.
  // The fingers go on the clip and the picture shows it, not a toast over it ('Processing complete' stays 10 s).
  await expect(page.locator('li[data-variant][data-state="open"]')).toHaveCount(0, { timeout: 20_000 });
  const lane = (await page.getByTestId('lane-vocals').boundingBox())!;
  const pxPerSecond = lane.width / 60;
  expect(pxPerSecond).toBeGreaterThanOrEqual(19.9);
  await page.screenshot({ path: testInfo.outputPath('phone-mixer.png') });
  await page.screenshot({ path: 'docs/screenshots/phone-mixer.png' });

  const cdp = await page.context().newCDPSession(page);
  const box = (await clip(page, 'vocals-clip').boundingBox())!;
  const drag = async (fromX: number, px: number) => {
    const at = (await clip(page, 'vocals-clip').boundingBox())!;
    const y = at.y + at.height / 2;
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x: fromX, y }] });
    for (let i = 1; i <= 8; i++) {
      await cdp.send('Input.dispatchTouchEvent', {
        type: 'touchMove',
        touchPoints: [{ x: fromX + (px * i) / 8, y }],
      });
    }
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  };
  // A tap-sized wobble (under the 10 px threshold) does not move the clip.
  await drag(box.x + 20, 6);
  expect(await clipPosition(page, 'vocals-clip')).toBe(0);
  // A 40 px finger drag: 40 / pxPerSecond s (2 s at 20 px/s), not the 12.7 s of a fit-to-width lane.
  await drag(box.x + 20, 40);
  await expect.poll(() => clipPosition(page, 'vocals-clip')).toBeCloseTo(40 / pxPerSecond, 1);
  const moved = await clipPosition(page, 'vocals-clip');
  expect(moved).toBeGreaterThan(1.5);
  expect(moved).toBeLessThan(2.5);

  // Fine drag: the same 40 px moves it a quarter as far.
  // Tapped again only if it is still off: the key and tempo panel above can grow while the tap lands (its
  // analysis finishes at any time) and move the button from under the finger (seen once in CI).
  const fine = page.getByRole('button', { name: 'Fine drag' });
  await expect
    .poll(async () => {
      if ((await fine.getAttribute('aria-pressed')) !== 'true') await fine.tap();
      return fine.getAttribute('aria-pressed');
    })
    .toBe('true');
  await expect(page.getByRole('button', { name: 'Fine drag' })).toHaveAttribute('aria-pressed', 'true');
  await clip(page, 'vocals-clip').scrollIntoViewIfNeeded();
  const now = (await clip(page, 'vocals-clip').boundingBox())!;
  await drag(now.x + 20, 40);
  await expect.poll(() => clipPosition(page, 'vocals-clip')).toBeCloseTo(moved + 10 / pxPerSecond, 1);

  // Pinch out on the timeline: two fingers moving apart zoom in.
  const strip = page.locator('[data-zoom]');
  const before = Number(await strip.getAttribute('data-zoom'));
  const scroller = (await page.getByTestId('timeline-scroll').boundingBox())!;
  const cy = scroller.y + 10;
  const cx = scroller.x + scroller.width / 2;
  const pinch = (type: 'touchStart' | 'touchMove', d: number) =>
    cdp.send('Input.dispatchTouchEvent', {
      type,
      touchPoints: [
        { x: cx - d, y: cy, id: 1 },
        { x: cx + d, y: cy, id: 2 },
      ],
    });
  await pinch('touchStart', 30);
  for (let d = 40; d <= 60; d += 10) await pinch('touchMove', d);
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await expect.poll(async () => Number(await strip.getAttribute('data-zoom'))).toBeCloseTo(before * 2, 0);
});

/**
 * What a phone shows of a page, measured: how far the page scrolls sideways, which main navigation links
 * end past the screen's edge, and which rounded boxes (cards, buttons, inputs) cross the 16 px margin.
 */
const phoneFit = (page: Page) =>
  page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const label = (el: Element) => `${el.tagName} "${(el.textContent ?? '').trim().slice(0, 30)}"`;
    const links = [...document.querySelectorAll('header nav[aria-label="Main"] a')].filter((a) => {
      const r = a.getBoundingClientRect();
      return r.width > 0 && (r.left < 0 || r.right > width);
    });
    const boxes = [...document.querySelectorAll('main *')].filter((el) => {
      const r = el.getBoundingClientRect();
      const rounded = Number.parseFloat(getComputedStyle(el).borderTopLeftRadius) > 0;
      return rounded && r.width > 2 && r.height > 2 && (r.left < 15.5 || r.right > width - 15.5);
    });
    return {
      sideways: document.documentElement.scrollWidth - width,
      linksCut: links.map(label),
      boxesOverMargin: boxes.map(label).slice(0, 5),
    };
  });

const expectPhoneFit = async (page: Page, path: string) => {
  await page.goto(path);
  await expect(page.locator('main [data-state="ready"]').first()).toBeVisible();
  await expect(page.locator('main [data-state="loading"]')).toHaveCount(0);
  expect({ path, ...(await phoneFit(page)) }).toEqual({
    path,
    sideways: 0,
    linksCut: [],
    boxesOverMargin: [],
  });
};

test('the site pages fit a 375 px phone: no sideways scroll, every header link in sight, cards inside the margin', async ({
  page,
}) => {
  for (const path of [
    '/',
    '/pricing',
    '/help',
    '/auth',
    '/forgot-password',
    '/test-checkout',
    '/no-such-page',
  ]) {
    await expectPhoneFit(page, path);
  }
  // The developer badge takes its own line on a phone instead of widening the header.
  await expectPhoneFit(page, `/?bypass=${BYPASS_SECRET}`);
  await expect(page.getByRole('button', { name: 'Developer Mode (Click to exit)' })).toBeInViewport({
    ratio: 1,
  });
  await page.getByRole('button', { name: 'Developer Mode (Click to exit)' }).tap();
  await expect(page).toHaveURL('/auth');
  // Signed in the header has six links, and the account pages carry long email addresses.
  await signUp(page, 'pro');
  for (const path of ['/', '/pricing', '/library', '/settings', '/checkout', '/buy-crowns']) {
    await expectPhoneFit(page, path);
  }
  // The plan-change dialog scrolls on a phone; its confirm button stays in sight without scrolling it.
  await page.goto('/settings');
  await page.getByRole('button', { name: 'Change Subscription' }).tap();
  const dialog = page.getByRole('dialog', { name: 'Change Subscription' });
  await expect(dialog.getByText('Due today')).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Upgrade to Unlimited' })).toBeInViewport({ ratio: 1 });
});
