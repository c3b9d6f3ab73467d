import { existsSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { ADMIN_EMAIL, confirmEmailViaApi, expect, loginViaApi, PASSWORD } from './web-fixtures';
import { totp } from './web-totp';

/**
 * The one admin of a run (ADMIN_EMAILS=admin@example.test) must use two-factor authentication for the
 * dashboard. Its secret and unused recovery codes are kept in the run's fresh data folder, so every spec
 * can sign in as the admin once 2FA is on (a recovery code per login: TOTP codes cannot be replayed).
 */
interface AdminState {
  secret: string;
  recoveryCodes: string[];
}

const statePath = () => join(process.env.E2E_DATA_DIR ?? '.data-e2e', 'web-e2e-admin.json');

export const saveAdminState = (state: AdminState) => writeFile(statePath(), JSON.stringify(state));

const readAdminState = async (): Promise<AdminState | null> =>
  existsSync(statePath()) ? (JSON.parse(await readFile(statePath(), 'utf8')) as AdminState) : null;

const takeRecoveryCode = async (): Promise<string> => {
  const state = await readAdminState();
  const code = state?.recoveryCodes.shift();
  if (!state || !code) throw new Error('no admin recovery code left');
  await saveAdminState(state);
  return code;
};

/** Signs in as the admin; returns whether the account already existed. */
const registerOrLogin = async (page: Page): Promise<'new' | 'existing'> => {
  const res = await page.request.post('/api/auth/register', {
    data: { email: ADMIN_EMAIL, username: 'admin', password: PASSWORD },
  });
  if (res.status() === 201) {
    await confirmEmailViaApi(page, ADMIN_EMAIL);
    return 'new';
  }
  const state = await readAdminState();
  if (!state) {
    await loginViaApi(page, ADMIN_EMAIL);
    return 'existing';
  }
  const login = await page.request.post('/api/auth/login', {
    data: { email: ADMIN_EMAIL, password: PASSWORD, recoveryCode: await takeRecoveryCode() },
  });
  expect(login.ok(), await login.text()).toBe(true);
  return 'existing';
};

/** The admin, signed in, with two-factor authentication on (turned on through the API if needed). */
export const signInAsAdmin = async (page: Page) => {
  await registerOrLogin(page);
  if (await readAdminState()) return;
  const setup = await page.request.post('/api/auth/2fa/setup');
  expect(setup.ok(), await setup.text()).toBe(true);
  const { secret } = (await setup.json()) as { secret: string };
  const enable = await page.request.post('/api/auth/2fa/enable', { data: { code: totp(secret) } });
  expect(enable.ok(), await enable.text()).toBe(true);
  const { recoveryCodes } = (await enable.json()) as { recoveryCodes: string[] };
  await saveAdminState({ secret, recoveryCodes });
};

/** The admin, signed in, with two-factor authentication off (turned off with a recovery code if needed). */
export const signInAsAdminWithoutTwoFactor = async (page: Page) => {
  await registerOrLogin(page);
  if (!(await readAdminState())) return;
  const off = await page.request.post('/api/auth/2fa/disable', {
    data: { recoveryCode: await takeRecoveryCode() },
  });
  expect(off.ok(), await off.text()).toBe(true);
  await rm(statePath(), { force: true });
};
