import fc from 'fast-check';
import { expect, it } from 'vitest';
import { describeEachDatabase, signedUpClient } from '../test/harness';
import { bodyFor, injectBody } from '../test/hostile-bodies';

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

describeEachDatabase('hostile input', (ctx) => {
  for (const route of ROUTES) {
    it(`${route.method} ${route.url} answers every body with a 4xx message or success, never 5xx`, async () => {
      const token = route.signedIn
        ? (await signedUpClient(ctx.app, 'victim@example.test')).c.token
        : undefined;
      await fc.assert(
        fc.asyncProperty(bodyFor(route.fields), async (body) => {
          const res = await injectBody(ctx.app, route, body, '10.77', token ? { 'x-auth-token': token } : {});
          expect(res.statusCode, res.body).toBeLessThan(500);
          if (res.statusCode >= 400) expect(typeof res.json().message).toBe('string');
        }),
        { numRuns: 60 },
      );
    }, 120_000);
  }
});
