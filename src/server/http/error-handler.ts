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

const isUnavailable = (err: unknown): boolean => {
  const e = err as { code?: string; cause?: { code?: string }; message?: string };
  return (
    UNAVAILABLE_CODES.has(e?.code ?? '') ||
    UNAVAILABLE_CODES.has(e?.cause?.code ?? '') ||
    /Connection terminated|timeout exceeded when trying to connect/i.test(
      `${e?.message ?? ''} ${(e?.cause as Error | undefined)?.message ?? ''}`,
    )
  );
};

/** One place that turns errors into `{message, code}`; internals of 5xx never reach the client. */
export function registerErrorHandler(app: FastifyInstance) {
  app.setErrorHandler((err: FastifyError | AppError | Error, req, reply) => {
    if (err instanceof AppError) {
      return reply.code(err.status).send({ message: err.message, code: err.code });
    }
    const status = (err as FastifyError).statusCode;
    if (status && status >= 400 && status < 500) {
      const message = status === 413 ? MESSAGES.fileTooLarge : err.message;
      return reply.code(status).send({ message, code: (err as FastifyError).code ?? 'bad_request' });
    }
    if (isUnavailable(err)) {
      req.log.error({ err }, 'dependency unavailable');
      return reply.code(503).send({ message: MESSAGES.serviceUnavailable, code: 'unavailable' });
    }
    req.log.error({ err }, 'unhandled error');
    return reply.code(500).send({ message: MESSAGES.internal, code: 'internal' });
  });
}
