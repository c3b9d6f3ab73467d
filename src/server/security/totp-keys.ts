import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../config';
import { createSecretBox, parseKeyList, type SecretBox } from './secret-box';

export const TOTP_KEY_FILE = 'totp-encryption.key';

/**
 * The keys sealing TOTP secrets: TOTP_ENCRYPTION_KEYS when set (always in production, config.ts insists);
 * otherwise a random key kept in DATA_DIR, created on first start, so `npm start` needs no set-up and the
 * secrets stay readable across restarts.
 */
export function totpBoxFor(config: Pick<Config, 'totpKeys' | 'dataDir'>): SecretBox {
  if (config.totpKeys) return createSecretBox(config.totpKeys);
  const file = path.join(config.dataDir, TOTP_KEY_FILE);
  fs.mkdirSync(config.dataDir, { recursive: true });
  if (!fs.existsSync(file)) {
    // Written aside, then linked into place: of two processes starting at once, one key wins and nobody
    // ever reads a half-written file.
    const draft = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(draft, `${randomBytes(32).toString('base64')}\n`, { mode: 0o600 });
    try {
      fs.linkSync(draft, file);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    } finally {
      fs.rmSync(draft, { force: true });
    }
  }
  try {
    return createSecretBox(parseKeyList(fs.readFileSync(file, 'utf8')));
  } catch (err) {
    throw new Error(`${file}: ${(err as Error).message}`);
  }
}
