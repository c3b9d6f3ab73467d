import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { COMMON_PASSWORDS } from './common-passwords';

/** OWASP's scrypt parameters (N=2^17, r=8, p=1); 128·N·r bytes of memory, so maxmem is raised. */
export interface ScryptParams {
  N: number;
  r: number;
  p: number;
}
export const OWASP_SCRYPT: ScryptParams = { N: 2 ** 17, r: 8, p: 1 };
const KEY_LENGTH = 32;

const derive = (password: string, salt: Buffer, { N, r, p }: ScryptParams): Promise<Buffer> =>
  new Promise((resolve, reject) =>
    scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, { N, r, p, maxmem: 256 * N * r }, (err, key) =>
      err ? reject(err) : resolve(key),
    ),
  );

export interface PasswordHasher {
  hash(password: string): Promise<string>;
  verify(password: string, stored: string): Promise<boolean>;
  /** Spends the same time as a real verify, for unknown emails (no timing oracle). */
  verifyDummy(password: string): Promise<void>;
}

/** Stored as `scrypt$N$r$p$salt$key` (base64url), so parameters can be raised later without a migration. */
export function createPasswordHasher(params: ScryptParams = OWASP_SCRYPT): PasswordHasher {
  const dummySalt = randomBytes(16);
  return {
    async hash(password) {
      const salt = randomBytes(16);
      const key = await derive(password, salt, params);
      return [
        'scrypt',
        params.N,
        params.r,
        params.p,
        salt.toString('base64url'),
        key.toString('base64url'),
      ].join('$');
    },
    async verify(password, stored) {
      const [scheme, n, r, p, salt, key] = stored.split('$');
      if (scheme !== 'scrypt' || !salt || !key) return false;
      const expected = Buffer.from(key, 'base64url');
      const actual = await derive(password, Buffer.from(salt, 'base64url'), {
        N: Number(n),
        r: Number(r),
        p: Number(p),
      });
      return actual.length === expected.length && timingSafeEqual(actual, expected);
    },
    async verifyDummy(password) {
      await derive(password, dummySalt, params);
    },
  };
}

export const isCommonPassword = (password: string): boolean => COMMON_PASSWORDS.has(password.toLowerCase());
