import type { FastifyInstance } from 'fastify';
import { type AccountSessionsResponse, accountSessionParam } from '../../../shared/api/auth';
import { MESSAGES } from '../../../shared/messages';
import { notFound } from '../../errors';
import { clearSessionCookie, requireUser } from '../../http/auth-context';
import { parse } from '../../http/validate';
import { deviceLabel } from './device-label';
import { SESSIONS_PER_USER, type SessionService } from './session-service';

/**
 * The signed-in account's sessions, as Settings lists them, and "sign out" for one of them. Signing out
 * everywhere is POST /api/auth/logout with {all: true} (auth-routes.ts).
 */
export async function accountSessionsRoutes(
  app: FastifyInstance,
  d: { sessions: SessionService; secureCookies: boolean },
) {
  app.get('/api/auth/sessions', async (req): Promise<AccountSessionsResponse> => {
    const user = requireUser(req);
    const rows = await d.sessions.list(user.id, req.sessionToken);
    return {
      sessions: rows.map((r) => ({
        id: r.publicId,
        device: deviceLabel(r.userAgent),
        address: r.address,
        createdAt: r.createdAt.toISOString(),
        lastSeenAt: r.lastSeenAt.toISOString(),
        current: r.current,
      })),
      limit: SESSIONS_PER_USER,
    };
  });

  app.delete('/api/auth/sessions/:id', async (req, reply) => {
    const user = requireUser(req);
    const { id } = parse(accountSessionParam, req.params);
    const ended = await d.sessions.revokeById(user.id, id, req.sessionToken);
    // Another account's session, one already ended, or none at all: the same answer, and nothing ended.
    if (ended === 'none') throw notFound('That session is not signed in.');
    if (ended === 'current') clearSessionCookie(reply, d.secureCookies);
    return { message: MESSAGES.sessionEnded };
  });
}
