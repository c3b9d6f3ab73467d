import type { z } from 'zod';
import { badRequest } from '../errors';

/** Parses a body with a shared schema; the first issue's message becomes the 400 the user reads. */
export function parse<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const result = schema.safeParse(input ?? {});
  if (result.success) return result.data;
  const first = result.error.issues[0];
  const field = first?.path.join('.');
  const message =
    first?.code === 'invalid_type' && first.message.startsWith('Invalid input')
      ? `${field || 'Request body'} is missing or has the wrong type`
      : (first?.message ?? 'Invalid request');
  throw badRequest(message, 'validation');
}
