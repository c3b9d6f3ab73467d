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
  resetDoneTwoFactorRemoved:
    'Your password has been reset. Two-factor authentication was turned off, because it was set up before this email address was confirmed: turn it on again in Settings after you log in.',
  verifyLinkInvalid: 'This email confirmation link is invalid or has expired. Send a new one from Settings.',
  emailAlreadyVerified: 'Your email address is already confirmed',
  emailVerified: 'Your email address is confirmed.',
  verificationSent: 'We sent a confirmation link to your email address.',
  /** Any account mail refused by the per-address limits (README, Production; decision 170). */
  tooManyMails: 'Too many emails were sent to this address recently. Please try again later.',
  emailChangeSent: (address: string) =>
    `We sent a confirmation link to ${address}. Your email address changes when you open it, signed in.`,
  emailChanged: (address: string) => `Your email address is now ${address}.`,
  emailUnchanged: 'That is already your email address',
  wrongPassword: 'Your current password is not correct',
  sessionEnded: 'That session is signed out.',
  sessionsEnded: 'You have been signed out on every device.',
  contactMissing: 'Please fill in all fields',
  contactSent: "Thanks for reaching out! We'll get back to you within 24 hours on business days.",
  tooManyRequests: 'Too many attempts. Please wait a minute and try again.',
  crossSite: 'Cross-site requests are not allowed',
  internal: 'Something went wrong on our side. Please try again.',
  notFound: 'Not found',
  invalidTrackId: 'Invalid track ID',
  /** The spec's 'Invalid file type' description, naming every format accepted since issue 19. */
  invalidFileType: 'Please upload a WAV, MP3, OGG, FLAC, AIFF or M4A file',
  fileTooLarge: 'Please upload an audio file smaller than 100MB',
  /**
   * A JSON or form body over its route's limit (1 MB for JSON unless the route sets less): not an audio
   * upload, so not its message. The limit named is the route's own (8 KB for browser error reports).
   */
  bodyTooLarge: (limit: string) =>
    `This request is too large. Please send less data (this request is limited to ${limit}).`,
  twoFactorRequired: 'Enter the 6-digit code from your authenticator app',
  twoFactorInvalid:
    'That code is not valid. Enter the current code from your app or one of your recovery codes.',
  twoFactorAlreadyOn: 'Two-factor authentication is already on',
  twoFactorNotStarted: 'Start the two-factor set-up first',
  twoFactorRequiredForAdmin:
    'Admins must turn on two-factor authentication in Settings before using the dashboard',
  accountGoneDuringUpload: 'Your account was deleted while this file was uploading, so it was not kept.',
  /** Pricing page banner of a production site running the local test provider on purpose (PAYMENTS=local). */
  demoPaymentsBanner:
    'Demo site: payments use a test provider; no real card is charged, and test cards unlock the plans.',
  serviceUnavailable: 'The service is temporarily unavailable. Please try again in a moment.',
} as const;
