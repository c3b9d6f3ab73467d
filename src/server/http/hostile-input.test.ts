import fc from 'fast-check';
import { expect, it } from 'vitest';
import { describeEachDatabase, signedUpClient } from '../test/harness';

/** Every JSON route of the core: random and boundary bodies must give a clear 4xx, never a 5xx. */
const ROUTES: Array<{ method: 'POST' | 'DELETE'; url: string; fields: string[]; signedIn?: boolean }> = [
  { method: 'POST', url: '/api/auth/register', fields: ['email', 'username', 'password'] },
  { method: 'POST', url: '/api/auth/login', fields: ['email', 'password'] },
  { method: 'POST', url: '/api/auth/forgot-password', fields: ['email'] },
  { method: 'POST', url: '/api/auth/reset-password', fields: ['token', 'newPassword'] },
  { method: 'POST', url: '/api/contact', fields: ['name', 'email', 'subject', 'message'] },
  { method: 'POST', url: '/api/dev/bypass', fields: ['secret'] },
  { method: 'DELETE', url: '/api/auth/account', fields: ['confirm'], signedIn: true },
];

const weirdString = fc.oneof(
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
    'x'.repeat(100_000),
  ),
);
const weirdValue = fc.oneof(
  weirdString,
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.string()),
  fc.object(),
);

const bodyFor = (fields: string[]) =>
  fc.oneof(
    fc.record(Object.fromEntries(fields.map((f) => [f, weirdValue])), { requiredKeys: [] }),
    fc.anything(),
    fc.json().map((j) => ({ raw: j })),
  );

describeEachDatabase('hostile input', (ctx) => {
  for (const route of ROUTES) {
    it(`${route.method} ${route.url} answers every body with a 4xx message or success, never 5xx`, async () => {
      const token = route.signedIn
        ? (await signedUpClient(ctx.app, 'victim@example.test')).c.token
        : undefined;
      await fc.assert(
        fc.asyncProperty(bodyFor(route.fields), async (body) => {
          const raw =
            body && typeof body === 'object' && 'raw' in body
              ? String((body as { raw: string }).raw)
              : undefined;
          const res = await ctx.app.inject({
            method: route.method,
            url: route.url,
            remoteAddress: `10.77.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`,
            headers: { 'content-type': 'application/json', ...(token ? { 'x-auth-token': token } : {}) },
            payload: raw ?? JSON.stringify(body ?? null),
          });
          expect(res.statusCode, res.body).toBeLessThan(500);
          if (res.statusCode >= 400) expect(typeof res.json().message).toBe('string');
        }),
        { numRuns: 60 },
      );
    }, 120_000);
  }
});
