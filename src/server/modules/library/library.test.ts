/**
 * Issue 30: the library (GET /api/library, rename, delete) and the paid masters it keeps (decision 226):
 * a master's files are kept only for a real mastering spend of this user, read back without a charge,
 * and deleted with nothing left behind, even when storage fails in the middle of the delete.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq, like, sql } from 'drizzle-orm';
import { afterAll, beforeEach, expect, it } from 'vitest';
import { LIBRARY_MESSAGES, type LibraryList } from '../../../shared/api/library';
import { creditLedger, masterFiles, masters } from '../../db/schema';
import { sweepStorage } from '../../maintenance/orphan-sweep';
import { storageInventory } from '../../maintenance/stored-objects';
import { createStorage } from '../../storage/create-storage';
import type { Storage } from '../../storage/storage';
import { describeEachDatabase, signedUpClient } from '../../test/harness';
import { type Client, expectLedgerMatchesBalances, me, subscribe } from '../billing/billing-test-helpers';
import { type FormPart, multipart, wavBytes } from '../tracks/test-uploads';
import { createMastersService } from './masters-service';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'library-test-'));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

const wav = wavBytes({ seconds: 0.2 });
const mp3 = Buffer.concat([Buffer.from('ID3'), Buffer.alloc(300, 7)]);

async function upload(
  c: Client,
  type: 'vocals' | 'instrumental' | 'mixed',
  name: string,
  extra: FormPart[] = [],
) {
  const { payload, headers } = multipart([
    { name: 'type', value: type },
    { name: 'name', value: name },
    { name: 'duration', value: '0' },
    ...extra,
    { name: 'audio', filename: `${name}.wav`, contentType: 'audio/wav', data: wav },
  ]);
  const res = await c.post('/api/tracks', payload, headers);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return (res.body as { id: number }).id;
}

const keep = (
  c: Client,
  spendKey: string,
  files: { filename: string; data: Buffer }[],
  name = 'Song master',
) => {
  const meta = {
    name,
    preset: 'warm',
    genre: 'pop',
    referenceName: 'ref.wav',
    settings: { eq: 2 },
    figures: { lufs: -14.1 },
  };
  const { payload, headers } = multipart([
    { name: 'spendKey', value: spendKey },
    { name: 'meta', value: JSON.stringify(meta) },
    ...files.map((f) => ({
      name: 'file',
      filename: f.filename,
      contentType: 'application/octet-stream',
      data: f.data,
    })),
  ]);
  return c.post('/api/masters', payload, headers);
};

const list = async (c: Client, q = '') => {
  const res = await c.get(`/api/library${q ? `?q=${encodeURIComponent(q)}` : ''}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as LibraryList;
};

describeEachDatabase(
  'library',
  (ctx) => {
    const storage = (): Storage => createStorage(ctx.config);
    // User ids start again at 1 in every test (the tables are truncated): so does storage.
    beforeEach(async () => {
      const s = storage();
      for (const key of await s.list('')) await s.delete(key);
    });

    /** A Pro user with a paid two-format master download (spent with key K) kept in the library. */
    async function paidMaster(key = 'master-key-1') {
      const { c, user } = await signedUpClient(ctx.app);
      await subscribe(ctx.app, c, 'pro');
      const spent = await c.post('/api/spend-credit', {
        type: 'mastering',
        idempotencyKey: key,
        formats: ['wav', 'mp3'],
      });
      expect(spent.status, JSON.stringify(spent.body)).toBe(200);
      return { c, user };
    }

    it('lists uploads, mixes, sessions and masters newest first, and finds them by name', async () => {
      const { c } = await paidMaster();
      const vocals = await upload(c, 'vocals', 'Lead vocal');
      const beat = await upload(c, 'instrumental', 'Night beat');
      const arrangement = {
        vocalTrackId: vocals,
        instrumentalTrackId: beat,
        sampleRate: 48000,
        length: 96000,
        vocalShare: 75,
        outputVolume: 80,
        clips: [{ id: 'v1', trackType: 'vocals', sourceStart: 0, sourceEnd: 9600, position: 0 }],
        genre: 'pop',
      };
      const mix = await upload(c, 'mixed', 'Final Mix', [
        { name: 'arrangement', value: JSON.stringify(arrangement) },
      ]);
      const session = await c.post('/api/sessions', {
        name: 'Friday take',
        vocalTrackId: vocals,
        instrumentalTrackId: beat,
      });
      expect(session.status).toBe(201);
      const kept = await keep(c, 'master-key-1', [{ filename: 'mastered-warm-1.wav', data: wav }]);
      expect(kept.status, JSON.stringify(kept.body)).toBe(201);

      const all = await list(c);
      expect(all.items.map((i) => [i.kind, i.name])).toEqual([
        ['master', 'Song master'],
        ['session', 'Friday take'],
        ['mix', 'Final Mix'],
        ['upload', 'Night beat'],
        ['upload', 'Lead vocal'],
      ]);
      const mixItem = all.items.find((i) => i.kind === 'mix');
      expect(mixItem).toMatchObject({
        id: mix,
        vocalShare: 75,
        outputVolume: 80,
        clipCount: 1,
        seconds: 2,
        genre: 'pop',
      });
      const master = all.items[0]!;
      expect(master).toMatchObject({
        kind: 'master',
        preset: 'warm',
        genre: 'pop',
        referenceName: 'ref.wav',
        settings: { eq: 2 },
        figures: { lufs: -14.1 },
        versions: ['main'],
        formats: ['wav', 'mp3'],
      });
      expect(all.usedBytes).toBe(4 * wav.length + (await sessionBytes(c)));

      expect((await list(c, 'night')).items.map((i) => i.name)).toEqual(['Night beat']);
      expect((await list(c, 'WARM')).items.map((i) => i.kind)).toEqual(['master']);
      // A LIKE wildcard is searched for literally.
      expect((await list(c, '%')).items).toEqual([]);
      // Another user sees none of it.
      const other = await signedUpClient(ctx.app);
      expect((await list(other.c)).items).toEqual([]);
    });

    const sessionBytes = async (c: Client) => {
      const res = await c.get('/api/sessions');
      const ids = (res.body as { sessions: { id: number }[] }).sessions.map((s) => s.id);
      const rows = await ctx.database.db.execute(
        sql`select coalesce(sum(size_bytes), 0)::int as n from mixer_sessions where id = any(${`{${ids.join(',')}}`}::int[])`,
      );
      return Number(
        ((rows as unknown as { rows?: { n: number }[] }).rows ?? (rows as unknown as { n: number }[]))[0]!.n,
      );
    };

    it('renames each kind, and refuses anyone else', async () => {
      const { c } = await paidMaster();
      const track = await upload(c, 'vocals', 'take 1');
      const session = (await c.post('/api/sessions', { name: 's', vocalTrackId: track })).body as {
        id: number;
      };
      expect((await keep(c, 'master-key-1', [{ filename: 'a.mp3', data: mp3 }])).status).toBe(201);
      const masterId = (await list(c)).items.find((i) => i.kind === 'master')!.id;
      const stranger = await signedUpClient(ctx.app);
      for (const [kind, id] of [
        ['track', track],
        ['session', session.id],
        ['master', masterId],
      ] as const) {
        expect((await stranger.c.put(`/api/library/${kind}/${id}`, { name: 'mine now' })).status).toBe(404);
        expect((await c.put(`/api/library/${kind}/${id}`, { name: `  ${kind} renamed ` })).status).toBe(204);
      }
      expect((await list(c)).items.map((i) => i.name).sort()).toEqual([
        'master renamed',
        'session renamed',
        'track renamed',
      ]);
      expect((await c.put(`/api/library/track/${track}`, { name: '   ' })).status).toBe(400);
    });

    it('keeps only a real mastering spend of this user, once, in the formats paid for', async () => {
      const { c, user } = await paidMaster();
      // A key never spent, a mix spend and someone else's spend are not masters.
      expect((await keep(c, 'never-spent-key', [{ filename: 'a.wav', data: wav }])).body).toMatchObject({
        message: LIBRARY_MESSAGES.spendUnknown,
      });
      const stranger = await signedUpClient(ctx.app);
      expect((await keep(stranger.c, 'master-key-1', [{ filename: 'a.wav', data: wav }])).status).toBe(404);
      // FLAC was not paid for; a WAV name on MP3 bytes is not the WAV.
      expect((await keep(c, 'master-key-1', [{ filename: 'a.flac', data: wav }])).body).toMatchObject({
        message: LIBRARY_MESSAGES.fileNotPaid,
      });
      expect((await keep(c, 'master-key-1', [{ filename: 'a.wav', data: mp3 }])).body).toMatchObject({
        message: LIBRARY_MESSAGES.fileType,
      });
      expect(await storage().list(`u${user.id}/`)).toEqual([]);
      const ok = await keep(c, 'master-key-1', [
        { filename: 'mastered-warm-1.wav', data: wav },
        { filename: 'mastered-warm-1.mp3', data: mp3 },
      ]);
      expect(ok.status, JSON.stringify(ok.body)).toBe(201);
      const again = await keep(c, 'master-key-1', [{ filename: 'b.wav', data: wav }]);
      expect(again.status).toBe(409);
      expect(await storage().list(`u${user.id}/`)).toHaveLength(2);
    });

    it('downloads a kept master again, byte for byte, without a second charge', async () => {
      const { c, user } = await paidMaster();
      expect((await keep(c, 'master-key-1', [{ filename: 'mastered-warm-1.wav', data: wav }])).status).toBe(
        201,
      );
      const before = await me(c);
      const master = (await list(c)).items.find((i) => i.kind === 'master')!;
      if (master.kind !== 'master') throw new Error('no master');
      for (let i = 0; i < 3; i++) {
        const res = await ctx.app.inject({
          method: 'GET',
          url: master.files[0]!.url,
          headers: { 'x-auth-token': c.token! },
        });
        expect(res.statusCode).toBe(200);
        expect(res.headers['content-disposition']).toBe('attachment; filename="mastered-warm-1.wav"');
        expect(Buffer.compare(res.rawPayload, wav)).toBe(0);
      }
      const after = await me(c);
      expect([after.masteringCredits, after.crowns]).toEqual([before.masteringCredits, before.crowns]);
      const spends = await ctx.database.db
        .select()
        .from(creditLedger)
        .where(like(creditLedger.reference, `spend:${user.id}:%`));
      expect(spends).toHaveLength(1);
      await expectLedgerMatchesBalances(ctx.database.db, user.id);
      const stranger = await signedUpClient(ctx.app);
      expect((await stranger.c.get(master.files[0]!.url)).status).toBe(404);
    });

    it('keeps an album download as its one ZIP, for its owner only, once, read back without a charge', async () => {
      const { c, user } = await paidMaster();
      const album = {
        name: 'Debian Nights',
        tracks: [{ title: 'Strike' }, { title: 'Frontiers' }, { title: 'Hunting' }],
        formats: ['wav', 'mp3'],
        continuous: true,
      };
      const spent = await c.post('/api/spend-album', { idempotencyKey: 'album-key-1', album });
      expect(spent.status, JSON.stringify(spent.body)).toBe(200);
      const zip = Buffer.concat([Buffer.from('PK\u0003\u0004', 'latin1'), Buffer.alloc(500, 3)]);
      // A loose track was never handed over (the album came as one ZIP); a stranger has no such spend.
      expect((await keep(c, 'album-key-1', [{ filename: '01 - Strike.wav', data: wav }])).body).toMatchObject(
        {
          message: LIBRARY_MESSAGES.fileNotPaid,
        },
      );
      const stranger = await signedUpClient(ctx.app);
      await subscribe(ctx.app, stranger.c, 'pro');
      expect((await keep(stranger.c, 'album-key-1', [{ filename: 'a.zip', data: zip }])).status).toBe(404);
      // Not a ZIP under a ZIP's name.
      expect((await keep(c, 'album-key-1', [{ filename: 'a.zip', data: wav }])).body).toMatchObject({
        message: LIBRARY_MESSAGES.fileType,
      });
      expect(await storage().list(`u${user.id}/`)).toEqual([]);
      // Ten identical keeps at once: one master, one file stored, the rest refused and nothing left over.
      const tries = await Promise.all(
        Array.from({ length: 10 }, () =>
          keep(c, 'album-key-1', [{ filename: 'Debian Nights-1.zip', data: zip }], 'Debian Nights'),
        ),
      );
      expect(tries.map((t) => t.status).sort()).toEqual([201, ...Array(9).fill(409)]);
      expect(await storage().list(`u${user.id}/`)).toHaveLength(1);
      const before = await me(c);
      const kept = (await list(c)).items.find((i) => i.kind === 'master' && i.name === 'Debian Nights');
      if (kept?.kind !== 'master') throw new Error('the album was not kept');
      expect([...kept.formats].sort()).toEqual(['mp3', 'wav']);
      expect(kept.files).toHaveLength(1);
      const days = (Date.parse(kept.keptUntil) - Date.now()) / 86_400_000;
      expect(days).toBeGreaterThan(29.9);
      expect(days).toBeLessThanOrEqual(30);
      for (let i = 0; i < 2; i++) {
        const res = await ctx.app.inject({
          method: 'GET',
          url: kept.files[0]!.url,
          headers: { 'x-auth-token': c.token! },
        });
        expect(res.statusCode).toBe(200);
        expect(Buffer.compare(res.rawPayload, zip)).toBe(0);
      }
      expect((await stranger.c.get(kept.files[0]!.url)).status).toBe(404);
      const after = await me(c);
      expect([after.masteringCredits, after.crowns]).toEqual([before.masteringCredits, before.crowns]);
      await expectLedgerMatchesBalances(ctx.database.db, user.id);
    });

    it('lets the files go after 30 days (storage freed), keeping the settings and figures', async () => {
      const { c, user } = await paidMaster();
      expect((await keep(c, 'master-key-1', [{ filename: 'a.wav', data: wav }])).status).toBe(201);
      const [row] = await ctx.database.db.select().from(masters).where(eq(masters.userId, user.id));
      const paid = (
        await ctx.database.db
          .select()
          .from(creditLedger)
          .where(eq(creditLedger.reference, row!.spendReference))
      )[0]!;
      expect(row!.keptUntil.getTime() - paid.createdAt.getTime()).toBe(30 * 86_400_000);
      await ctx.database.db
        .update(masters)
        .set({ keptUntil: new Date(Date.now() - 1000) })
        .where(eq(masters.id, row!.id));
      const after = await list(c);
      expect(after.items[0]).toMatchObject({ kind: 'master', files: [], figures: { lufs: -14.1 } });
      expect(after.usedBytes).toBe(0);
      expect(await storage().list(`u${user.id}/`)).toEqual([]);
      const gone = await c.get(`/api/masters/${row!.id}/files/0`);
      expect(gone.status).toBe(410);
    });

    it('deletes each kind and frees its storage; an upload a mix uses stays until the mix goes', async () => {
      const { c, user } = await paidMaster();
      const vocals = await upload(c, 'vocals', 'v');
      const session = (await c.post('/api/sessions', { name: 's', vocalTrackId: vocals })).body as {
        id: number;
      };
      expect((await keep(c, 'master-key-1', [{ filename: 'a.wav', data: wav }])).status).toBe(201);
      const masterId = (await list(c)).items.find((i) => i.kind === 'master')!.id;
      const inUse = await c.delete(`/api/library/track/${vocals}`);
      expect(inUse.status).toBe(409);
      expect(inUse.body).toMatchObject({ message: LIBRARY_MESSAGES.trackInUse(1) });
      const stranger = await signedUpClient(ctx.app);
      expect((await stranger.c.delete(`/api/library/master/${masterId}`)).status).toBe(404);
      expect((await c.delete(`/api/library/session/${session.id}`)).status).toBe(204);
      expect((await c.delete(`/api/library/track/${vocals}`)).status).toBe(204);
      expect((await c.delete(`/api/library/master/${masterId}`)).status).toBe(204);
      expect((await c.delete(`/api/library/master/${masterId}`)).status).toBe(404);
      const after = await list(c);
      expect(after.items).toEqual([]);
      expect(after.usedBytes).toBe(0);
      expect(await storage().list(`u${user.id}/`)).toEqual([]);
      expect(await ctx.database.db.select().from(masterFiles)).toEqual([]);
      // The spend stays in the ledger: deleting a master is not a refund.
      await expectLedgerMatchesBalances(ctx.database.db, user.id);
    });

    it('a delete when storage fails midway leaves no row behind, and the sweep frees the object', async () => {
      const { c, user } = await paidMaster();
      expect(
        (
          await keep(c, 'master-key-1', [
            { filename: 'a.wav', data: wav },
            { filename: 'a.mp3', data: mp3 },
          ])
        ).status,
      ).toBe(201);
      const real = storage();
      const [row] = await ctx.database.db.select().from(masters).where(eq(masters.userId, user.id));
      // Storage answers the first delete and fails every one after it.
      let deletes = 0;
      const failing: Storage = {
        ...real,
        kind: real.kind,
        put: real.put.bind(real),
        get: real.get.bind(real),
        stat: real.stat.bind(real),
        list: real.list.bind(real),
        deletePrefix: real.deletePrefix.bind(real),
        check: real.check.bind(real),
        delete: async (key) => {
          if (deletes++ > 0) throw new Error('storage is down');
          return real.delete(key);
        },
      };
      const service = createMastersService({ db: ctx.database.db, storage: failing, quotaBytes: 1e9 });
      await service.remove(user.id, row!.id);
      expect(await ctx.database.db.select().from(masters)).toEqual([]);
      expect(await ctx.database.db.select().from(masterFiles)).toEqual([]);
      expect(await real.list(`u${user.id}/`)).toHaveLength(1);
      expect((await list(c)).usedBytes).toBe(0);
      // The hourly sweep finds the object with no row and frees it.
      const inventory = storageInventory(ctx.config, () => {});
      const swept = await sweepStorage({
        db: ctx.database.db,
        storage: real,
        inventory,
        graceSeconds: 0,
        now: () => Date.now() + 1000,
      });
      expect(swept.orphans).toBe(1);
      expect(await real.list(`u${user.id}/`)).toEqual([]);
    });

    it('a failure inside the delete transaction leaves the master whole', async () => {
      const { c, user } = await paidMaster();
      expect((await keep(c, 'master-key-1', [{ filename: 'a.wav', data: wav }])).status).toBe(201);
      const [row] = await ctx.database.db.select().from(masters).where(eq(masters.userId, user.id));
      // The files' rows are deleted first; the master's own delete then fails (a trigger stands in for a
      // database error at that moment): the transaction rolls both back and no object is touched.
      const run = (statement: string) => ctx.database.db.execute(sql.raw(statement));
      await run(`create or replace function refuse_master_delete() returns trigger language plpgsql as
        $$ begin raise exception 'database failed mid-delete'; end $$`);
      await run(`create trigger refuse_master_delete before delete on masters
        for each row execute function refuse_master_delete()`);
      try {
        const res = await c.delete(`/api/library/master/${row!.id}`);
        expect(res.status).toBe(500);
      } finally {
        await run('drop trigger refuse_master_delete on masters');
        await run('drop function refuse_master_delete()');
      }
      expect(
        await ctx.database.db.select().from(masterFiles).where(eq(masterFiles.masterId, row!.id)),
      ).toHaveLength(1);
      expect(await storage().list(`u${user.id}/`)).toHaveLength(1);
      const master = (await list(c)).items[0]!;
      if (master.kind !== 'master') throw new Error('no master');
      expect((await c.get(master.files[0]!.url)).status).toBe(200);
    });
  },
  { env: { DATA_DIR: dataDir } },
);
