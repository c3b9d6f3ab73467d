import { Writable } from 'node:stream';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { loggerOptions, redactUrl } from './logging';

describe('request logging', () => {
  it('redacts tokens in URLs', () => {
    expect(redactUrl('/reset-password?token=abc123&x=1')).toBe('/reset-password?token=[redacted]&x=1');
    expect(redactUrl('/mixer?bypass=s3cret')).toBe('/mixer?bypass=[redacted]');
  });

  it('never writes cookies, tokens or passwords', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _enc, cb) {
        lines.push(chunk.toString());
        cb();
      },
    });
    const app = Fastify({ logger: { ...loggerOptions('info'), stream } });
    app.post('/api/auth/login', async (req) => {
      req.log.info({ req }, 'handled');
      return { ok: true };
    });
    await app.inject({
      method: 'POST',
      url: '/api/auth/login?token=leaky-token',
      headers: { cookie: 'sid=secret-cookie', 'x-auth-token': 'secret-header' },
      payload: { email: 'a@example.test', password: 'hunter2-secret' },
    });
    await app.close();
    const all = lines.join('');
    expect(all).toContain('/api/auth/login');
    for (const secret of ['secret-cookie', 'secret-header', 'hunter2-secret', 'leaky-token'])
      expect(all).not.toContain(secret);
  });
});
