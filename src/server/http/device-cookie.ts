import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { parseCookie, stringifySetCookie } from 'cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';

export const DEVICE_COOKIE = 'device';
const YEAR_SECONDS = 365 * 24 * 3600;
const NONCE_BYTES = 16;

/**
 * A browser that has signed in to an account before carries a cookie signed for that account's email:
 * `<device id>.<HMAC(key, device id + email)>`. Login attempts carrying it are counted per device, apart
 * from the attempts of everyone else on the same address, so guessing from elsewhere cannot lock the
 * owner out. It names no one (the email is only inside the signature) and is sent only to /api/auth.
 */
export function deviceCookies(key: Buffer, secure: boolean) {
  const sign = (deviceId: string, email: string) =>
    createHmac('sha256', key).update(`device\n${deviceId}\n${email.toLowerCase()}`).digest('base64url');

  return {
    /** The device id, when the request carries a cookie this server signed for `email`; else null. */
    read(req: FastifyRequest, email: string): string | null {
      const header = req.headers.cookie;
      if (!header) return null;
      const [deviceId, signature, ...rest] = (parseCookie(header)[DEVICE_COOKIE] ?? '').split('.');
      if (!deviceId || !signature || rest.length) return null;
      const expected = Buffer.from(sign(deviceId, email));
      const given = Buffer.from(signature);
      return given.length === expected.length && timingSafeEqual(given, expected) ? deviceId : null;
    },

    /** Marks this browser as one that signed in to `email`. */
    set(reply: FastifyReply, email: string) {
      const deviceId = randomBytes(NONCE_BYTES).toString('base64url');
      reply.header(
        'set-cookie',
        stringifySetCookie({
          name: DEVICE_COOKIE,
          value: `${deviceId}.${sign(deviceId, email)}`,
          maxAge: YEAR_SECONDS,
          path: '/api/auth',
          httpOnly: true,
          secure,
          sameSite: 'strict',
        }),
      );
    },
  };
}
export type DeviceCookies = ReturnType<typeof deviceCookies>;

/**
 * The signing key: DEVICE_COOKIE_SECRET when set (several instances must share it), else a random key
 * kept in DATA_DIR/device-cookie.key, made on first start.
 */
export function deviceCookieKey(secret: string | undefined, dataDir: string): Buffer {
  if (secret) return Buffer.from(secret);
  const file = path.join(dataDir, 'device-cookie.key');
  try {
    return Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64url');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  fs.mkdirSync(dataDir, { recursive: true });
  const key = randomBytes(32);
  try {
    // 'wx': if another process made the file meanwhile, use its key rather than overwrite it.
    fs.writeFileSync(file, key.toString('base64url'), { flag: 'wx', mode: 0o600 });
    return key;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    return Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64url');
  }
}
