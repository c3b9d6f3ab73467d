import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { describe, expect, it } from 'vitest';
import { MESSAGES } from '../../../shared/messages';
import { MAX_SNIFF_BYTES } from './audio-sniff';
import { id3Header, mp3Frame } from './test-uploads';
import { sniffUpload } from './upload-stream';

/** The bytes as busboy hands them over: 64 KB chunks. */
const streamOf = (bytes: Buffer) => {
  const chunks: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += 64 * 1024) chunks.push(bytes.subarray(at, at + 64 * 1024));
  return Readable.from(chunks, { objectMode: false });
};

/** An ID3 tag of `tagBytes` of cover art (random bytes), then what follows it. */
const tagged = (tagBytes: number, after: Buffer) =>
  Buffer.concat([id3Header(tagBytes), randomBytes(tagBytes), after]);

describe('uploads behind an ID3 tag bigger than the sniff window', () => {
  const bigTag = MAX_SNIFF_BYTES + 44 * 1024; // 300 KB of cover art

  it('stores an MP3 whose tag is followed by MPEG frames, byte for byte', async () => {
    const file = tagged(bigTag, Buffer.concat([Buffer.alloc(7), mp3Frame(), mp3Frame(), mp3Frame()]));
    const { contentType, body } = await sniffUpload(streamOf(file));
    expect(contentType).toBe('audio/mpeg');
    expect((await buffer(body)).equals(file)).toBe(true);
  });

  it.each([
    ['an HTML page', Buffer.from('<!doctype html><html><script>alert(1)</script></html>')],
    ['nothing at all (the tag claims more than the file holds)', Buffer.alloc(0)],
    ['zero bytes only', Buffer.alloc(MAX_SNIFF_BYTES + 1)],
  ])('refuses a file whose big tag is followed by %s', async (_label, after) => {
    const { body } = await sniffUpload(streamOf(tagged(bigTag, after)));
    await expect(buffer(body)).rejects.toMatchObject({
      status: 400,
      code: 'invalid_file_type',
      message: MESSAGES.invalidFileType,
    });
  });
});
