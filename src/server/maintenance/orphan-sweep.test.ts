import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, expect, it } from 'vitest';
import { multipart, wavBytes } from '../modules/tracks/test-uploads';
import { createStorage } from '../storage/create-storage';
import { startS3Peer } from '../storage/s3rver-peer';
import { describeEachDatabase, signedUpClient } from '../test/harness';
import { sweepStorage } from './orphan-sweep';
import { storageInventory } from './stored-objects';

const s3 = await startS3Peer('sweep-test');
afterAll(() => s3.close());
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sweep-disk-'));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

const HOUR = 3600_000;

for (const [label, env] of [
  ['disk', { DATA_DIR: dataDir }],
  ['s3', s3.env],
] as const) {
  describeEachDatabase(
    `storage sweep (${label})`,
    (ctx) => {
      const setup = () => {
        const storage = createStorage(ctx.config);
        const inventory = storageInventory(ctx.config, () => {});
        return { storage, inventory };
      };

      it('removes objects without a row and stale partial uploads, keeps tracks and recent work', async () => {
        const { storage, inventory } = setup();
        for (const key of await storage.list('')) await storage.delete(key);
        const { c, user } = await signedUpClient(ctx.app);
        const form = multipart([
          { name: 'type', value: 'vocals' },
          { name: 'name', value: 'kept' },
          { name: 'audio', filename: 'k.wav', contentType: 'audio/wav', data: wavBytes() },
        ]);
        const up = await ctx.app.inject({
          method: 'POST',
          url: '/api/tracks',
          headers: { ...form.headers, 'x-auth-token': c.token! },
          payload: form.payload,
        });
        expect(up.statusCode, up.body).toBe(201);
        const [kept] = await storage.list('');
        // What a crash between storing the object and committing its row leaves behind.
        const orphan = `u${user.id}/00000000-dead-beef-0000-000000000001`;
        await storage.put(orphan, Readable.from([wavBytes()]), { contentType: 'audio/wav' });
        if (label === 'disk') {
          // What a crash in the middle of an upload leaves: a part file aside.
          const incoming = path.join(dataDir, 'files', '.incoming');
          fs.mkdirSync(incoming, { recursive: true });
          fs.writeFileSync(path.join(incoming, 'crashed.part'), 'half a file');
        }
        expect((await storage.list('')).sort()).toEqual([kept, orphan].sort());

        // Within the grace period nothing goes: another process may be about to write the row.
        expect(await sweepStorage({ db: ctx.database.db, storage, inventory, graceSeconds: 3600 })).toEqual({
          orphans: 0,
          partials: 0,
          kept: 2,
        });
        // An hour later the orphan and the part file are swept, the track stays and still plays.
        const later = await sweepStorage({
          db: ctx.database.db,
          storage,
          inventory,
          graceSeconds: 3600,
          now: () => Date.now() + HOUR + 1000,
        });
        expect(later).toEqual({ orphans: 1, partials: label === 'disk' ? 1 : 0, kept: 1 });
        expect(await storage.list('')).toEqual([kept]);
        expect(await inventory.partials()).toEqual([]);
        const id = (up.json() as { id: number }).id;
        const audio = await c.get(`/api/tracks/${id}/audio`);
        expect(audio.status).toBe(200);
        inventory.close();
      });
    },
    { env: { ...env } },
  );
}
