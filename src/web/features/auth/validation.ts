import { forgotPasswordBody, PASSWORD_MIN_LENGTH, registerBody } from '../../../shared/api/auth';
import { MESSAGES } from '../../../shared/messages';

/** A failed check, shown as a destructive toast with the spec's title and text (spec 5). */
export interface Problem {
  title: string;
  description: string;
}

export const checkLogin = (v: { email: string; password: string }): Problem | null =>
  !v.email.trim() || !v.password
    ? { title: 'Missing information', description: MESSAGES.loginMissing }
    : null;

export const checkRegister = (v: { email: string; password: string; confirm: string }): Problem | null => {
  if (!v.email.trim() || !v.password || !v.confirm) {
    return { title: 'Missing information', description: 'Please fill out all fields' };
  }
  if (v.password !== v.confirm) {
    return { title: "Passwords don't match", description: 'Please ensure both passwords match' };
  }
  // The server applies the same shared schema; checking here first saves a round trip.
  const parsed = registerBody.safeParse({ email: v.email, password: v.password });
  if (!parsed.success) {
    return {
      title: 'Registration failed',
      description: parsed.error.issues[0]?.message ?? MESSAGES.invalidEmail,
    };
  }
  return null;
};

/** Forgot password: the address must be valid ('Please enter a valid email address'). */
export const checkForgotEmail = (email: string): string | null =>
  forgotPasswordBody.safeParse({ email }).success ? null : MESSAGES.invalidEmail;

/** Reset password: per-field messages (the mismatch shows on the confirm field, spec 5). */
export const checkResetPassword = (v: {
  password: string;
  confirm: string;
}): { password?: string; confirm?: string } => {
  const errors: { password?: string; confirm?: string } = {};
  if (v.password.length < PASSWORD_MIN_LENGTH) errors.password = MESSAGES.passwordTooShort;
  if (v.password !== v.confirm) errors.confirm = "Passwords don't match";
  return errors;
};
