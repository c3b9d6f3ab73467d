import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { deviceCookieKey, deviceCookies } from './device-cookie';

const issue = (devices: ReturnType<typeof deviceCookies>, email: string) => {
  let header = '';
  devices.set({ header: (_: string, v: string) => (header = v) } as unknown as FastifyReply, email);
  return header;
};
const requestWith = (setCookie: string) =>
  ({ headers: { cookie: `sid=x; ${setCookie.split(';')[0]}` } }) as unknown as FastifyRequest;

describe('device cookie', () => {
  it('is HttpOnly, SameSite=Strict, sent only to /api/auth, and valid only for its email and key', () => {
    const devices = deviceCookies(Buffer.alloc(32, 1), true);
    const header = issue(devices, 'Owner@Example.test');
    expect(header).toMatch(
      /^device=[\w-]{22}\.[\w-]{43}; Max-Age=31536000; Path=\/api\/auth; HttpOnly; Secure; SameSite=Strict$/,
    );
    expect(devices.read(requestWith(header), 'owner@example.test')).toBe(header.slice(7, 29));
    expect(devices.read(requestWith(header), 'other@example.test')).toBeNull();
    expect(
      deviceCookies(Buffer.alloc(32, 2), true).read(requestWith(header), 'owner@example.test'),
    ).toBeNull();
  });

  it('keeps its key in DATA_DIR across restarts unless DEVICE_COOKIE_SECRET is set', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'device-key-'));
    const first = deviceCookieKey(undefined, dir);
    expect(first).toHaveLength(32);
    expect(deviceCookieKey(undefined, dir).equals(first)).toBe(true);
    expect((fs.statSync(path.join(dir, 'device-cookie.key')).mode & 0o777).toString(8)).toBe('600');
    const secret = 's'.repeat(40);
    expect(deviceCookieKey(secret, dir).toString()).toBe(secret);
  });
});
