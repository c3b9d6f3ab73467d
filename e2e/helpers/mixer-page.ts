import { expect, type Page } from '@playwright/test';

/** Page steps shared by the mixer specs. */
export const uploadTrack = async (page: Page, type: 'vocals' | 'instrumental', path: string) => {
  const label = type === 'vocals' ? 'Vocals Track file' : 'Instrumental Track file';
  await page.getByLabel(label).setInputFiles(path);
};

export const expectLoaded = async (page: Page, type: 'vocals' | 'instrumental', timeout = 30_000) => {
  await expect(page.getByTestId(`upload-${type}`)).toHaveAttribute('data-state', 'loaded', { timeout });
};

export const clip = (page: Page, id: string) => page.locator(`[data-clip-id="${id}"]`);

export const clipPosition = async (page: Page, id: string): Promise<number> =>
  Number(await clip(page, id).getAttribute('data-position'));

/** Clicks the scrub bar at a fraction of its width (a seek there). */
export const seekTo = async (page: Page, fraction: number) => {
  const bar = page.getByTestId('scrub-bar');
  const box = (await bar.boundingBox())!;
  await bar.click({ position: { x: box.width * fraction, y: box.height / 2 } });
};

export const playheadSeconds = async (page: Page): Promise<number> =>
  Number(await page.getByTestId('playhead').getAttribute('data-seconds'));

/** Loads both tracks and applies the sequence; resolves once the previews are ready. */
export const loadAndApply = async (page: Page, vocalPath: string, instrumentalPath: string) => {
  await uploadTrack(page, 'vocals', vocalPath);
  await expectLoaded(page, 'vocals');
  await uploadTrack(page, 'instrumental', instrumentalPath);
  await expectLoaded(page, 'instrumental');
  await page.getByRole('button', { name: 'Apply Sequence' }).click();
  await expect(page.getByTestId('mix-preview')).toHaveAttribute('data-state', 'ready', { timeout: 60_000 });
};

export const createMixdown = async (page: Page, timeout = 60_000) => {
  await page.getByRole('button', { name: 'Create Mixdown' }).click();
  await expect(page.getByRole('heading', { name: 'Final Mix' })).toBeVisible({ timeout });
};
