import { and, eq, gte, isNotNull, sql } from 'drizzle-orm';
import {
  ALBUM_MESSAGES,
  BILLING_MESSAGES,
  type SpendAlbumBody,
  type SpendAlbumResponse,
} from '../../../shared/api/billing';
import type { Db } from '../../db/client';
import { type AlbumDelivery, creditLedger, users } from '../../db/schema';
import { AppError } from '../../errors';
import { toPublicUser } from '../auth/user-view';
import { AlreadySpent, findSpend, requireOwnTracks, userRow } from './spend-lookups';

/**
 * Issue 31: an album download spends one mastering credit or crown per track, once for the whole album under
 * one idempotency key (decision 283). Kept mastering credits go first, then crowns (decision 220), in one
 * transaction: the user's row is locked, the amounts are worked out from it, and the balances change by a
 * conditional UPDATE that still requires them; the ledger gets one row per currency used, the first under
 * the key's reference (the second under `spend-album-crowns:`), carrying the request (the key answers only this album again) and the delivery record.
 * Not enough for every track: nothing is spent.
 */

/** The album as the key is bound to it: name, tracks in order, formats as a set, continuous file or not. */
export const albumDeliveryOf = (body: SpendAlbumBody): AlbumDelivery => ({
  name: body.album.name,
  tracks: body.album.tracks.map((t) => ({
    trackId: t.trackId ?? null,
    title: t.title,
    ...(t.versions ? { versions: [...t.versions].sort() } : {}),
  })),
  formats: [...body.album.formats].sort(),
  continuous: body.album.continuous,
});

/** Field by field (jsonb does not keep the order of an object's keys). */
const canonical = (a: AlbumDelivery) =>
  JSON.stringify([
    a.name,
    a.tracks.map((t) => [t.trackId, t.title, t.versions ? [...t.versions].sort() : null]),
    [...a.formats].sort(),
    a.continuous,
  ]);
const sameAlbum = (a: AlbumDelivery, b: AlbumDelivery) => canonical(a) === canonical(b);

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
const albumMessage = (credits: number, crowns: number) =>
  `Used ${[
    credits > 0 ? plural(credits, 'mastering credit', 'mastering credits') : '',
    crowns > 0 ? plural(crowns, 'crown', 'crowns') : '',
  ]
    .filter(Boolean)
    .join(' and ')}`;

export async function spendAlbum(db: Db, userId: number, body: SpendAlbumBody): Promise<SpendAlbumResponse> {
  const album = albumDeliveryOf(body);
  const count = album.tracks.length;
  const reference = `spend:${userId}:${body.idempotencyKey}`;
  // The second row's reference: a prefix no single spend's reference has, so no key can collide with it.
  const crownsReference = `spend-album-crowns:${userId}:${body.idempotencyKey}`;

  /** The stored answer for this album's key; 409 for anything else spent under it (issue 29). */
  const replay = async (earlier: NonNullable<Awaited<ReturnType<typeof findSpend>>>) => {
    const request = earlier.request;
    if (request?.type !== 'album' || !sameAlbum(request.album, album) || !earlier.album)
      throw new AppError(409, 'idempotency_key_reused', BILLING_MESSAGES.spendKeyReused);
    const { charged, masteringCredits, crowns } = earlier.album;
    return {
      success: true,
      message: `${albumMessage(masteringCredits, crowns)} (already charged for this download)`,
      user: toPublicUser(await userRow(db, userId)),
      charged,
    };
  };

  const earlier = await findSpend(db, reference);
  if (earlier) return replay(earlier);
  await requireOwnTracks(
    db,
    userId,
    album.tracks.flatMap((t) => (t.trackId === null ? [] : [t.trackId])),
  );
  try {
    return await db.transaction(async (tx) => {
      // The row lock orders concurrent spends of this user; the UPDATE below still checks the balances.
      const [held] = await tx
        .select({
          subscriptionType: users.subscriptionType,
          masteringCredits: users.masteringCredits,
          crowns: users.crowns,
        })
        .from(users)
        .where(eq(users.id, userId))
        .for('update');
      if (!held?.subscriptionType)
        throw new AppError(403, 'subscription_required', BILLING_MESSAGES.subscriptionRequiredMastering);
      const credits = Math.min(count, held.masteringCredits);
      const crowns = count - credits;
      const [row] = await tx
        .update(users)
        .set({
          masteringCredits: sql`${users.masteringCredits} - ${credits}`,
          crowns: sql`${users.crowns} - ${crowns}`,
        })
        .where(
          and(
            eq(users.id, userId),
            isNotNull(users.subscriptionType),
            gte(users.masteringCredits, credits),
            gte(users.crowns, crowns),
          ),
        )
        .returning();
      if (!row)
        throw new AppError(
          402,
          'no_credits',
          ALBUM_MESSAGES.notEnough(count, held.masteringCredits + held.crowns),
        );
      const rows = [
        { currency: credits > 0 ? 'mastering' : 'crown', delta: -(credits > 0 ? credits : crowns) },
        ...(credits > 0 && crowns > 0 ? [{ currency: 'crown', delta: -crowns }] : []),
      ];
      const written = await tx
        .insert(creditLedger)
        .values({
          userId,
          currency: rows[0]!.currency,
          delta: rows[0]!.delta,
          reason: 'spend_album',
          reference,
          request: { type: 'album', album },
          album: { ...album, charged: count, masteringCredits: credits, crowns },
        })
        .onConflictDoNothing({ target: creditLedger.reference })
        .returning({ id: creditLedger.id });
      // A concurrent request with the same key committed first: undo this one's UPDATE.
      if (written.length === 0) throw new AlreadySpent();
      if (rows[1])
        await tx.insert(creditLedger).values({
          userId,
          currency: rows[1].currency,
          delta: rows[1].delta,
          reason: 'spend_album',
          reference: crownsReference,
        });
      return {
        success: true,
        message: albumMessage(credits, crowns),
        user: toPublicUser(row),
        charged: count,
      };
    });
  } catch (err) {
    if (err instanceof AlreadySpent || err instanceof AppError) {
      // The same key may have been spent by a concurrent request (which may also have emptied the balance).
      const first = await findSpend(db, reference);
      if (first) return replay(first);
    }
    throw err;
  }
}
