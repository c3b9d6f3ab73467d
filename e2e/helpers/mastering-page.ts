/** Driving the mastering screen in the specs: upload, master, read what it shows. */
import type { Page } from '@playwright/test';
import { expect } from './web-fixtures';

export const openMastering = async (page: Page, query = '') => {
  await page.goto(`/mastering${query}`);
  await expect(page.locator('[data-state="ready"]').first()).toBeVisible();
};

export const upload = async (page: Page, path: string) => {
  await page.getByLabel('Audio file').setInputFiles(path);
};

/** Waits until the original is decoded and measured (its LUFS is shown). */
export const waitForSource = async (page: Page) => {
  await expect(page.getByTestId('audio-source')).toHaveAttribute('data-state', 'loaded');
  await expect(page.getByTestId('original-lufs')).not.toHaveText('…', { timeout: 60_000 });
};

/** A number the loudness panel shows, once measured ('…' while the meter worker runs). */
export const number = async (page: Page, testId: string): Promise<number> => {
  const cell = page.getByTestId(testId);
  await expect(cell).not.toHaveText(/^(…|—)$/, { timeout: 60_000 });
  return Number((await cell.textContent())?.replace('-∞', '-Infinity'));
};

/**
 * Clicks Master Track and records every status text the screen shows on the way (a MutationObserver in the
 * page, so none is missed between polls). Returns the texts in order and the elapsed milliseconds.
 */
export const masterTrack = async (
  page: Page,
  timeout = 120_000,
): Promise<{ statuses: string[]; ms: number }> => {
  await page.evaluate(() => {
    const w = window as unknown as { __statuses: string[]; __statusObserver?: MutationObserver };
    w.__statusObserver?.disconnect();
    w.__statuses = [];
    const record = () => {
      const text = document.querySelector('[data-testid="master-status"]')?.textContent ?? '';
      // Until this run shows its first running status, the line still holds the last run's final text
      // (other parts of the page, a toast leaving, change meanwhile): that is not this run's.
      const running =
        document.querySelector('[data-testid="master-progress"]')?.getAttribute('data-state') === 'running';
      if (!running && w.__statuses.length === 0) return;
      if (text && w.__statuses[w.__statuses.length - 1] !== text) w.__statuses.push(text);
    };
    w.__statusObserver = new MutationObserver(record);
    w.__statusObserver.observe(document.body, { subtree: true, childList: true, characterData: true });
  });
  const started = Date.now();
  await page.getByTestId('master-track').click();
  const read = () => page.evaluate(() => (window as unknown as { __statuses: string[] }).__statuses);
  // This run is over when it shows its own final step (the bar of an earlier run may still read 'done').
  await expect.poll(async () => (await read()).at(-1) ?? '', { timeout }).toMatch(/ mastering complete!$/);
  const ms = Date.now() - started;
  await expect(page.getByTestId('master-progress')).toHaveAttribute('data-state', 'done');
  return { statuses: await read(), ms };
};

/** The spec's six steps (section 4) for a preset name, in order. */
export const specSteps = (preset: string) => [
  'Analyzing audio characteristics...',
  'Analyzing frequency spectrum...',
  'Creating multiple masters...',
  `Applying ${preset} mastering...`,
  'Converting processed audio...',
  'Finalizing mastered track...',
  `${preset} mastering complete!`,
];

/** The highest meter reading (peak %) over `ms`, sampled as the page draws it. */
export const maxLevel = (page: Page, ms: number) =>
  page.evaluate(async (duration) => {
    const meter = document.querySelector('[data-testid="level-meter"]') as HTMLElement | null;
    let max = 0;
    const end = performance.now() + duration;
    while (performance.now() < end) {
      max = Math.max(max, Number(meter?.dataset.level ?? 0));
      await new Promise((r) => setTimeout(r, 25));
    }
    return max;
  }, ms);

/**
 * Below the lg breakpoint the analysis panels are folded under their titles (decision 242): opens the fold
 * `id` (platform, codec, why, analysis, loudness) with a tap as a user would. On a wide screen there is no
 * fold and the panel is already open.
 */
export const openFold = async (page: Page, id: string) => {
  const fold = page.getByTestId(`fold-${id}`);
  if ((await fold.count()) === 0) return;
  if (!(await fold.evaluate((d) => (d as HTMLDetailsElement).open))) await fold.locator('summary').click();
  await expect(fold).toHaveAttribute('open', '');
};
