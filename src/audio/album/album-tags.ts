/**
 * Tags in the delivery files (issue 31 item 4). Each function takes the encoder's Blob parts (encodeWav,
 * encodeFlac, encodeMp3: the whole file) and returns the tagged file's parts; the audio parts are reused.
 *
 * - WAV: a LIST/INFO chunk (INAM title, IART artist, IPRD album, ITRK track, ICRD date, IGNR genre, and
 *   ISRC: the RIFF spec calls that field "source", but ffmpeg writes and reads the recording code there and
 *   no other field holds it) and an `id3 ` chunk holding the same as an ID3v2.3 tag (TSRC for the ISRC), for
 *   the players that read ID3 in WAV. Both go before the `data` chunk, so a reader that stops at the audio
 *   still sees them.
 * - FLAC: a VORBIS_COMMENT block after STREAMINFO (TITLE, ARTIST, ALBUM, TRACKNUMBER, TRACKTOTAL, ISRC,
 *   DATE, GENRE), RFC 9639 section 8.6.
 * - MP3: an ID3v2.3 tag before the LAME Info frame. ID3v2.3 rather than 2.4 because Windows and older
 *   car and phone players read only 2.3; text is UTF-16 with a BOM where it is not plain Latin-1.
 *   The Info frame's delay and padding are untouched (its music length excludes ID3v2 by definition).
 */
import type { AlbumTags } from './album-api';

type Parts = Uint8Array<ArrayBuffer>[];

const ascii = (text: string): Uint8Array<ArrayBuffer> => Uint8Array.from(text, (c) => c.charCodeAt(0) & 0x7f);
const utf8 = (text: string): Uint8Array<ArrayBuffer> =>
  new TextEncoder().encode(text) as Uint8Array<ArrayBuffer>;
const concat = (chunks: readonly Uint8Array[]): Uint8Array<ArrayBuffer> => {
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
};

const cleanIsrc = (isrc: string) => isrc.replace(/[-\s]/g, '').toUpperCase();
const trackText = (tags: AlbumTags) =>
  tags.trackNumber === undefined
    ? undefined
    : tags.trackTotal
      ? `${tags.trackNumber}/${tags.trackTotal}`
      : String(tags.trackNumber);

// ------------------------------------------------------------------------------------------------ ID3v2.3

/** A text frame: Latin-1 (encoding 0) when every character fits, else UTF-16 with BOM (encoding 1). */
const id3TextFrame = (id: string, text: string): Uint8Array => {
  const latin1 = [...text].every((c) => c.charCodeAt(0) < 0x100);
  const body = latin1
    ? Uint8Array.from([0, ...Array.from(text, (c) => c.charCodeAt(0))])
    : (() => {
        const units = Array.from({ length: text.length }, (_, i) => text.charCodeAt(i));
        const b = new Uint8Array(1 + 2 + units.length * 2);
        b[0] = 1;
        b[1] = 0xff; // BOM, little-endian
        b[2] = 0xfe;
        units.forEach((u, i) => {
          b[3 + 2 * i] = u & 0xff;
          b[4 + 2 * i] = u >>> 8;
        });
        return b;
      })();
  const frame = new Uint8Array(10 + body.length);
  frame.set(ascii(id));
  new DataView(frame.buffer).setUint32(4, body.length); // v2.3: a plain 32-bit size
  frame.set(body, 10);
  return frame;
};

/** An ID3v2.3 tag of these fields (no unsynchronisation, no extended header). */
export const id3v2Tag = (tags: AlbumTags): Uint8Array<ArrayBuffer> => {
  const fields: [string, string | undefined][] = [
    ['TIT2', tags.title],
    ['TPE1', tags.artist],
    ['TALB', tags.album],
    ['TRCK', trackText(tags)],
    ['TSRC', tags.isrc ? cleanIsrc(tags.isrc) : undefined],
    ['TYER', tags.date?.slice(0, 4)],
    ['TCON', tags.genre],
  ];
  const frames = concat(fields.flatMap(([id, v]) => (v ? [id3TextFrame(id, v)] : [])));
  const header = new Uint8Array(10);
  header.set(ascii('ID3'));
  header[3] = 3; // version 2.3.0
  const size = frames.length;
  // The tag size is "syncsafe": 7 bits per byte.
  header[6] = (size >>> 21) & 0x7f;
  header[7] = (size >>> 14) & 0x7f;
  header[8] = (size >>> 7) & 0x7f;
  header[9] = size & 0x7f;
  return concat([header, frames]);
};

// ------------------------------------------------------------------------------------------------ WAV

const riffChunk = (id: string, body: Uint8Array): Uint8Array => {
  // Chunks are word-aligned: an odd body gets a pad byte not counted in its size.
  const out = new Uint8Array(8 + body.length + (body.length & 1));
  out.set(ascii(id));
  new DataView(out.buffer).setUint32(4, body.length, true);
  out.set(body, 8);
  return out;
};

const infoList = (tags: AlbumTags): Uint8Array => {
  const fields: [string, string | undefined][] = [
    ['INAM', tags.title],
    ['IART', tags.artist],
    ['IPRD', tags.album],
    ['ITRK', trackText(tags)],
    ['ICRD', tags.date],
    ['IGNR', tags.genre],
    ['ISRC', tags.isrc ? cleanIsrc(tags.isrc) : undefined],
  ];
  // INFO strings are NUL-terminated; UTF-8 is what current readers (ffmpeg, foobar2000) decode.
  const subchunks = fields.flatMap(([id, v]) => (v ? [riffChunk(id, utf8(`${v}\0`))] : []));
  return riffChunk('LIST', concat([ascii('INFO'), ...subchunks]));
};

export const tagWav = (parts: readonly Uint8Array[], tags: AlbumTags): Parts => {
  const head = parts[0];
  if (!head || String.fromCharCode(...head.subarray(0, 4)) !== 'RIFF') throw new Error('Not a WAV file');
  const view = new DataView(head.buffer, head.byteOffset, head.byteLength);
  // Find the data chunk's header in the first part (the encoder writes the whole header there).
  let at = 12;
  while (at + 8 <= head.length && String.fromCharCode(...head.subarray(at, at + 4)) !== 'data')
    at += 8 + view.getUint32(at + 4, true) + (view.getUint32(at + 4, true) & 1);
  if (at + 8 > head.length) throw new Error("The WAV's first part holds no data chunk header");
  const added = concat([infoList(tags), riffChunk('id3 ', id3v2Tag(tags))]);
  const before = head.slice(0, at);
  new DataView(before.buffer).setUint32(4, view.getUint32(4, true) + added.length, true);
  return [before, added, head.slice(at), ...(parts.slice(1) as Parts)];
};

// ------------------------------------------------------------------------------------------------ FLAC

const vorbisComment = (tags: AlbumTags): Uint8Array => {
  const fields: [string, string | number | undefined][] = [
    ['TITLE', tags.title],
    ['ARTIST', tags.artist],
    ['ALBUM', tags.album],
    ['TRACKNUMBER', tags.trackNumber],
    ['TRACKTOTAL', tags.trackTotal],
    ['ISRC', tags.isrc ? cleanIsrc(tags.isrc) : undefined],
    ['DATE', tags.date],
    ['GENRE', tags.genre],
  ];
  const entries = fields.flatMap(([k, v]) => (v === undefined || v === '' ? [] : [utf8(`${k}=${v}`)]));
  const vendor = utf8('master-your-mix');
  const le32 = (n: number) => {
    const b = new Uint8Array(4);
    new DataView(b.buffer).setUint32(0, n, true);
    return b;
  };
  return concat([
    le32(vendor.length),
    vendor,
    le32(entries.length),
    ...entries.flatMap((e) => [le32(e.length), e]),
  ]);
};

export const tagFlac = (parts: readonly Uint8Array[], tags: AlbumTags): Parts => {
  const head = parts[0];
  if (!head || String.fromCharCode(...head.subarray(0, 4)) !== 'fLaC') throw new Error('Not a FLAC file');
  // The encoder's first part is fLaC + STREAMINFO marked as the last metadata block.
  if ((head[4]! & 0x7f) !== 0 || head.length !== 42)
    throw new Error("The FLAC's first part is not its header");
  const streamInfo = head.slice();
  streamInfo[4] = 0x00; // STREAMINFO, no longer the last block
  const body = vorbisComment(tags);
  const blockHeader = Uint8Array.from([
    0x80 | 4,
    body.length >>> 16,
    (body.length >>> 8) & 0xff,
    body.length & 0xff,
  ]);
  return [streamInfo, concat([blockHeader, body]), ...(parts.slice(1) as Parts)];
};

// ------------------------------------------------------------------------------------------------ MP3

export const tagMp3 = (parts: readonly Uint8Array[], tags: AlbumTags): Parts => {
  const head = parts[0];
  if (head?.[0] !== 0xff || (head[1]! & 0xe0) !== 0xe0) throw new Error('Not an MP3 stream');
  return [id3v2Tag(tags), ...(parts as Parts)];
};
