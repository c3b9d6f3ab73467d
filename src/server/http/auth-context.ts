import { parseCookie, stringifySetCookie } from 'cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { MESSAGES } from '../../shared/messages';
import { AppError, forbidden, unauthorized } from '../errors';
import type { UserRow } from '../modules/auth/user-view';

export const SESSION_COOKIE = 'sid';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in user, resolved from the session for /api requests; null when signed out. */
    user: UserRow | null;
    /** The raw session token the request carried (cookie or x-auth-token), if any. */
    sessionToken: string | null;
  }
}

export function sessionTokenOf(req: FastifyRequest): string | null {
  const header = req.headers['x-auth-token'];
  if (typeof header === 'string' && header.length > 0) return header;
  const cookies = req.headers.cookie;
  return cookies ? (parseCookie(cookies)[SESSION_COOKIE] ?? null) : null;
}

export function requireUser(req: FastifyRequest): UserRow {
  if (!req.user) throw unauthorized(MESSAGES.notSignedIn);
  return req.user;
}

/**
 * 401 when signed out, 403 when signed in without the admin role, 403 for an admin without two-factor
 * authentication: the server decides, never the browser.
 */
export function requireAdmin(req: FastifyRequest): UserRow {
  const user = requireUser(req);
  if (!user.isAdmin) throw forbidden(MESSAGES.adminRequired);
  if (user.totpEnabledAt === null) {
    throw new AppError(403, 'two_factor_required_for_admin', MESSAGES.twoFactorRequiredForAdmin);
  }
  return user;
}

/*
 * The one cookie is written here with the `cookie` package rather than through a Fastify cookie plugin, whose
 * hooks ran on every request (a parse on arrival, a pass before sending) to serve the few that sign in or out.
 */
export function setSessionCookie(reply: FastifyReply, token: string, maxAgeSeconds: number, secure: boolean) {
  reply.header('set-cookie', sessionCookie(token, { maxAge: maxAgeSeconds }, secure));
}

export function clearSessionCookie(reply: FastifyReply, secure: boolean) {
  reply.header('set-cookie', sessionCookie('', { maxAge: 0, expires: new Date(0) }, secure));
}

function sessionCookie(value: string, lifetime: { maxAge: number; expires?: Date }, secure: boolean): string {
  return stringifySetCookie({
    name: SESSION_COOKIE,
    value,
    ...lifetime,
    path: '/',
    httpOnly: true,
    secure,
    sameSite: 'lax',
  });
}
