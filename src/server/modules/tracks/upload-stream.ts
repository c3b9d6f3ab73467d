import { Readable } from 'node:stream';
import type { AudioContentType } from '../../../shared/api/tracks';
import { MESSAGES } from '../../../shared/messages';
import { AppError, badRequest } from '../../errors';
import { type SniffResult, sniffAfterTag, sniffAudio } from './audio-sniff';

export const invalidFileType = () => badRequest(MESSAGES.invalidFileType, 'invalid_file_type');
export const fileTooLarge = () => new AppError(413, 'file_too_large', MESSAGES.fileTooLarge);

/** The multipart file stream: busboy ends it early and sets `truncated` once the size limit is passed. */
export type FileStream = Readable & { truncated?: boolean };

export interface SniffedUpload {
  contentType: AudioContentType;
  /** The whole file again (the sniffed head first), failing with 413 if the size limit cut it off. */
  body: Readable;
}

/**
 * Reads just enough of an upload to know what it is, then hands back a stream of the whole file. Nothing is
 * buffered beyond the sniffed head (at most MAX_SNIFF_BYTES) and the stream's own small queue.
 * `overLimit` turns a byte count past another limit (the user's remaining quota) into that limit's error.
 */
export async function sniffUpload(
  file: FileStream,
  overLimit?: { bytes: number; error: () => Error },
): Promise<SniffedUpload> {
  const chunks = file[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  let head = Buffer.alloc(0);
  let complete = false;
  let verdict = sniffAudio(head, false);
  while (verdict.kind === 'more') {
    const next = await chunks.next();
    if (next.done) complete = true;
    else head = Buffer.concat([head, next.value]);
    verdict = sniffAudio(head, complete);
  }
  // Refusing mid-file: read the rest to nowhere (busboy caps it at the size limit), so the client gets our
  // answer instead of a connection reset in the middle of its upload.
  const refuse = async (error: Error): Promise<never> => {
    if (!complete) for (let n = await chunks.next(); !n.done; n = await chunks.next());
    throw file.truncated ? fileTooLarge() : error;
  };
  if (verdict.kind === 'invalid') return refuse(invalidFileType());
  // A tag too big to hold: its bytes stream on (into a part file that a refusal removes) while the bytes
  // after it are collected, at most MAX_SNIFF_BYTES of them, until they show MPEG frames or cannot.
  const tagEnd = verdict.kind === 'after-tag' ? verdict.offset : undefined;
  let afterTag = Buffer.alloc(0);
  let decided = tagEnd === undefined;
  const checkAfterTag = async (chunk: Buffer, start: number, last: boolean) => {
    if (decided || tagEnd === undefined) return;
    if (start + chunk.length > tagEnd)
      afterTag = Buffer.concat([afterTag, chunk.subarray(Math.max(0, tagEnd - start))]);
    const v: SniffResult = sniffAfterTag(afterTag, last);
    if (v.kind === 'invalid' || (last && v.kind !== 'audio')) await refuse(invalidFileType());
    decided = v.kind === 'audio';
  };
  async function* whole() {
    let seen = head.length;
    if (overLimit && seen > overLimit.bytes) await refuse(overLimit.error());
    await checkAfterTag(head, 0, complete);
    yield head;
    while (!complete) {
      const next = await chunks.next();
      if (next.done) break;
      const start = seen;
      seen += next.value.length;
      if (overLimit && seen > overLimit.bytes) await refuse(overLimit.error());
      await checkAfterTag(next.value, start, false);
      yield next.value;
    }
    if (file.truncated) throw fileTooLarge();
    await checkAfterTag(Buffer.alloc(0), seen, true);
  }
  const contentType = verdict.kind === 'audio' ? verdict.contentType : 'audio/mpeg';
  return { contentType, body: Readable.from(whole(), { objectMode: false }) };
}
