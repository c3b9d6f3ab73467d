import type { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  S3Client,
} from '@aws-sdk/client-s3';
import { uploadInParts } from './s3-part-upload';
import {
  assertKey,
  assertPrefix,
  type ByteRange,
  ObjectNotFoundError,
  type ObjectStat,
  type Storage,
} from './storage';

export interface S3StorageOptions {
  endpoint: string | undefined;
  bucket: string;
  region: string;
  accessKeyId: string | undefined;
  secretAccessKey: string | undefined;
  forcePathStyle: boolean;
  /** Bytes per multipart part; with `queueSize` this bounds the memory one upload holds. */
  partSize?: number;
  queueSize?: number;
}

const isNotFound = (err: unknown) => {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === 'NoSuchKey' || e?.name === 'NotFound' || e?.$metadata?.httpStatusCode === 404;
};

/** The one S3 client setup, shared by the storage and the maintenance sweep's inventory. */
export const s3ClientFor = (
  o: Pick<S3StorageOptions, 'endpoint' | 'region' | 'forcePathStyle' | 'accessKeyId' | 'secretAccessKey'>,
): S3Client =>
  new S3Client({
    endpoint: o.endpoint,
    region: o.region,
    forcePathStyle: o.forcePathStyle,
    credentials:
      o.accessKeyId && o.secretAccessKey
        ? { accessKeyId: o.accessKeyId, secretAccessKey: o.secretAccessKey }
        : undefined,
    // Newer SDKs sign streaming bodies with aws-chunked trailing checksums by default, which many
    // S3-compatible stores (and s3rver) store verbatim or reject: send checksums only where S3 requires them.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });

/**
 * S3 and S3-compatible stores (MinIO, R2, s3rver in tests). Uploads stream in parts from a fixed set of
 * buffers (s3-part-upload.ts): at most queueSize + 1 parts of partSize bytes, whatever the file size.
 */
export function s3Storage(o: S3StorageOptions): Storage {
  const client = s3ClientFor(o);
  const Bucket = o.bucket;
  const partSize = o.partSize ?? 5 * 1024 * 1024;
  const queueSize = o.queueSize ?? 2;

  async function list(prefix: string): Promise<string[]> {
    assertPrefix(prefix);
    const keys: string[] = [];
    let token: string | undefined;
    do {
      const page = await client.send(
        new ListObjectsV2Command({ Bucket, Prefix: prefix || undefined, ContinuationToken: token }),
      );
      for (const obj of page.Contents ?? []) if (obj.Key) keys.push(obj.Key);
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return keys.sort();
  }

  async function remove(key: string) {
    await client.send(new DeleteObjectCommand({ Bucket, Key: assertKey(key) }));
  }

  return {
    kind: 's3',
    list,
    delete: remove,

    async put(key, body, opts) {
      assertKey(key);
      try {
        const target = { client, bucket: Bucket, key, contentType: opts.contentType };
        return { size: await uploadInParts(body, target, { partSize, queueSize }) };
      } catch (err) {
        body.destroy();
        // A PutObject may have landed though its answer was lost.
        await remove(key).catch(() => {});
        // Either the body's own error (too large, wrong type, aborted), as its reader met it, or the store's.
        throw err;
      }
    },

    async get(key, range?: ByteRange) {
      try {
        const res = await client.send(
          new GetObjectCommand({
            Bucket,
            Key: assertKey(key),
            Range: range ? `bytes=${range.start}-${range.end}` : undefined,
          }),
        );
        return res.Body as Readable;
      } catch (err) {
        if (isNotFound(err)) throw new ObjectNotFoundError(key);
        throw err;
      }
    },

    async stat(key): Promise<ObjectStat | null> {
      try {
        const res = await client.send(new HeadObjectCommand({ Bucket, Key: assertKey(key) }));
        return { size: res.ContentLength ?? 0 };
      } catch (err) {
        if (isNotFound(err)) return null;
        throw err;
      }
    },

    async deletePrefix(prefix) {
      if (assertPrefix(prefix) === '') throw new Error('Refusing to delete the whole storage');
      const keys = await list(prefix);
      // Single deletes, a few at a time: DeleteObjects needs Content-MD5, which not every S3 peer accepts.
      for (let i = 0; i < keys.length; i += 8) await Promise.all(keys.slice(i, i + 8).map(remove));
      return keys.length;
    },

    async check() {
      await client.send(new HeadBucketCommand({ Bucket }));
    },
  };
}
