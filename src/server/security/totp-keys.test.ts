import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseKeyList } from './secret-box';
import { TOTP_KEY_FILE, totpBoxFor } from './totp-keys';

describe('TOTP keys', () => {
  const dirs: string[] = [];
  const tempDir = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'totp-keys-'));
    dirs.push(dir);
    return path.join(dir, 'data');
  };
  afterEach(() => {
    for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
  });

  it('without TOTP_ENCRYPTION_KEYS, creates one key file in DATA_DIR (owner-only) and keeps using it', () => {
    const dataDir = tempDir();
    const first = totpBoxFor({ totpKeys: undefined, dataDir });
    const file = path.join(dataDir, TOTP_KEY_FILE);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const sealed = first.seal('secret', 'ctx');
    const second = totpBoxFor({ totpKeys: undefined, dataDir });
    expect(second.currentKeyId).toBe(first.currentKeyId);
    expect(second.open(sealed, 'ctx')).toBe('secret');
    expect(fs.readdirSync(dataDir)).toEqual([TOTP_KEY_FILE]);
  });

  it('uses the configured keys and writes no file', () => {
    const dataDir = tempDir();
    const keys = parseKeyList(`main:${Buffer.alloc(32, 1).toString('base64')}`);
    expect(totpBoxFor({ totpKeys: keys, dataDir }).currentKeyId).toBe('main');
    expect(fs.existsSync(dataDir)).toBe(false);
  });

  it('names the file when it holds no usable key', () => {
    const dataDir = tempDir();
    fs.mkdirSync(dataDir);
    fs.writeFileSync(path.join(dataDir, TOTP_KEY_FILE), 'short\n');
    expect(() => totpBoxFor({ totpKeys: undefined, dataDir })).toThrow(TOTP_KEY_FILE);
  });
});
