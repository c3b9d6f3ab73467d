/**
 * User-facing texts that the server and the browser share, quoted from the spec where it gives them.
 * Screens quote the rest of the spec's strings where they are shown.
 */
export const MESSAGES = {
  loginMissing: 'Please enter both email and password',
  invalidEmail: 'Please enter a valid email address',
  passwordTooShort: 'Password must be at least 6 characters long',
  passwordTooCommon: 'This password is too common. Please choose another one.',
  invalidCredentials: 'Invalid email or password',
  emailTaken: 'An account with this email already exists',
  notSignedIn: 'Please log in to continue',
  adminRequired: 'Admin Access Required',
  resetLinkInvalid: 'This password reset link is invalid or has expired.',
  resetSent: 'If an account exists for that email, a password reset link has been sent.',
  resetDone: 'Your password has been reset. You can now log in with your new password.',
  contactMissing: 'Please fill in all fields',
  contactSent: "Thanks for reaching out! We'll get back to you within 24 hours on business days.",
  tooManyRequests: 'Too many attempts. Please wait a minute and try again.',
  crossSite: 'Cross-site requests are not allowed',
  internal: 'Something went wrong on our side. Please try again.',
  notFound: 'Not found',
  invalidTrackId: 'Invalid track ID',
  invalidFileType: 'Please upload a WAV, MP3 or OGG file',
  fileTooLarge: 'Please upload an audio file smaller than 100MB',
  twoFactorRequired: 'Enter the 6-digit code from your authenticator app',
  twoFactorInvalid:
    'That code is not valid. Enter the current code from your app or one of your recovery codes.',
  twoFactorAlreadyOn: 'Two-factor authentication is already on',
  twoFactorNotStarted: 'Start the two-factor set-up first',
  twoFactorRequiredForAdmin:
    'Admins must turn on two-factor authentication in Settings before using the dashboard',
  serviceUnavailable: 'The service is temporarily unavailable. Please try again in a moment.',
} as const;
