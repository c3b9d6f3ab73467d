import { z } from 'zod';
import { MESSAGES } from '../messages';

export const PASSWORD_MIN_LENGTH = 6;
export const PASSWORD_MAX_LENGTH = 200;

const email = z
  .string({ error: MESSAGES.invalidEmail })
  .trim()
  .max(254, MESSAGES.invalidEmail)
  .pipe(z.email({ error: MESSAGES.invalidEmail }));

const newPassword = z
  .string({ error: MESSAGES.passwordTooShort })
  .min(PASSWORD_MIN_LENGTH, MESSAGES.passwordTooShort)
  .max(PASSWORD_MAX_LENGTH, 'Password must be at most 200 characters long');

export const loginBody = z.object({
  email: z.string({ error: MESSAGES.loginMissing }).trim().min(1, MESSAGES.loginMissing).max(254),
  password: z.string({ error: MESSAGES.loginMissing }).min(1, MESSAGES.loginMissing).max(PASSWORD_MAX_LENGTH),
  /** Second factor, only for accounts with two-factor authentication on. */
  otp: z.string().max(12).optional(),
  recoveryCode: z.string().max(20).optional(),
});
export type LoginBody = z.infer<typeof loginBody>;

export const registerBody = z.object({
  email,
  /** Defaults to the part of the email before '@' (spec 3). */
  username: z.string().trim().min(1).max(64).optional(),
  password: newPassword,
});
export type RegisterBody = z.infer<typeof registerBody>;

export const forgotPasswordBody = z.object({ email });
export type ForgotPasswordBody = z.infer<typeof forgotPasswordBody>;

export const resetPasswordBody = z.object({
  token: z.string({ error: MESSAGES.resetLinkInvalid }).min(1, MESSAGES.resetLinkInvalid).max(200),
  newPassword,
});
export type ResetPasswordBody = z.infer<typeof resetPasswordBody>;

export const usernameFromEmail = (address: string): string => address.split('@')[0] ?? address;

export const twoFactorCodeBody = z.object({
  code: z.string({ error: MESSAGES.twoFactorRequired }).trim().min(1, MESSAGES.twoFactorRequired).max(20),
});
export const twoFactorDisableBody = z.object({
  otp: z.string().max(12).optional(),
  recoveryCode: z.string().max(20).optional(),
});
export const twoFactorSetupResponse = z.object({ secret: z.string(), otpauthUrl: z.string() });
export const twoFactorEnableResponse = z.object({ recoveryCodes: z.array(z.string()) });

/** POST /api/auth/verify-email: the token of the mailed link, redeemed by the signed-in account. */
export const verifyEmailBody = z.object({
  token: z.string({ error: MESSAGES.verifyLinkInvalid }).min(1, MESSAGES.verifyLinkInvalid).max(200),
});
export type VerifyEmailBody = z.infer<typeof verifyEmailBody>;

/** POST /api/auth/logout: `all` ends every session of the account, this one included. */
export const logoutBody = z.object({ all: z.boolean().optional() });
export type LogoutBody = z.infer<typeof logoutBody>;

/** One live session of the signed-in account, as Settings lists it (GET /api/auth/sessions). */
export const accountSession = z.object({
  id: z.string(),
  /** "Chrome on Windows": read from the browser's User-Agent at sign-in. */
  device: z.string(),
  /** The client address the session was last seen from, as the server recorded it. */
  address: z.string().nullable(),
  createdAt: z.string(),
  lastSeenAt: z.string(),
  /** The session making this request. */
  current: z.boolean(),
});
export type AccountSession = z.infer<typeof accountSession>;
export const accountSessionsResponse = z.object({
  sessions: z.array(accountSession),
  /** Live sessions an account may hold; a sign-in beyond it ends the one unused longest. */
  limit: z.number().int(),
});
export type AccountSessionsResponse = z.infer<typeof accountSessionsResponse>;
export const accountSessionParam = z.object({
  id: z.uuid({ error: 'Unknown session' }),
});

/** POST /api/auth/email-change: the new address, and the current password as proof it is the owner. */
export const changeEmailBody = z.object({
  newEmail: email,
  password: z
    .string({ error: 'Enter your current password' })
    .min(1, 'Enter your current password')
    .max(PASSWORD_MAX_LENGTH),
});
export type ChangeEmailBody = z.infer<typeof changeEmailBody>;
