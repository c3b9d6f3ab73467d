/** Accounts for the mastering specs: subscribers are made through the local payment provider's checkout. */
import type { APIRequestContext, Page } from '@playwright/test';
import type { PublicUser } from '../../src/shared/api/user';
import type { PlanId } from '../../src/shared/plans';
import { expect, registerViaApi } from './web-fixtures';

export const TEST_CARD = { number: '4242424242424242', expiry: '12/34', cvc: '123' };

/** Pays a plan on the local provider's hosted checkout with the provider's success test card. */
export const subscribe = async (request: APIRequestContext, plan: PlanId): Promise<PublicUser> => {
  const session = await request.post('/api/create-checkout-session', {
    data: { lookup_key: plan === 'pro' ? 'pro_plan' : 'unlimited_plan' },
  });
  expect(session.ok(), await session.text()).toBe(true);
  const { url } = (await session.json()) as { url: string };
  const paid = await request.post(new URL(url).pathname, { form: TEST_CARD, maxRedirects: 0 });
  expect(paid.status(), await paid.text()).toBe(303);
  return currentUser(request);
};

export const currentUser = async (request: APIRequestContext): Promise<PublicUser> => {
  const res = await request.get('/api/auth/user');
  expect(res.ok()).toBe(true);
  return (await res.json()) as PublicUser;
};

/** A fresh signed-in account on `plan` (or a trial account), with the session cookie in the page. */
export const signUp = async (page: Page, plan: PlanId | 'trial'): Promise<PublicUser> => {
  await registerViaApi(page);
  if (plan === 'trial') return currentUser(page.request);
  const user = await subscribe(page.request, plan);
  expect(user.subscriptionType).toBe(plan);
  return user;
};
