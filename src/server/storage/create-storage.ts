import type { Config } from '../config';
import { type DiskStorage, diskStorage } from './disk-storage';
import { s3Storage } from './s3-storage';
import type { Storage } from './storage';

/** The storage the configuration names: disk under DATA_DIR/files by default, S3 when STORAGE=s3. */
export function createStorage(config: Pick<Config, 'storage'>): Storage | DiskStorage {
  const s = config.storage;
  return s.kind === 's3' ? s3Storage(s) : diskStorage(s.root);
}
