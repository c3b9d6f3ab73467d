/**
 * Issue 30, item 1: credits kept through an upgrade are spent before crowns, and every balance shows in
 * the header's account menu and on the mastering page, at 1280 px and on a 375 px touch screen.
 */
import { testWav } from './helpers/mastering-audio';
import { masterTrack, openMastering, upload, waitForSource } from './helpers/mastering-page';
import { currentUser, signUp } from './helpers/mastering-users';
import { openAccountMenu, press, upgradedFromPro, WIDTHS } from './helpers/plans';
import { expect, test, toastWith } from './helpers/web-fixtures';

for (const width of WIDTHS) {
  test.describe(`balances at ${width.name}`, () => {
    test.use(width.use);

    test('Unlimited with kept credits: every balance shown, a master download takes a mastering credit, not a crown', async ({
      page,
    }) => {
      test.setTimeout(180_000);
      const user = await upgradedFromPro(page);
      await openMastering(page);

      // The header's menu and the mastering page: 9 + 9 credits and 35 crowns, and the order of spending.
      const menu = await openAccountMenu(page, user.username);
      await expect(menu).toContainText('Unlimited · 9 Mix credits · 9 Mastering credits · 35 Crowns');
      await expect(menu).toContainText('A download uses a matching credit first, then a crown.');
      await page.keyboard.press('Escape');
      await expect(menu).toBeHidden();
      const status = page.getByTestId('credit-status');
      for (const line of ['9 Mix credits', '9 Mastering credits', '35 Crowns'])
        await expect(status.getByText(line, { exact: true })).toBeVisible();
      await expect(status).toContainText('A download uses a matching credit first, then a crown.');

      // A real master, downloaded as WAV: the server spends a mastering credit.
      await upload(page, testWav(`kept-${width.name.replace(' ', '-')}`, 'pop', 6));
      await waitForSource(page);
      await masterTrack(page);
      await expect(toastWith(page, 'Mastering Complete')).toBeHidden({ timeout: 15_000 });
      const download = page.waitForEvent('download');
      await press(page, page.getByTestId('download-button'));
      const dialog = page.getByRole('dialog', { name: 'Choose Download Format' });
      await press(page, dialog.getByRole('button', { name: 'Download (1 format(s))' }));
      expect((await download).suggestedFilename()).toMatch(/^mastered-[a-z]+-\d+\.wav$/);
      await expect.poll(async () => (await currentUser(page.request)).masteringCredits).toBe(8);
      expect(await currentUser(page.request)).toMatchObject({
        mixCredits: 9,
        masteringCredits: 8,
        crowns: 35,
      });
      await expect(status.getByText('8 Mastering credits', { exact: true })).toBeVisible();
      await expect(status.getByText('35 Crowns', { exact: true })).toBeVisible();
    });

    test('a fresh Unlimited account is shown with crowns only, without the spending note', async ({
      page,
    }) => {
      const unlimited = await signUp(page, 'unlimited');
      await openMastering(page);
      const status = page.getByTestId('credit-status');
      await expect(status.getByText('35 Crowns', { exact: true })).toBeVisible();
      await expect(status).not.toContainText('Mix credits');
      const menu = await openAccountMenu(page, unlimited.username);
      await expect(menu).toContainText('Unlimited · 35 Crowns');
      await expect(menu).not.toContainText('a matching credit first');
    });
  });
}
