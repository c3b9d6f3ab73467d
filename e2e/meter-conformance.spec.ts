import { readFileSync } from 'node:fs';
import { testWav } from './helpers/mastering-audio';
import { openMastering, upload, waitForSource } from './helpers/mastering-page';
import { signUp } from './helpers/mastering-users';
import { expect, expectToast, test } from './helpers/web-fixtures';

const data = JSON.parse(
  readFileSync(new URL('../src/web/lib/meter-conformance.json', import.meta.url), 'utf8'),
) as { cases: { id: string; measured: number }[] };

/** The loudness panel names the meter's EBU conformance and links to the page listing every case. */
test('the loudness panel links to the EBU Tech 3341/3342 results, case by case', async ({ page }) => {
  await signUp(page, 'pro');
  await openMastering(page);
  await upload(page, testWav('conformance-source', 'pop', 4));
  await expectToast(page, 'Audio loaded');
  await waitForSource(page);
  const n = data.cases.length;
  // The meter's figures are one click away under the panel's sentence (decision 253).
  await page.getByTestId('loudness-panel').getByRole('button', { name: 'Show the numbers' }).click();
  const link = page.getByTestId('conformance-link');
  await expect(link).toHaveText(`Meter conforms to EBU Tech 3341/3342 (${n} of ${n} cases)`);
  await link.click();
  await expect(page).toHaveURL(/\/meter-conformance$/);
  await expect(page.getByRole('heading', { name: 'Meter conformance' })).toBeVisible();
  const rows = page.getByTestId('conformance-table').locator('tbody tr');
  await expect(rows).toHaveCount(n);
  await expect(page.locator('[data-case="3341-19"]')).toContainText('+3.0 dBTP');
  await expect(page.locator('[data-case="3341-19"]')).toContainText(
    `${data.cases.find((c) => c.id === '3341-19')!.measured.toFixed(2)} dBTP`,
  );
  await expect(page.locator('[data-case="3342-4"]')).toContainText('Pass');
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `screenshots/meter-conformance-${width}.png`, fullPage: true });
  }
});
