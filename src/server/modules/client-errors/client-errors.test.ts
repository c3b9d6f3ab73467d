import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { buildApp } from '../../app';
import { memoryRateLimiter } from '../../rate-limit/limiter';
import { createPasswordHasher } from '../../security/passwords';
import { describeEachDatabase, memoryMailer, testConfig } from '../../test/harness';

const TOKEN = 'metrics-token-for-tests-0123456789';
const report = {
  kind: 'decode-failure',
  message: 'EncodingError: Unable to decode audio data',
  route: '/mastering',
};

describeEachDatabase('client errors', (ctx) => {
  // Its own app, to read what it logs and counts.
  let app: FastifyInstance;
  let lines: Array<Record<string, unknown>> = [];
  beforeAll(async () => {
    const stream = new Writable({
      write(chunk, _enc, done) {
        for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
        done();
      },
    });
    app = await buildApp({
      config: testConfig({ METRICS_TOKEN: TOKEN }),
      database: ctx.database,
      mailer: memoryMailer(),
      limiter: memoryRateLimiter(),
      hasher: createPasswordHasher({ N: 2 ** 10, r: 8, p: 1 }),
      logger: { level: 'warn', stream },
    });
  });
  afterAll(() => app?.close());
  beforeEach(() => {
    lines = [];
  });

  let ip = 0;
  const post = (body: unknown, from = `10.9.0.${++ip}`) =>
    app.inject({ method: 'POST', url: '/api/client-errors', payload: body as object, remoteAddress: from });
  const logged = () => lines.filter((l) => l.msg === 'client error').map((l) => l.clientError);
  /** mym_client_errors_total by kind (counts add up across the tests of this app). */
  const counted = async (): Promise<Record<string, number>> => {
    const text = (
      await app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } })
    ).body;
    return Object.fromEntries(
      [...text.matchAll(/^mym_client_errors_total\{kind="([\w-]+)"\} (\d+)$/gm)].map((m) => [
        m[1],
        Number(m[2]),
      ]),
    );
  };

  it('logs a report and counts it by kind', async () => {
    const before = (await counted())['decode-failure'] ?? 0;
    const res = await post({ ...report, stack: 'EncodingError\n    at decodeAudio (/assets/x.js:1:2)' });
    expect(res.statusCode).toBe(204);
    expect(logged()).toEqual([{ ...report, stack: 'EncodingError\n    at decodeAudio (/assets/x.js:1:2)' }]);
    expect((await counted())['decode-failure']).toBe(before + 1);
  });

  it('keeps emails and tokens out of the log', async () => {
    const token = 'Zk3v9QpR2mX8aLw4Yt6uBn1cD5eF7gH0';
    await post({
      kind: 'page-error',
      message: `Cannot load ada.lovelace@example.com's take`,
      stack: `at fetch (/api/x?token=${token})`,
      route: '/reset-password',
    });
    const [entry] = logged() as Array<{ message: string; stack: string }>;
    expect(entry?.message).toBe("Cannot load [redacted]'s take");
    expect(entry?.stack).not.toContain(token);
    expect(JSON.stringify(lines)).not.toContain('ada.lovelace');
  });

  it('refuses bad reports with the usual error body, logging and counting nothing', async () => {
    const before = await counted();
    for (const bad of [
      { ...report, kind: 'mystery' },
      { ...report, message: '' },
      { ...report, route: '/reset-password?token=abc' },
      { ...report, route: 'https://elsewhere.example/' },
      { kind: 'page-error' },
    ]) {
      const res = await post(bad);
      expect(res.statusCode, JSON.stringify(bad)).toBe(400);
      expect(res.json()).toMatchObject({ code: 'validation' });
    }
    const big = await post({ ...report, stack: 'x'.repeat(9000) });
    expect(big.statusCode).toBe(413);
    // The report route's own limit, not the 1 MB of JSON bodies elsewhere (issue 29).
    expect(big.json()).toEqual({
      message: 'This request is too large. Please send less data (this request is limited to 8 KB).',
      code: 'body_too_large',
    });
    expect(logged()).toEqual([]);
    expect(await counted()).toEqual(before);
  });

  it('limits reports per client address', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 32; i++) statuses.push((await post(report, '10.9.9.9')).statusCode);
    expect(statuses.filter((s) => s === 204)).toHaveLength(30);
    expect(statuses.slice(30)).toEqual([429, 429]);
    expect((await post(report, '10.9.9.10')).statusCode).toBe(204);
  });
});
