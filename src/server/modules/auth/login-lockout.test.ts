import { expect, it } from 'vitest';
import { MESSAGES } from '../../../shared/messages';
import { describeEachDatabase, signedUpClient } from '../../test/harness';
import { FAILED_LOGINS_PER_CLIENT, FAILED_LOGINS_PER_EMAIL } from './login-limits';

const password = 'correct horse battery';

describeEachDatabase('login lock-out', (ctx) => {
  /** One login attempt from `ip`, with the cookies a browser would send. */
  const login = async (ip: string, email: string, pass: string, cookie?: string) => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      remoteAddress: ip,
      payload: { email, password: pass },
      headers: cookie ? { cookie, origin: 'http://app.test' } : {},
    });
    const setCookies = ([] as string[]).concat(res.headers['set-cookie'] ?? []);
    const device = setCookies.find((c) => c.startsWith('device='))?.split(';')[0];
    return { status: res.statusCode, body: res.json(), retryAfter: res.headers['retry-after'], device };
  };
  const guessUntilRefused = async (ip: string, email: string, cookie?: string) => {
    const statuses: number[] = [];
    for (let i = 0; i <= FAILED_LOGINS_PER_CLIENT; i++)
      statuses.push((await login(ip, email, `guess-${i}`, cookie)).status);
    return statuses;
  };

  it('ten wrong passwords from one address refuse that address with Retry-After, not the owner elsewhere', async () => {
    await signedUpClient(ctx.app, 'target@example.test');
    const statuses = await guessUntilRefused('10.8.0.1', 'target@example.test');
    expect(statuses).toEqual([...Array(FAILED_LOGINS_PER_CLIENT).fill(401), 429]);
    const refused = await login('10.8.0.1', 'target@example.test', password);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ message: MESSAGES.tooManyRequests, code: 'rate_limited' });
    const retryAfter = Number(refused.retryAfter);
    expect(retryAfter).toBeGreaterThan(14 * 60);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);

    expect((await login('10.8.1.1', 'target@example.test', password)).status).toBe(200);
    // The owner's success elsewhere does not reopen the attacker's address.
    expect((await login('10.8.0.1', 'target@example.test', 'guess-again')).status).toBe(429);
  });

  it('a browser that signed in before still gets in while an attacker on the same address gets 429s', async () => {
    await signedUpClient(ctx.app, 'owner@example.test');
    const shared = '10.8.2.2';
    const first = await login(shared, 'owner@example.test', password);
    expect(first.status).toBe(200);
    expect(first.device).toMatch(/^device=[\w-]+\.[\w-]+$/);

    // The attacker spends the email's budget on this address, and the address's budget too.
    expect((await guessUntilRefused(shared, 'owner@example.test')).at(-1)).toBe(429);
    for (let i = 0; i < ctx.config.authRateLimit; i++)
      await login(shared, `other${i}@example.test`, 'x1234567');
    const refused = await login(shared, 'nobody-new@example.test', 'x1234567');
    expect(refused.status).toBe(429);
    expect(Number(refused.retryAfter)).toBeGreaterThan(0);

    expect((await login(shared, 'owner@example.test', password, first.device)).status).toBe(200);
    // Without the cookie, or with a forged or another account's cookie, the owner is just another client.
    expect((await login(shared, 'owner@example.test', password)).status).toBe(429);
    const forged = `device=${first.device!.split('.')[0]!.slice(7)}.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA`;
    expect((await login(shared, 'owner@example.test', password, forged)).status).toBe(429);
    await signedUpClient(ctx.app, 'mallory@example.test');
    const mallorys = (await login('10.8.3.3', 'mallory@example.test', password)).device;
    expect((await login(shared, 'owner@example.test', password, mallorys)).status).toBe(429);
  });

  it('counts wrong passwords from a known browser in its own bucket of ten', async () => {
    await signedUpClient(ctx.app, 'careless@example.test');
    const { device } = await login('10.8.4.4', 'careless@example.test', password);
    const statuses = await guessUntilRefused('10.8.4.4', 'careless@example.test', device);
    expect(statuses).toEqual([...Array(FAILED_LOGINS_PER_CLIENT).fill(401), 429]);
    expect((await login('10.8.4.4', 'careless@example.test', password, device)).status).toBe(429);
    // Its guesses did not touch the budget of the address for browsers it has not seen.
    expect((await login('10.8.4.4', 'careless@example.test', password)).status).toBe(200);
  });

  it('caps guesses at one email spread over many addresses, and known browsers still get in', async () => {
    await signedUpClient(ctx.app, 'famous@example.test');
    const { device } = await login('10.8.5.5', 'famous@example.test', password);
    // The owner's own attempt above was the first of the email's budget for browsers it has not seen.
    const statuses: number[] = [];
    for (let i = 1; i <= FAILED_LOGINS_PER_EMAIL; i++) {
      const ip = `10.9.${Math.floor(i / 200)}.${(i % 200) + 1}`;
      statuses.push((await login(ip, 'famous@example.test', 'nope-1')).status);
    }
    expect(statuses).toEqual([...Array(FAILED_LOGINS_PER_EMAIL - 1).fill(401), 429]);
    expect((await login('10.7.7.7', 'famous@example.test', password)).status).toBe(429);
    expect((await login('10.7.7.7', 'famous@example.test', password, device)).status).toBe(200);
  });

  it('counts IPv6 clients by their /64 network', async () => {
    await signedUpClient(ctx.app, 'v6@example.test');
    const statuses: number[] = [];
    for (let i = 0; i <= FAILED_LOGINS_PER_CLIENT; i++)
      statuses.push(
        (await login(`2001:db8:1:2::${(i + 1).toString(16)}`, 'v6@example.test', 'nope-1')).status,
      );
    expect(statuses.at(-1)).toBe(429);
    expect((await login('2001:db8:1:3::1', 'v6@example.test', password)).status).toBe(200);
  });
});
