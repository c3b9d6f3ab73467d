import { describe, expect, it } from 'vitest';
import { Md5 } from './md5';

describe('Md5', () => {
  it('equals Node crypto at every padding boundary, fed in two pieces', async () => {
    const { createHash } = (await import('node:crypto' as string)) as {
      createHash(a: string): { update(b: Uint8Array): { digest(e: 'hex'): string } };
    };
    for (const n of [0, 1, 55, 56, 63, 64, 65, 119, 120, 1000, 100_003]) {
      const bytes = Uint8Array.from({ length: n }, (_, i) => (i * 7919) & 255);
      const md5 = new Md5().update(bytes.subarray(0, n >> 1)).update(bytes.subarray(n >> 1));
      expect(hex(md5.digest())).toBe(createHash('md5').update(bytes).digest('hex'));
    }
  });
});

const hex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
