/** The plans specs (issue 30): both widths, accounts on a chosen plan with chosen balances. */
import type { Locator, Page } from '@playwright/test';
import type { PublicUser } from '../../src/shared/api/user';
import { currentUser, signUp } from './mastering-users';
import { expect } from './web-fixtures';

/** Desktop, and a phone with touch (375 × 800). */
export const WIDTHS = [
  { name: '1280', use: { viewport: { width: 1280, height: 900 } } },
  { name: '375 touch', use: { viewport: { width: 375, height: 800 }, hasTouch: true, isMobile: true } },
] as const;

/** A tap on a touch screen, a click otherwise. */
export const press = async (page: Page, target: Locator) => {
  if ((page.viewportSize()?.width ?? 1280) < 640) await target.tap();
  else await target.click();
};

/**
 * The days of a Pro month that starts now: one calendar month (UTC), clamped to the next month's last day
 * (Jan 31 -> Feb 28), so 28 to 31 days. Counted here apart from the server's billing-period.ts; a
 * subscription bought a moment ago has all of them unused.
 */
export const proMonthDays = (now = new Date()): number => {
  const lastDay = (monthsAhead: number) =>
    new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + monthsAhead + 1, 0)).getUTCDate();
  const day = now.getUTCDate();
  return lastDay(0) - day + Math.min(day, lastDay(1));
};

export const spend = async (page: Page, type: 'mix' | 'mastering') => {
  const res = await page.request.post('/api/spend-credit', {
    data: { type, idempotencyKey: crypto.randomUUID() },
  });
  expect(res.ok(), await res.text()).toBe(true);
  return (await res.json()) as { message: string; user: PublicUser };
};

/** Issue 30's account: Pro, one mix and one mastering download, then upgraded: 9 + 9 credits, 35 crowns. */
export const upgradedFromPro = async (page: Page): Promise<PublicUser> => {
  await signUp(page, 'pro');
  await spend(page, 'mix');
  await spend(page, 'mastering');
  const up = await page.request.post('/api/auth/change-subscription', {
    data: { type: 'upgrade', plan: 'unlimited' },
  });
  expect(up.ok(), await up.text()).toBe(true);
  const user = await currentUser(page.request);
  expect(user).toMatchObject({
    subscriptionType: 'unlimited',
    mixCredits: 9,
    masteringCredits: 9,
    crowns: 35,
  });
  return user;
};

/** Opens the header's account menu and returns it. */
export const openAccountMenu = async (page: Page, username: string) => {
  const button = page.getByRole('button', { name: `Account menu for ${username}` });
  await press(page, button);
  const menu = page.getByRole('menu');
  await expect(menu).toBeVisible();
  return menu;
};
