import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { s3Storage } from './s3-storage';
import { type S3Peer, startS3Peer } from './s3rver-peer';
import type { Storage } from './storage';

const MiB = 1024 * 1024;
const PART = 5 * MiB;

/** `data` as a stream of chunks of uneven sizes, as a socket delivers them. */
const unevenChunks = (data: Buffer): Readable =>
  Readable.from(
    (function* () {
      let offset = 0;
      for (let i = 0; offset < data.length; i++) {
        const n = [65_536, 1, 300_001, 16_384][i % 4]!;
        yield data.subarray(offset, offset + n);
        offset += n;
      }
    })(),
  );

describe('S3 uploads in parts from a fixed set of buffers (s3rver on 127.0.0.1)', () => {
  let peer: S3Peer;
  let storage: Storage;
  beforeAll(async () => {
    peer = await startS3Peer();
    storage = s3Storage({ ...peer.options, partSize: PART, queueSize: 2 });
  });
  afterAll(async () => peer?.close());

  it('stores bodies at and around the part boundaries byte for byte', async () => {
    for (const size of [PART - 1, PART, PART + 1, 2 * PART, 3 * PART + 12_345]) {
      const data = randomBytes(size);
      const key = `u1/parts-${size}`;
      const put = await storage.put(key, unevenChunks(data), { contentType: 'audio/wav' });
      expect(put.size).toBe(size);
      expect(await storage.stat(key)).toEqual({ size });
      expect((await buffer(await storage.get(key))).equals(data)).toBe(true);
    }
  });

  it('holds at most queueSize + 1 part buffers, however long the body', async () => {
    const allocations = vi.spyOn(Buffer, 'allocUnsafeSlow');
    try {
      const data = randomBytes(8 * PART + 7);
      await storage.put('u1/bounded', unevenChunks(data), { contentType: 'audio/wav' });
      const partBuffers = allocations.mock.calls.filter(([size]) => size === PART).length;
      // Nine parts went up through at most three buffers (two on the wire, one filling).
      expect(partBuffers).toBeGreaterThanOrEqual(1);
      expect(partBuffers).toBeLessThanOrEqual(3);
      expect((await buffer(await storage.get('u1/bounded'))).equals(data)).toBe(true);
    } finally {
      allocations.mockRestore();
    }
  });

  it('aborts a multipart upload when the store refuses a part, and leaves no object', async () => {
    // A bucket that does not exist: the store refuses the upload with its own error.
    const broken = s3Storage({ ...peer.options, bucket: 'no-such-bucket', partSize: PART, queueSize: 2 });
    await expect(
      broken.put('u3/refused', unevenChunks(randomBytes(2 * PART + 1)), { contentType: 'audio/wav' }),
    ).rejects.toMatchObject({ name: 'NoSuchBucket' });
    expect(await storage.stat('u3/refused')).toBeNull();
  });
});
