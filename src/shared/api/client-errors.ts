import { z } from 'zod';

/** What the browser reports (POST /api/client-errors): where the app failed, never audio or personal data. */
export const CLIENT_ERROR_KINDS = [
  'page-error',
  'unhandled-rejection',
  'render-error',
  'chunk-load',
  'worker-crash',
  'decode-failure',
] as const;
export type ClientErrorKind = (typeof CLIENT_ERROR_KINDS)[number];

export const CLIENT_ERROR_LIMITS = { message: 500, stack: 4000, route: 200, bodyBytes: 8 * 1024 } as const;

export const clientErrorReport = z.object({
  kind: z.enum(CLIENT_ERROR_KINDS, { error: 'Unknown error kind' }),
  message: z.string().trim().min(1, 'A message is required').max(CLIENT_ERROR_LIMITS.message),
  stack: z.string().max(CLIENT_ERROR_LIMITS.stack).optional(),
  /** The page's path only: query strings can carry reset tokens and the bypass secret. */
  route: z
    .string()
    .max(CLIENT_ERROR_LIMITS.route)
    .regex(/^\/[^?#\s]*$/, 'route must be a path without query or fragment'),
});
export type ClientErrorReport = z.infer<typeof clientErrorReport>;
