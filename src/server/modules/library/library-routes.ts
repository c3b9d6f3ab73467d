import type { Multipart } from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import {
  keepMasterFields,
  libraryItemParams,
  libraryQuery,
  MAX_MASTER_FILE_BYTES,
  masterFileParams,
  renameBody,
} from '../../../shared/api/library';
import { badRequest } from '../../errors';
import { requireUser } from '../../http/auth-context';
import { parse } from '../../http/validate';
import type { LibraryService } from './library-service';
import type { KeptFile, MastersService, PaidSpend } from './masters-service';

/** GET /api/library, rename and delete: every read and write is scoped to the signed-in user. */
export async function libraryRoutes(app: FastifyInstance, library: LibraryService) {
  app.get('/api/library', async (req) => {
    const user = requireUser(req);
    const { q } = parse(libraryQuery, req.query);
    return library.list(user.id, q || undefined);
  });

  app.put('/api/library/:kind/:id', async (req, reply) => {
    const user = requireUser(req);
    const { kind, id } = parse(libraryItemParams, req.params);
    const { name } = parse(renameBody, req.body);
    await library.rename(user.id, kind, id, name);
    return reply.code(204).send();
  });

  app.delete('/api/library/:kind/:id', async (req, reply) => {
    const user = requireUser(req);
    const { kind, id } = parse(libraryItemParams, req.params);
    await library.remove(user.id, kind, id);
    return reply.code(204).send();
  });
}

/**
 * POST /api/masters keeps a paid download's files (decision 226); GET .../files/:index reads one back
 * without any spend. The spend is found on the server by its key: the browser cannot keep a file it did
 * not pay for, nor choose what the files count as.
 */
export async function mastersRoutes(app: FastifyInstance, masters: MastersService) {
  app.post('/api/masters', async (req, reply) => {
    const user = requireUser(req);
    if (!req.isMultipart())
      throw badRequest('Please send the master as multipart/form-data', 'not_multipart');
    const fields: Record<string, string> = {};
    const stored: KeptFile[] = [];
    let spend: PaidSpend | null = null;
    let free = 0;
    try {
      for await (const part of req.parts() as AsyncIterable<Multipart>) {
        if (part.type !== 'file') {
          if (typeof part.value !== 'string' || part.valueTruncated)
            throw badRequest(`The ${part.fieldname} field is too long`, 'validation');
          fields[part.fieldname] = part.value;
          continue;
        }
        if (part.fieldname !== 'file') {
          part.file.resume();
          throw badRequest('Please send the files in "file" fields', 'unexpected_file');
        }
        // The fields come first: the spend is checked before a byte of any file is stored.
        if (!spend) {
          const { spendKey } = parse(keepMasterFields, fields);
          spend = await masters.paidSpend(user.id, spendKey).catch((err) => {
            part.file.resume();
            throw err;
          });
          free = await masters.freeBytes(user.id);
        }
        let kept: ReturnType<MastersService['keptName']>;
        try {
          kept = masters.keptName(part.filename, masters.allowedKinds(spend));
        } catch (err) {
          part.file.resume();
          throw err;
        }
        const limit = Math.min(MAX_MASTER_FILE_BYTES, free);
        const file = await masters.storeFile(user.id, part.file, kept.kind, kept.name, limit);
        stored.push(file);
        free -= file.size;
      }
      if (!spend || stored.length === 0) throw badRequest('Please send the downloaded files', 'missing_file');
      const { meta } = parse(keepMasterFields, fields);
      const id = await masters.create(user.id, spend, meta, stored);
      stored.length = 0;
      return reply.code(201).send({ id });
    } catch (err) {
      await masters.discard(stored.map((f) => f.key));
      throw err;
    }
  });

  app.get('/api/masters/:id/files/:index', async (req, reply) => {
    const user = requireUser(req);
    const { id, index } = parse(masterFileParams, req.params);
    const { file, stream } = await masters.openFile(user.id, id, index);
    return reply
      .header('Content-Type', file.contentType)
      .header('Content-Length', file.sizeBytes)
      .header('Content-Disposition', `attachment; filename="${file.name}"`)
      .header('X-Content-Type-Options', 'nosniff')
      .header('Content-Security-Policy', "default-src 'none'; sandbox")
      .header('Cross-Origin-Resource-Policy', 'same-origin')
      .header('Cache-Control', 'private, no-store')
      .send(stream);
  });
}
