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
