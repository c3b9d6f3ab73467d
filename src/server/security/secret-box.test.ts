import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createSecretBox, keyFingerprint, parseKeyList } from './secret-box';

const b64 = (key: Buffer) => key.toString('base64');

describe('secret box (AES-256-GCM)', () => {
  const a = { id: 'a', key: randomBytes(32) };
  const b = { id: 'b', key: randomBytes(32) };

  it('seals with a fresh IV each time and opens only with the same context', () => {
    const box = createSecretBox([a]);
    const one = box.seal('JBSWY3DPEHPK3PXP', 'totp:1');
    const two = box.seal('JBSWY3DPEHPK3PXP', 'totp:1');
    expect(one.keyId).toBe('a');
    expect(one.box).not.toBe(two.box);
    expect(one.box).not.toContain('JBSWY3DPEHPK3PXP');
    expect(box.open(one, 'totp:1')).toBe('JBSWY3DPEHPK3PXP');
    expect(() => box.open(one, 'totp:2')).toThrow();
  });

  it('refuses an altered box', () => {
    const box = createSecretBox([a]);
    const sealed = box.seal('secret', 'ctx');
    const raw = Buffer.from(sealed.box, 'base64url');
    raw[raw.length - 1]! ^= 1;
    expect(() => box.open({ keyId: 'a', box: raw.toString('base64url') }, 'ctx')).toThrow();
  });

  it('seals with the first key and opens with any listed key (rotation)', () => {
    const old = createSecretBox([a]).seal('secret', 'ctx');
    const rotated = createSecretBox([b, a]);
    expect(rotated.currentKeyId).toBe('b');
    expect(rotated.open(old, 'ctx')).toBe('secret');
    expect(rotated.seal('secret', 'ctx').keyId).toBe('b');
    expect(() => createSecretBox([b]).open(old, 'ctx')).toThrow(/no key with id a/);
  });

  it('parses `[id:]base64` lists; a key without an id is named by its fingerprint', () => {
    const keys = parseKeyList(` k2:${b64(b.key)} , ${b64(a.key)}`);
    expect(keys.map((k) => k.id)).toEqual(['k2', keyFingerprint(a.key)]);
    expect(keys[1]!.key.equals(a.key)).toBe(true);
  });

  it.each([
    ['', /at least one key/],
    [b64(randomBytes(16)), /32 random bytes/],
    ['not base64 at all!', /32 random bytes/],
    [`bad id:${b64(a.key)}`, /id must be/],
    [`x:${b64(a.key)},x:${b64(b.key)}`, /same id/],
  ])('refuses %j', (text, message) => {
    expect(() => parseKeyList(text)).toThrow(message);
  });
});
