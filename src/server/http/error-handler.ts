import type { FastifyError, FastifyInstance } from 'fastify';
import { MESSAGES } from '../../shared/messages';
import { AppError } from '../errors';

/** Connection-level failures of the database: the request can be retried once it is back. */
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  '57P01',
  '57P02',
  '57P03',
  '08006',
  '08001',
  '08003',
]);

/**
 * The database gave up a transaction that crossed another (deadlock, serialization failure) and rolled it
 * back whole. The request may be sent again as it was: payments and spends carry idempotency keys, and what
 * it did before that transaction (a provider's charge) is finished by the retry or the outbox sweep. So a
 * 503 with Retry-After, not a 500 that reads as a bug.
 */
const RETRYABLE_CODES = new Set(['40P01', '40001']);

const codesOf = (err: unknown): string[] => {
  const e = err as { code?: string; cause?: { code?: string } };
  return [e?.code ?? '', e?.cause?.code ?? ''];
};

const isUnavailable = (err: unknown): boolean => {
  const e = err as { code?: string; cause?: { code?: string }; message?: string };
  return (
    codesOf(err).some((code) => UNAVAILABLE_CODES.has(code)) ||
    /Connection terminated|timeout exceeded when trying to connect/i.test(
      `${e?.message ?? ''} ${(e?.cause as Error | undefined)?.message ?? ''}`,
    )
  );
};

/** A route's body limit as the 413 names it: 8 KB, 1 MB. */
export const bodyLimitText = (bytes: number): string =>
  bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0
    ? `${bytes / (1024 * 1024)} MB`
    : `${Math.round((bytes / 1024) * 10) / 10} KB`;

/** One place that turns errors into `{message, code}`; internals of 5xx never reach the client. */
export function registerErrorHandler(app: FastifyInstance) {
  app.setErrorHandler((err: FastifyError | AppError | Error, req, reply) => {
    if (err instanceof AppError) {
      if (err.headers) reply.headers(err.headers);
      return reply.code(err.status).send({ message: err.message, code: err.code });
    }
    const status = (err as FastifyError).statusCode;
    if (status && status >= 400 && status < 500) {
      const code = (err as FastifyError).code;
      // Each size limit has its own message: the audio file's (multipart) and a request body's (parser).
      if (code === 'FST_REQ_FILE_TOO_LARGE')
        return reply.code(413).send({ message: MESSAGES.fileTooLarge, code: 'file_too_large' });
      if (code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
        const limit = bodyLimitText(req.routeOptions.bodyLimit ?? app.initialConfig.bodyLimit ?? 0);
        return reply.code(413).send({ message: MESSAGES.bodyTooLarge(limit), code: 'body_too_large' });
      }
      return reply.code(status).send({ message: err.message, code: code ?? 'bad_request' });
    }
    if (codesOf(err).some((code) => RETRYABLE_CODES.has(code))) {
      req.log.warn({ err }, 'transaction rolled back by the database; the client may retry');
      return reply
        .code(503)
        .header('retry-after', '1')
        .send({ message: MESSAGES.serviceUnavailable, code: 'unavailable' });
    }
    if (isUnavailable(err)) {
      req.log.error({ err }, 'dependency unavailable');
      return reply.code(503).send({ message: MESSAGES.serviceUnavailable, code: 'unavailable' });
    }
    req.log.error({ err }, 'unhandled error');
    return reply.code(500).send({ message: MESSAGES.internal, code: 'internal' });
  });
}
