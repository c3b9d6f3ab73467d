import fastifyMultipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import { MAX_MASTER_FILE_BYTES, MAX_MASTER_FILES } from '../../../shared/api/library';
import type { AppContext } from '../../app';
import type { Storage } from '../../storage/storage';
import { libraryRoutes, mastersRoutes } from './library-routes';
import { createLibraryService } from './library-service';
import { createMastersService } from './masters-service';

/** Issue 30: the library of a user's work and the paid masters it keeps (decisions 225-229). */
export async function registerLibraryModule(app: FastifyInstance, ctx: AppContext, storage: Storage) {
  const log = (msg: string, err?: unknown) => app.log.warn({ err }, msg);
  const quotaBytes = ctx.config.storageQuotaBytes;
  const masters = createMastersService({ db: ctx.db, storage, quotaBytes, log });
  const library = createLibraryService({ db: ctx.db, storage, masters, quotaBytes, log });
  await libraryRoutes(app, library);
  await app.register(async (scope) => {
    await scope.register(fastifyMultipart, {
      limits: {
        fileSize: MAX_MASTER_FILE_BYTES,
        files: MAX_MASTER_FILES,
        fields: 4,
        fieldSize: 65_536,
        parts: MAX_MASTER_FILES + 4,
      },
    });
    await mastersRoutes(scope, masters);
  });
  return { masters, library };
}
