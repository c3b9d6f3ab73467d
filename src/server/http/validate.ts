import type { z } from 'zod';
import { badRequest } from '../errors';

/** PostgreSQL text cannot hold NUL; a body carrying one is refused before it reaches a query. */
function hasNul(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (depth > 20 || value === null || typeof value !== 'object') return false;
  return Object.entries(value).some(([k, v]) => k.includes('\u0000') || hasNul(v, depth + 1));
}

/** Parses a body with a shared schema; the first issue's message becomes the 400 the user reads. */
export function parse<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  if (hasNul(input)) throw badRequest('Text fields may not contain NUL characters', 'validation');
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
