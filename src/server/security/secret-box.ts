import { createCipheriv, createDecipheriv, hash, randomBytes } from 'node:crypto';

/** An AES-256 key and the id that rows sealed with it record. */
export interface SecretKey {
  id: string;
  key: Buffer;
}

const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const KEY_ID = /^[A-Za-z0-9_-]{1,32}$/;

/** A key's default id: stable for the key, so reordering TOTP_ENCRYPTION_KEYS never renames a key. */
export const keyFingerprint = (key: Buffer): string => hash('sha256', key, 'hex').slice(0, 12);

/**
 * Parses `key,key,...` where each key is base64 of 32 bytes, optionally `id:key`. The first key seals; all
 * of them open. Throws a message meant to follow the variable's name.
 */
export function parseKeyList(text: string): SecretKey[] {
  const keys = text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((entry, i): SecretKey => {
      const colon = entry.indexOf(':');
      const b64 = colon >= 0 ? entry.slice(colon + 1) : entry;
      const key = Buffer.from(b64, 'base64');
      if (key.length !== KEY_BYTES || !/^[A-Za-z0-9+/_-]+=*$/.test(b64))
        throw new Error(`key ${i + 1} must be base64 of 32 random bytes (openssl rand -base64 32)`);
      const id = colon >= 0 ? entry.slice(0, colon) : keyFingerprint(key);
      if (!KEY_ID.test(id)) throw new Error(`key ${i + 1}: its id must be 1-32 letters, digits, _ or -`);
      return { id, key };
    });
  if (keys.length === 0) throw new Error('must name at least one key');
  if (new Set(keys.map((k) => k.id)).size !== keys.length) throw new Error('two keys have the same id');
  return keys;
}

export interface Sealed {
  keyId: string;
  box: string;
}

/**
 * AES-256-GCM with a fresh 96-bit IV per seal. `context` is bound as associated data (e.g. the row's user
 * id), so a sealed value copied onto another row does not open there.
 */
export function createSecretBox(keys: SecretKey[]) {
  const current = keys[0];
  if (!current) throw new Error('a secret box needs at least one key');
  const byId = new Map(keys.map((k) => [k.id, k.key]));
  return {
    currentKeyId: current.id,
    hasKey: (id: string): boolean => byId.has(id),

    seal(plaintext: string, context: string): Sealed {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', current.key, iv);
      cipher.setAAD(Buffer.from(context));
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      const box = Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
      return { keyId: current.id, box };
    },

    /** Throws when the key is unknown or the box was altered (GCM's tag does not match). */
    open(sealed: Sealed, context: string): string {
      const key = byId.get(sealed.keyId);
      if (!key) throw new Error(`no key with id ${sealed.keyId} (TOTP_ENCRYPTION_KEYS)`);
      const raw = Buffer.from(sealed.box, 'base64url');
      const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, IV_BYTES));
      decipher.setAAD(Buffer.from(context));
      decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString(
        'utf8',
      );
    },
  };
}
export type SecretBox = ReturnType<typeof createSecretBox>;
