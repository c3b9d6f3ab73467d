import { z } from 'zod';
import { PLAN_IDS } from '../plans';

/** The user as the API returns it (spec section 3). */
export const publicUser = z.object({
  id: z.number().int(),
  email: z.string(),
  username: z.string(),
  hasSubscription: z.boolean(),
  subscriptionType: z.enum(PLAN_IDS).nullable(),
  mixCredits: z.number().int(),
  masteringCredits: z.number().int(),
  crowns: z.number().int(),
  isAdmin: z.boolean(),
  createdAt: z.string(),
  /** Whether the owner proved the address (mailed link or password reset); admin by ADMIN_EMAILS needs it. */
  emailVerified: z.boolean(),
  /** Whether two-factor authentication is on (required for admins). */
  twoFactorEnabled: z.boolean(),
});
export type PublicUser = z.infer<typeof publicUser>;

export const loginResponse = publicUser.extend({ authToken: z.string() });
export type LoginResponse = z.infer<typeof loginResponse>;

/** Every non-OK response carries this body, so the client's 'status: message' reads well. */
export const errorBody = z.object({ message: z.string(), code: z.string().optional() });
export type ErrorBody = z.infer<typeof errorBody>;

export const messageResponse = z.object({ message: z.string() });
export type MessageResponse = z.infer<typeof messageResponse>;
