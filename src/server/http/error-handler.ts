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
      if (err.headers) reply.headers(err.headers);
      return reply.code(err.status).send({ message: err.message, code: err.code });
    }
    const status = (err as FastifyError).statusCode;
    if (status && status >= 400 && status < 500) {
      const code = (err as FastifyError).code;
      // Each size limit has its own message: the audio file's (multipart) and a request body's (parser).
      if (code === 'FST_REQ_FILE_TOO_LARGE')
        return reply.code(413).send({ message: MESSAGES.fileTooLarge, code: 'file_too_large' });
      if (code === 'FST_ERR_CTP_BODY_TOO_LARGE')
        return reply.code(413).send({ message: MESSAGES.bodyTooLarge, code: 'body_too_large' });
      return reply.code(status).send({ message: err.message, code: code ?? 'bad_request' });
    }
    if (isUnavailable(err)) {
      req.log.error({ err }, 'dependency unavailable');
      return reply.code(503).send({ message: MESSAGES.serviceUnavailable, code: 'unavailable' });
    }
    req.log.error({ err }, 'unhandled error');
    return reply.code(500).send({ message: MESSAGES.internal, code: 'internal' });
  });
}
