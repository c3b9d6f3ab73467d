import type { z } from 'zod';
import type { publicUser } from '../../../shared/api/user';

/** The user the auth and billing examples answer with. */
export const EXAMPLE_USER: z.input<typeof publicUser> = {
  id: 7,
  email: 'ada@example.com',
  username: 'ada',
  hasSubscription: true,
  subscriptionType: 'pro',
  mixCredits: 4,
  masteringCredits: 9,
  crowns: 20,
  isAdmin: false,
  createdAt: '2026-01-05T10:00:00.000Z',
  emailVerified: true,
  twoFactorEnabled: false,
};
