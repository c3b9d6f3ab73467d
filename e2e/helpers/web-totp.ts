import { createHmac } from 'node:crypto';

/**
 * RFC 6238 TOTP as an authenticator app computes it (HMAC-SHA1, 30 s, 6 digits), written independently of
 * the server's implementation so the e2e tests check it rather than repeat it.
 */
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

const base32ToBytes = (text: string): Buffer => {
  const bits = [...text.toUpperCase().replace(/[^A-Z2-7]/g, '')]
    .map((ch) => ALPHABET.indexOf(ch).toString(2).padStart(5, '0'))
    .join('');
  const bytes: number[] = [];
  for (let i = 0; i + 8 <= bits.length; i += 8) bytes.push(Number.parseInt(bits.slice(i, i + 8), 2));
  return Buffer.from(bytes);
};

export const totp = (secret: string, atMs = Date.now()): string => {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(atMs / 30_000)));
  const mac = createHmac('sha1', base32ToBytes(secret)).update(counter).digest();
  const offset = mac[mac.length - 1]! & 0x0f;
  return String((mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, '0');
};
