import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';

/**
 * Generators of hostile request bodies for the property tests over the routes (src/server/http and
 * tests/hostile-routes): odd unicode, NULs, lone surrogates, markup, path tricks, huge strings, wrong types,
 * boundary numbers, and raw JSON of any shape.
 */
export const weirdString = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 300 }),
  fc.string({ unit: 'binary', maxLength: 50 }),
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    '\uFEFF',
    '\uD800',
    'a@b',
    '@',
    '"><script>alert(1)</script>',
    '<img src=x onerror=alert(1)>',
    '../../etc/passwd',
    'x'.repeat(100_000),
  ),
);

const weirdValue = fc.oneof(
  weirdString,
  fc.integer(),
  fc.constantFrom(0, -1, 2 ** 31, 2 ** 53, Number.MAX_VALUE, 1e-300),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.anything(), { maxLength: 5 }),
  fc.object({ maxDepth: 2 }),
);

/** A body with any subset of `fields` set to hostile values, any value at all, or raw JSON text. */
export const bodyFor = (fields: string[]) =>
  fc.oneof(
    fc.record(Object.fromEntries(fields.map((f) => [f, weirdValue])), { requiredKeys: [] }),
    fc.anything({ maxDepth: 2 }),
    fc.json().map((raw) => ({ raw })),
  );

/**
 * Sends one generated body as JSON from a random address in `subnet` (so the per-IP limits do not turn the
 * run into 429s), with `headers` added.
 */
export const injectBody = (
  app: FastifyInstance,
  route: { method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'; url: string },
  body: unknown,
  subnet: string,
  headers: Record<string, string> = {},
) => {
  const raw =
    body && typeof body === 'object' && 'raw' in body ? String((body as { raw: string }).raw) : undefined;
  return app.inject({
    method: route.method,
    url: route.url,
    remoteAddress: `${subnet}.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`,
    headers: { 'content-type': 'application/json', ...headers },
    payload: raw ?? JSON.stringify(body ?? null),
  });
};
