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
  let result: z.ZodSafeParseResult<z.infer<S>>;
  try {
    result = schema.safeParse(input ?? {});
  } catch {
    // Zod runs a string's length checks on any object with a `length` (after the type issue): a hostile
    // `{"length": {"toString": null}}` makes it throw instead of failing. That is a wrong type, not our error.
    throw badRequest('Request body is missing or has the wrong type', 'validation');
  }
  if (result.success) return result.data;
  const first = result.error.issues[0];
  const field = first?.path.join('.');
  const message =
    first?.code === 'invalid_type' && first.message.startsWith('Invalid input')
      ? `${field || 'Request body'} is missing or has the wrong type`
      : (first?.message ?? 'Invalid request');
  throw badRequest(message, 'validation');
}
