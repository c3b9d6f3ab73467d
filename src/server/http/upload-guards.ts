import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import { AppError, tooManyRequests } from '../errors';

/**
 * Guards for request bodies that take long: uploads.
 * - Parallel uploads per user are limited (slots shared by every server process through Redis).
 * - A body that arrives slower than a minimum rate over a window is cut off (slow-loris): a client that
 *   trickles a byte now and then cannot hold a connection, a slot and a partial file for hours. The clock
 *   runs only while the server is waiting for the client, never while our own storage holds the body back.
 */

/** Socket-level limits for every request (Fastify options). */
export const SERVER_TIMEOUTS = {
  /** A socket with no traffic at all for this long is closed. */
  connectionTimeout: 60_000,
  /** Uploads are bounded by the rate guard below; a whole request still may not take longer than this. */
  requestTimeout: 30 * 60_000,
} as const;

export const UPLOAD_MESSAGES = {
  tooManyUploads: (n: number) =>
    `You already have ${n} upload${n === 1 ? '' : 's'} in progress. Please wait for one to finish.`,
  tooSlow: 'The upload was too slow and has been stopped. Please check your connection and try again.',
} as const;

/** A counting semaphore per user; a slot held by a crashed process expires on its own. */
export interface UploadSlots {
  acquire(userId: number, id: string, limit: number): Promise<boolean>;
  /** Keeps a held slot alive (long uploads outlive the slot's time to live). */
  refresh(userId: number, id: string): Promise<void>;
  release(userId: number, id: string): Promise<void>;
}

const SLOT_TTL_MS = 60_000;

export function memoryUploadSlots(now: () => number = Date.now): UploadSlots {
  const held = new Map<number, Map<string, number>>();
  const live = (userId: number) => {
    const slots = held.get(userId) ?? new Map<string, number>();
    for (const [id, expires] of slots) if (expires <= now()) slots.delete(id);
    held.set(userId, slots);
    return slots;
  };
  return {
    async acquire(userId, id, limit) {
      const slots = live(userId);
      if (slots.size >= limit) return false;
      slots.set(id, now() + SLOT_TTL_MS);
      return true;
    },
    async refresh(userId, id) {
      const slots = live(userId);
      if (slots.has(id)) slots.set(id, now() + SLOT_TTL_MS);
    },
    async release(userId, id) {
      const slots = held.get(userId);
      slots?.delete(id);
      if (slots?.size === 0) held.delete(userId);
    },
  };
}

// One sorted set per user: member = upload id, score = expiry time. Drop expired, count, add: atomically.
const ACQUIRE = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[4])
redis.call('PEXPIRE', KEYS[1], ARGV[5])
return 1`;

export function redisUploadSlots(redis: Redis, prefix: string): UploadSlots {
  const key = (userId: number) => `${prefix}uploads:${userId}`;
  return {
    async acquire(userId, id, limit) {
      const t = Date.now();
      const ok = await redis.eval(ACQUIRE, 1, key(userId), t, t + SLOT_TTL_MS, limit, id, SLOT_TTL_MS * 2);
      return Number(ok) === 1;
    },
    async refresh(userId, id) {
      await redis.zadd(key(userId), 'XX', Date.now() + SLOT_TTL_MS, id);
    },
    async release(userId, id) {
      await redis.zrem(key(userId), id);
    },
  };
}

export interface UploadGuardOptions {
  slots: UploadSlots;
  perUser: number;
  rateWindowSeconds: number;
  minBytesPerSecond: number;
  log?: (msg: string) => void;
}

export interface UploadGuards {
  /** Requests with a body still arriving. */
  inFlight(): number;
  /** Shutdown past its grace: stop every body still arriving, so its partial file is cleaned up now. */
  abortAll(): number;
}

const isUpload = (req: FastifyRequest) => req.method === 'POST' && req.routeOptions.url === '/api/tracks';
const hasBody = (req: FastifyRequest) =>
  !req.raw.complete &&
  (Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined);

/**
 * Registers the guards as onRequest hooks. Call it after the hook that resolves `req.user`, before the
 * routes, on the root instance.
 */
export function registerUploadGuards(app: FastifyInstance, o: UploadGuardOptions): UploadGuards {
  const arriving = new Set<FastifyRequest>();
  const TICK_MS = 1000;

  const watchRate = (req: FastifyRequest) => {
    const socket = req.raw.socket;
    // socket.bytesRead sampled once per second of "waiting for the client" (the body is flowing to its
    // consumer, not held back by it); a window of such seconds must bring at least the minimum.
    const samples: number[] = [socket.bytesRead];
    arriving.add(req);
    const timer = setInterval(() => {
      if (req.raw.complete || req.raw.destroyed || socket.destroyed) return stop();
      if (req.raw.readableFlowing !== true) return;
      samples.push(socket.bytesRead);
      if (samples.length <= o.rateWindowSeconds) return;
      const got = samples[samples.length - 1]! - samples[samples.length - 1 - o.rateWindowSeconds]!;
      samples.shift();
      if (got < o.minBytesPerSecond * o.rateWindowSeconds) {
        o.log?.(
          `cut off a request body arriving at ${Math.round(got / o.rateWindowSeconds)} B/s: ${req.url}`,
        );
        stop();
        req.raw.destroy(new AppError(408, 'upload_too_slow', UPLOAD_MESSAGES.tooSlow));
      }
    }, TICK_MS);
    timer.unref();
    function stop() {
      clearInterval(timer);
      arriving.delete(req);
    }
    req.raw.once('close', stop);
  };

  const guardBody = async (req: FastifyRequest, reply: FastifyReply) => {
    if (isUpload(req) && req.user) {
      const userId = req.user.id;
      const id = randomUUID();
      if (!(await o.slots.acquire(userId, id, o.perUser))) {
        reply.header('Connection', 'close');
        throw tooManyRequests(UPLOAD_MESSAGES.tooManyUploads(o.perUser));
      }
      const keepAlive = setInterval(() => void o.slots.refresh(userId, id).catch(() => {}), SLOT_TTL_MS / 3);
      keepAlive.unref();
      // 'close' fires however the exchange ends: answered, refused, aborted by the client or by us.
      reply.raw.once('close', () => {
        clearInterval(keepAlive);
        void o.slots.release(userId, id).catch(() => {});
      });
    }
    watchRate(req);
  };
  // Most requests carry no body: they pass at once, without an async hook's promise per request.
  app.addHook('onRequest', (req, reply, done) => {
    if (!hasBody(req)) return done();
    guardBody(req, reply).then(() => done(), done);
  });

  return {
    inFlight: () => arriving.size,
    abortAll() {
      const n = arriving.size;
      for (const req of arriving) req.raw.destroy(new Error('server shutting down'));
      arriving.clear();
      return n;
    },
  };
}
