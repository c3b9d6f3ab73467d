import { Readable } from 'node:stream';
import type { DELIVERY_FORMATS } from '../../../shared/api/billing';
import { LIBRARY_MESSAGES } from '../../../shared/api/library';
import { type AppError, badRequest } from '../../errors';
import type { FileStream } from '../tracks/upload-stream';

type Format = (typeof DELIVERY_FORMATS)[number];

/** What each kept file may be: its extension, its first bytes and the type it is served as. */
const KINDS = {
  wav: { magic: 'RIFF', contentType: 'audio/wav' },
  mp3: { magic: null, contentType: 'audio/mpeg' },
  flac: { magic: 'fLaC', contentType: 'audio/flac' },
  zip: { magic: 'PK\u0003\u0004', contentType: 'application/zip' },
} as const;
export type KeptKind = keyof typeof KINDS;

const EXTENSION: Record<Format, KeptKind> = {
  wav: 'wav',
  wav24: 'wav',
  wav32f: 'wav',
  mp3: 'mp3',
  flac16: 'flac',
  flac24: 'flac',
};

/**
 * The kinds of file a paid download may have handed over: its formats' files, and their ZIP for versions;
 * an album (every track, and the continuous record with its CUE sheet) arrives as one ZIP and only that.
 */
export function allowedKinds(
  formats: readonly string[],
  versions: readonly string[],
  album = false,
): Set<KeptKind> {
  if (album) return new Set<KeptKind>(['zip']);
  const kinds = new Set<KeptKind>(formats.map((f) => EXTENSION[f as Format]).filter(Boolean));
  // More than one file of a master with versions arrives as one ZIP (download-flow.ts).
  if (versions.length * formats.length > 1) kinds.add('zip');
  return kinds;
}

/** The browser's file name, cleaned to letters, digits, dots, dashes and underscores; its kind by extension. */
export function keptName(filename: string, allowed: Set<KeptKind>): { name: string; kind: KeptKind } {
  const base = filename
    .normalize('NFKD')
    .replace(/[^\w.-]+/g, '')
    .replace(/\.+/g, '.')
    .replace(/^[.]+/, '')
    .slice(-120);
  const ext = /\.([a-z0-9]+)$/i.exec(base)?.[1]?.toLowerCase() as KeptKind | undefined;
  if (!ext || !(ext in KINDS) || !allowed.has(ext))
    throw badRequest(LIBRARY_MESSAGES.fileNotPaid, 'file_not_paid');
  return { name: base, kind: ext };
}

export const contentTypeOf = (kind: KeptKind) => KINDS[kind].contentType;

const looksLike = (kind: KeptKind, head: Buffer): boolean => {
  const magic = KINDS[kind].magic;
  if (magic !== null) return head.subarray(0, magic.length).toString('latin1') === magic;
  // MP3: an ID3 tag or an MPEG frame sync.
  return head.subarray(0, 3).toString('latin1') === 'ID3' || (head[0] === 0xff && (head[1]! & 0xe0) === 0xe0);
};

/**
 * The file's bytes again, refused (and so never stored: Storage.put is all-or-nothing) when its first bytes
 * are not its kind's or it runs past `limit` bytes (`overLimit` says what that limit is).
 */
export function guardedBody(
  file: FileStream,
  kind: KeptKind,
  limit: number,
  overLimit: () => AppError,
): Readable {
  async function* bytes() {
    let seen = 0;
    let head: Buffer | null = Buffer.alloc(0);
    for await (const chunk of file as AsyncIterable<Buffer>) {
      seen += chunk.length;
      if (seen > limit) throw overLimit();
      if (head !== null) {
        head = Buffer.concat([head, chunk]);
        if (head.length < 4) continue;
        if (!looksLike(kind, head)) throw badRequest(LIBRARY_MESSAGES.fileType, 'invalid_file_type');
        yield head;
        head = null;
        continue;
      }
      yield chunk;
    }
    if (file.truncated) throw overLimit();
    if (head !== null) throw badRequest(LIBRARY_MESSAGES.fileType, 'invalid_file_type');
  }
  return Readable.from(bytes(), { objectMode: false });
}
