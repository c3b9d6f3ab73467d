import fastifyMultipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import { MAX_TRACK_BYTES } from '../../../shared/api/tracks';
import type { AppContext } from '../../app';
import { SERVER_TIMEOUTS } from '../../http/upload-guards';
import { createStorage } from '../../storage/create-storage';
import type { Storage } from '../../storage/storage';
import { registerSessionsModule } from '../sessions/sessions-module';
import { tracksRoutes } from './tracks-routes';
import { createTracksService } from './tracks-service';

export interface TracksModule {
  storage: Storage;
}

/** Age (time since its last write) after which a partial upload file belongs to no live upload. */
export const INCOMING_IDLE_MS = 5 * SERVER_TIMEOUTS.connectionTimeout;

/** Tracks (uploads, audio serving) and the mixer sessions that refer to them. */
export async function registerTracksModule(app: FastifyInstance, ctx: AppContext): Promise<TracksModule> {
  const storage = createStorage(ctx.config);
  if ('sweepIncoming' in storage) {
    // A crash mid-upload leaves a part file aside. Another live process's part file is written to at least
    // once a minute (a silent socket is closed after SERVER_TIMEOUTS.connectionTimeout, a slow one by the
    // rate guard), so one untouched for INCOMING_IDLE_MS is certainly nobody's: removed now, not in a day.
    const swept = await storage.sweepIncoming(INCOMING_IDLE_MS);
    if (swept) app.log.info(`removed ${swept} partial uploads left by an earlier crash`);
  }
  const tracks = createTracksService({
    db: ctx.db,
    storage,
    quotaBytes: ctx.config.storageQuotaBytes,
    log: (msg, err) => app.log.warn({ err }, msg),
  });
  // Multipart parsing exists only inside this scope: no other route accepts file parts.
  await app.register(async (scope) => {
    await scope.register(fastifyMultipart, {
      // Browsers send a bare file name; keeping any path lets the route refuse crafted ones.
      preservePath: true,
      limits: { fileSize: MAX_TRACK_BYTES, files: 2, fields: 10, fieldSize: 65_536, parts: 12 },
    });
    await tracksRoutes(scope, tracks);
  });
  await registerSessionsModule(app, ctx);
  ctx.accountCleanups.push((user) => tracks.deleteAllForUser(user.id));
  return { storage };
}
