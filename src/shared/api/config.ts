import { z } from 'zod';

/** The whitelisted configuration the browser may see (GET /api/config). Nothing secret belongs here. */
export const publicConfig = z.object({
  devMode: z.boolean(),
  paymentProvider: z.enum(['stripe', 'local']),
  /** A production site running the local test provider on purpose (PAYMENTS=local): pricing says so. */
  demoPayments: z.boolean(),
  maxUploadBytes: z.number().int(),
});
export type PublicConfig = z.infer<typeof publicConfig>;

/** POST /api/dev/bypass: the secret of `?bypass=` (developer mode only). */
export const devBypassBody = z.object({ secret: z.string().max(200) });
