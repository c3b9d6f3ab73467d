/** The tracks API as the mixer calls it, and what the server keeps, for the tracks tests. */
import { asc } from 'drizzle-orm';
import { mixerSessions, tracks } from '../../db/schema';
import type { client, signedUpClient, TestContext } from '../../test/harness';
import { filesUnder, multipart } from './test-uploads';

type Api = Awaited<ReturnType<typeof signedUpClient>>['c'];

export const fields = (o: Partial<Record<'type' | 'name' | 'duration', string>> = {}) =>
  Object.entries({ type: 'vocals', name: 'Lead vocal', duration: '0', ...o }).map(([name, value]) => ({
    name,
    value,
  }));

/** The mixer's order: the file first, then type, name, duration. */
export const upload = (
  c: Api | ReturnType<typeof client>,
  data: Buffer,
  opts: {
    filename?: string;
    contentType?: string;
    field?: Partial<Record<'type' | 'name' | 'duration', string>>;
  } = {},
) => {
  const { payload, headers } = multipart([
    {
      name: 'audio',
      filename: opts.filename ?? 'take.wav',
      contentType: opts.contentType ?? 'audio/wav',
      data,
    },
    ...fields(opts.field),
  ]);
  return c.post('/api/tracks', payload, headers);
};

/** The tracks' rows, the sessions' count and the stored files: what a refused request must leave as it was. */
export async function snapshot(ctx: TestContext, filesDir: string) {
  const rows = await ctx.database.db
    .select({ id: tracks.id, key: tracks.storageKey, size: tracks.sizeBytes })
    .from(tracks)
    .orderBy(asc(tracks.id));
  const sessions = await ctx.database.db.select({ id: mixerSessions.id }).from(mixerSessions);
  return { rows, sessions: sessions.length, files: filesUnder(filesDir) };
}
