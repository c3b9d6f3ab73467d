import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app';
import { sessionsRoutes } from './sessions-routes';
import { createSessionsService } from './sessions-service';

/** Saved mixer sessions (GET/POST/PUT/DELETE /api/sessions), owner only. */
export async function registerSessionsModule(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const sessions = createSessionsService(ctx.db, ctx.config.storageQuotaBytes);
  await sessionsRoutes(app, sessions);
  ctx.accountCleanups.push((user) => sessions.deleteAllForUser(user.id));
}
