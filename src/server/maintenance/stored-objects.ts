import fs from 'node:fs';
import path from 'node:path';
import {
  AbortMultipartUploadCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
} from '@aws-sdk/client-s3';
import type { Config } from '../config';
import { s3ClientFor } from '../storage/s3-storage';

/**
 * What the maintenance sweep needs to see in storage beyond the Storage interface: each object's age, and
 * uploads that never finished (disk part files, S3 multipart uploads). Read-only except `remove*`.
 */
export interface StoredObject {
  key: string;
  lastModified: Date;
}

export interface PartialUpload {
  id: string;
  startedAt: Date;
}

export interface StorageInventory {
  objects(): Promise<StoredObject[]>;
  partials(): Promise<PartialUpload[]>;
  removePartial(id: string): Promise<void>;
  close(): void;
}

const INCOMING = '.incoming';

function diskInventory(root: string): StorageInventory {
  const base = path.resolve(root);
  const incoming = path.join(base, INCOMING);
  const readdir = (dir: string) =>
    fs.promises.readdir(dir, { withFileTypes: true }).catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return [] as fs.Dirent[];
      throw err;
    });
  async function walk(dir: string, rel: string, out: StoredObject[]) {
    for (const e of await readdir(dir)) {
      if (rel === '' && e.name === INCOMING) continue;
      const childRel = rel ? `${rel}/${e.name}` : e.name;
      const p = path.join(dir, e.name);
      if (e.isDirectory()) await walk(p, childRel, out);
      else if (e.isFile()) {
        const s = await fs.promises.stat(p).catch(() => null);
        if (s) out.push({ key: childRel, lastModified: s.mtime });
      }
    }
  }
  return {
    async objects() {
      const out: StoredObject[] = [];
      await walk(base, '', out);
      return out;
    },
    async partials() {
      const out: PartialUpload[] = [];
      for (const e of await readdir(incoming)) {
        if (!e.isFile()) continue;
        // A live upload writes its part file continuously: the last write is its age.
        const s = await fs.promises.stat(path.join(incoming, e.name)).catch(() => null);
        if (s) out.push({ id: e.name, startedAt: s.mtime });
      }
      return out;
    },
    async removePartial(id) {
      if (id.includes('/') || id.includes('\\') || id.startsWith('.')) throw new Error(`bad part id ${id}`);
      await fs.promises.rm(path.join(incoming, id), { force: true });
    },
    close() {},
  };
}

function s3Inventory(
  o: Extract<Config['storage'], { kind: 's3' }>,
  log: (m: string) => void,
): StorageInventory {
  const client = s3ClientFor(o);
  const Bucket = o.bucket;
  return {
    async objects() {
      const out: StoredObject[] = [];
      let token: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket, ContinuationToken: token }));
        for (const obj of page.Contents ?? [])
          if (obj.Key) out.push({ key: obj.Key, lastModified: obj.LastModified ?? new Date(0) });
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
      return out;
    },
    async partials() {
      const out: PartialUpload[] = [];
      try {
        let keyMarker: string | undefined;
        let uploadIdMarker: string | undefined;
        do {
          const page = await client.send(
            new ListMultipartUploadsCommand({ Bucket, KeyMarker: keyMarker, UploadIdMarker: uploadIdMarker }),
          );
          for (const u of page.Uploads ?? [])
            if (u.Key && u.UploadId)
              out.push({ id: `${u.Key}\n${u.UploadId}`, startedAt: u.Initiated ?? new Date(0) });
          keyMarker = page.IsTruncated ? page.NextKeyMarker : undefined;
          uploadIdMarker = page.IsTruncated ? page.NextUploadIdMarker : undefined;
        } while (keyMarker);
      } catch (err) {
        // Some S3-compatible stores (s3rver) do not list multipart uploads: the bucket's lifecycle rule
        // AbortIncompleteMultipartUpload is then the only cleaner (docs/decisions/070-scale-out.md).
        log(
          `storage cannot list incomplete multipart uploads (${(err as Error).name}); rely on the bucket's lifecycle rule`,
        );
      }
      return out;
    },
    async removePartial(id) {
      const [Key, UploadId] = id.split('\n');
      await client.send(new AbortMultipartUploadCommand({ Bucket, Key, UploadId }));
    },
    close() {
      client.destroy();
    },
  };
}

export function storageInventory(
  config: Pick<Config, 'storage'>,
  log: (m: string) => void,
): StorageInventory {
  const s = config.storage;
  return s.kind === 's3' ? s3Inventory(s, log) : diskInventory(s.root);
}
