import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { buffer, text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { diskStorage } from './disk-storage';
import { s3Storage } from './s3-storage';
import { startS3Peer } from './s3rver-peer';
import { ObjectNotFoundError, type Storage } from './storage';

/** A body that yields `chunks` and then fails, like an upload whose connection drops. */
function failingBody(chunks: Buffer[], error: Error): Readable {
  return Readable.from(
    (async function* () {
      for (const c of chunks) yield c;
      throw error;
    })(),
  );
}

/** The one behaviour both adapters must show. */
function contract(name: string, make: () => Promise<{ storage: Storage; close(): Promise<void> }>) {
  describe(`storage contract: ${name}`, () => {
    let storage: Storage;
    let close: () => Promise<void>;
    beforeAll(async () => {
      ({ storage, close } = await make());
    });
    afterAll(async () => close?.());

    it('passes its health check', async () => {
      await expect(storage.check()).resolves.toBeUndefined();
    });

    it('stores a stream, reports its size, and reads it back whole and by range', async () => {
      const data = randomBytes(300_000);
      const put = await storage.put(
        'u1/put-get',
        Readable.from([data.subarray(0, 1000), data.subarray(1000)]),
        {
          contentType: 'audio/wav',
        },
      );
      expect(put.size).toBe(data.length);
      expect(await storage.stat('u1/put-get')).toEqual({ size: data.length });
      expect((await buffer(await storage.get('u1/put-get'))).equals(data)).toBe(true);
      const part = await buffer(await storage.get('u1/put-get', { start: 1000, end: 1999 }));
      expect(part.equals(data.subarray(1000, 2000))).toBe(true);
      const tail = await buffer(
        await storage.get('u1/put-get', { start: data.length - 1, end: data.length - 1 }),
      );
      expect(tail.equals(data.subarray(-1))).toBe(true);
    });

    it('stores an empty object', async () => {
      await storage.put('u1/empty', Readable.from([]), { contentType: 'audio/wav' });
      expect(await storage.stat('u1/empty')).toEqual({ size: 0 });
    });

    it('leaves nothing behind when the body fails, small or multipart-sized', async () => {
      for (const [key, size] of [
        ['u2/fail-small', 10_000],
        ['u2/fail-large', 12 * 1024 * 1024],
      ] as const) {
        const chunks = Array.from({ length: Math.ceil(size / 65536) }, () => randomBytes(65536));
        const boom = new Error(`dropped ${key}`);
        await expect(storage.put(key, failingBody(chunks, boom), { contentType: 'audio/wav' })).rejects.toBe(
          boom,
        );
        expect(await storage.stat(key)).toBeNull();
      }
      expect(await storage.list('u2/')).toEqual([]);
    });

    it('reports a missing object as null / ObjectNotFoundError, and deletes idempotently', async () => {
      expect(await storage.stat('u1/missing')).toBeNull();
      await expect(storage.get('u1/missing')).rejects.toBeInstanceOf(ObjectNotFoundError);
      await storage.put('u1/to-delete', Readable.from([Buffer.from('bye')]), { contentType: 'audio/ogg' });
      expect(await text(await storage.get('u1/to-delete'))).toBe('bye');
      await storage.delete('u1/to-delete');
      await storage.delete('u1/to-delete');
      expect(await storage.stat('u1/to-delete')).toBeNull();
    });

    it('lists and deletes by folder prefix without touching other folders', async () => {
      for (const k of ['u7/a', 'u7/b', 'u70/c']) {
        await storage.put(k, Readable.from([Buffer.from(k)]), { contentType: 'audio/mpeg' });
      }
      expect(await storage.list('u7/')).toEqual(['u7/a', 'u7/b']);
      expect(await storage.deletePrefix('u7/')).toBe(2);
      expect(await storage.list('u7/')).toEqual([]);
      expect(await storage.list('u70/')).toEqual(['u70/c']);
      expect(await storage.list('')).toContain('u70/c');
    });

    it('deletes a folder while objects keep arriving in it (an account deleted as its upload finishes)', async () => {
      for (let i = 0; i < 100; i++)
        await storage.put(`u8/old${i}`, Readable.from([Buffer.from('x')]), { contentType: 'audio/wav' });
      // Objects land under the prefix for 60 ms from the moment the deletion starts.
      const until = Date.now() + 60;
      const arriving = (async () => {
        for (let i = 0; Date.now() < until; i++)
          await storage.put(`u8/new${i}`, Readable.from([Buffer.from('y')]), { contentType: 'audio/wav' });
      })();
      await expect(storage.deletePrefix('u8/')).resolves.toBeGreaterThanOrEqual(100);
      await arriving;
      // What arrived after the deletion is still deletable: the folder is not left half removed.
      await storage.deletePrefix('u8/');
      expect(await storage.list('u8/')).toEqual([]);
    });

    it('refuses keys that could name anything but a server-made object', async () => {
      for (const bad of ['../etc/passwd', 'u1/../../x', '/abs', 'u1/a.wav', 'u1//x', '', 'u1/']) {
        await expect(storage.stat(bad)).rejects.toThrow(/Invalid storage key/);
        await expect(storage.put(bad, Readable.from([]), { contentType: 'audio/wav' })).rejects.toThrow(
          /Invalid storage key/,
        );
      }
      await expect(storage.deletePrefix('')).rejects.toThrow(/Refusing/);
      await expect(storage.list('../')).rejects.toThrow(/Invalid storage prefix/);
    });
  });
}

contract('disk', async () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'disk-storage-'));
  return {
    storage: diskStorage(root),
    close: async () => fs.rmSync(root, { recursive: true, force: true }),
  };
});

contract('s3 (s3rver on 127.0.0.1)', async () => {
  const peer = await startS3Peer();
  // Small parts so the multipart path (several parts, abort on failure) runs with modest test data.
  return { storage: s3Storage({ ...peer.options, partSize: 5 * 1024 * 1024 }), close: peer.close };
});

describe('disk storage layout', () => {
  it('writes partial uploads aside and never shows them as objects', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'disk-layout-'));
    try {
      const storage = diskStorage(root);
      let release!: () => void;
      const gate = new Promise<void>((r) => {
        release = r;
      });
      const body = Readable.from(
        (async function* () {
          yield Buffer.from('first half ');
          await gate;
          yield Buffer.from('second half');
        })(),
      );
      const putting = storage.put('u3/partial', body, { contentType: 'audio/wav' });
      // While the body is open the bytes sit in .incoming, invisible to stat and list.
      await expect.poll(() => fs.readdirSync(path.join(root, '.incoming')).length, { interval: 5 }).toBe(1);
      expect(await storage.stat('u3/partial')).toBeNull();
      expect(await storage.list('')).toEqual([]);
      release();
      await putting;
      expect(fs.readFileSync(path.join(root, 'u3', 'partial'), 'utf8')).toBe('first half second half');
      expect(fs.readdirSync(path.join(root, '.incoming'))).toEqual([]);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
  it('sweeps only old partial uploads', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'disk-sweep-'));
    try {
      const storage = diskStorage(root);
      await storage.check();
      const old = path.join(root, '.incoming', 'old.part');
      const fresh = path.join(root, '.incoming', 'fresh.part');
      fs.writeFileSync(old, 'crashed');
      fs.writeFileSync(fresh, 'in progress');
      const twoDaysAgo = new Date(Date.now() - 48 * 3600 * 1000);
      fs.utimesSync(old, twoDaysAgo, twoDaysAgo);
      expect(await storage.sweepIncoming(24 * 3600 * 1000)).toBe(1);
      expect(fs.readdirSync(path.join(root, '.incoming'))).toEqual(['fresh.part']);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
