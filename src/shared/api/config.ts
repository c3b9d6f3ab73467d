import { z } from 'zod';

/** The whitelisted configuration the browser may see (GET /api/config). Nothing secret belongs here. */
export const publicConfig = z.object({
  devMode: z.boolean(),
  paymentProvider: z.enum(['stripe', 'local']),
  maxUploadBytes: z.number().int(),
});
export type PublicConfig = z.infer<typeof publicConfig>;
