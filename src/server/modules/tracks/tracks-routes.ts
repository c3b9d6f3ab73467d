import type { Multipart } from '@fastify/multipart';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { listTracksQuery, trackIdParam, uploadTrackFields } from '../../../shared/api/tracks';
import { AppError, badRequest } from '../../errors';
import { requireUser } from '../../http/auth-context';
import { parse } from '../../http/validate';
import { parseRange } from './byte-range';
import type { StoredAudio, TrackRow, TracksService } from './tracks-service';

const EXTENSIONS: Record<string, string> = {
  'audio/mpeg': 'mp3',
  'audio/ogg': 'ogg',
  'audio/flac': 'flac',
  'audio/aiff': 'aiff',
  'audio/mp4': 'm4a',
  'audio/aac': 'aac',
};

/** Only letters, digits, spaces, dots, dashes and underscores reach a Content-Disposition file name. */
export function safeFileName(name: string, contentType: string): string {
  const ext = EXTENSIONS[contentType] ?? 'wav';
  const base = name
    .normalize('NFKD')
    .replace(/[^\w .-]+/g, '')
    .replace(/\.+/g, '.')
    .replace(/^[.\s]+|[.\s]+$/g, '')
    .slice(0, 100);
  return `${base || 'track'}.${ext}`;
}

/** Folder parts in a file name only come from crafted requests (browsers send the bare name). */
const hasPath = (filename: string) =>
  /[/\\]|^\.\.?$/.test(filename) || [...filename].some((c) => c.charCodeAt(0) < 0x20);

function audioHeaders(reply: FastifyReply, row: TrackRow) {
  const filename = safeFileName(row.name, row.contentType);
  reply
    .header('Accept-Ranges', 'bytes')
    .header('Content-Type', row.contentType)
    .header('X-Content-Type-Options', 'nosniff')
    .header('Content-Disposition', `inline; filename="${filename}"`)
    // Even if a browser were talked into rendering it, the response can run nothing and reach nothing.
    .header('Content-Security-Policy', "default-src 'none'; sandbox")
    // The app is cross-origin isolated (COEP require-corp): our own pages may embed it, nobody else.
    .header('Cross-Origin-Resource-Policy', 'same-origin')
    // Bytes under an id never change: revalidate by ETag, keep it out of shared caches.
    .header('Cache-Control', 'private, no-cache')
    .header('ETag', `"t${row.id}-${row.sizeBytes}"`);
}

const PARSER_LIMITS = new Set(['FST_PARTS_LIMIT', 'FST_FILES_LIMIT', 'FST_FIELDS_LIMIT']);
// busboy's own words for a body that is not a well-formed multipart form.
const MALFORMED = /boundary not found|unexpected end of (form|multipart)|malformed part header/i;

/** The multipart parser's failures are the client's malformed form (400), not our fault (500). */
function asFormError(err: unknown): unknown {
  if (err instanceof AppError) return err;
  const { code, message } = err as { code?: string; message?: string };
  if (code && PARSER_LIMITS.has(code)) return badRequest('The upload form has too many fields', 'validation');
  if (code === 'FST_REQ_FILE_TOO_LARGE') return err;
  if (code?.startsWith('FST_') || MALFORMED.test(message ?? '')) {
    return badRequest('The upload form is malformed', 'malformed_form');
  }
  return err;
}

export async function tracksRoutes(app: FastifyInstance, tracks: TracksService) {
  app.post('/api/tracks', async (req, reply) => {
    const user = requireUser(req);
    if (!req.isMultipart())
      throw badRequest('Please upload the track as multipart/form-data', 'not_multipart');
    const free = await tracks.assertRoom(user.id);
    const fields: Record<string, string> = {};
    let stored: StoredAudio | null = null;
    try {
      for await (const part of req.parts() as AsyncIterable<Multipart>) {
        if (part.type === 'file') {
          if (part.fieldname !== 'audio' || stored) {
            part.file.resume();
            throw badRequest('Please upload one audio file, in the "audio" field', 'unexpected_file');
          }
          if (hasPath(part.filename)) {
            part.file.resume();
            throw badRequest('Please upload a file whose name has no folder path in it', 'invalid_file_name');
          }
          // Fields sent ahead of the file are checked before a byte of it is stored.
          const early = uploadTrackFields.partial().safeParse(fields);
          if (!early.success) {
            part.file.resume();
            parse(uploadTrackFields, fields);
          }
          stored = await tracks.storeAudio(user.id, part.file, free);
        } else if (typeof part.value === 'string' && !part.valueTruncated) {
          fields[part.fieldname] = part.value;
        } else {
          throw badRequest(`The ${part.fieldname} field is too long`, 'validation');
        }
      }
      if (!stored) throw badRequest('Please choose an audio file to upload', 'missing_file');
      const input = parse(uploadTrackFields, fields);
      const view = await tracks.createTrack(user.id, stored, input);
      stored = null;
      return reply.code(201).send(view);
    } catch (err) {
      if (stored) await tracks.discard(stored.key);
      throw asFormError(err);
    }
  });

  app.get('/api/tracks', async (req) => {
    const user = requireUser(req);
    return tracks.list(user.id, parse(listTracksQuery, req.query));
  });

  app.get('/api/tracks/:id', async (req) => {
    const user = requireUser(req);
    const { id } = parse(trackIdParam, req.params);
    return tracks.get(user.id, id);
  });

  app.delete('/api/tracks/:id', async (req, reply) => {
    const user = requireUser(req);
    const { id } = parse(trackIdParam, req.params);
    await tracks.remove(user.id, id);
    return reply.code(204).send();
  });

  // Playing and seeking read bytes and nothing else: no credit is ever spent here.
  app.get('/api/tracks/:id/audio', async (req, reply) => {
    const user = requireUser(req);
    const { id } = parse(trackIdParam, req.params);
    const row = await tracks.findOwned(user.id, id);
    audioHeaders(reply, row);
    const etag = `"t${row.id}-${row.sizeBytes}"`;
    if (req.headers['if-none-match'] === etag) return reply.code(304).send();
    const ifRange = req.headers['if-range'];
    const rangeHeader = ifRange === undefined || ifRange === etag ? req.headers.range : undefined;
    const range = parseRange(rangeHeader, row.sizeBytes);
    if (range.kind === 'unsatisfiable') {
      return reply
        .code(416)
        .header('Content-Range', `bytes */${row.sizeBytes}`)
        .header('Content-Type', 'application/json; charset=utf-8')
        .send({ message: 'Requested range not satisfiable', code: 'range_not_satisfiable' });
    }
    if (range.kind === 'single') {
      const stream = await tracks.openAudio(row, range);
      return reply
        .code(206)
        .header('Content-Range', `bytes ${range.start}-${range.end}/${row.sizeBytes}`)
        .header('Content-Length', range.end - range.start + 1)
        .send(stream);
    }
    const stream = await tracks.openAudio(row);
    return reply.header('Content-Length', row.sizeBytes).send(stream);
  });
}
