import type { AudioContentType } from '../../../shared/api/tracks';
import { looksLikeAdts, sniffAdts, sniffAiff, sniffFlac, sniffMp4 } from './audio-sniff-formats';

/**
 * Decides what an upload is from its own first bytes, never from its name or the browser's Content-Type.
 * Called again with more bytes while it answers 'more'; `complete` says the file has no more bytes.
 */
export type SniffResult =
  | { kind: 'audio'; contentType: AudioContentType }
  | { kind: 'invalid' }
  | { kind: 'more' }
  /**
   * An ID3 tag too big to hold (cover art): MP3 only if `sniffAfterTag` finds MPEG frames in the bytes
   * from `offset` on. The caller streams the tag through and decides there (sniffUpload).
   */
  | { kind: 'after-tag'; offset: number };

/** How many leading bytes may be held back to decide (WAV metadata chunks can precede the audio). */
export const MAX_SNIFF_BYTES = 256 * 1024;

const AUDIO = (contentType: AudioContentType): SniffResult => ({ kind: 'audio', contentType });
const INVALID: SniffResult = { kind: 'invalid' };
const MORE: SniffResult = { kind: 'more' };

const ascii = (b: Buffer, at: number, s: string) =>
  b.length >= at + s.length && b.toString('latin1', at, at + s.length) === s;

/** Without more bytes to come, or with all we are willing to hold, "need more" means "not audio". */
const needMore = (head: Buffer, complete: boolean): SniffResult =>
  complete || head.length >= MAX_SNIFF_BYTES ? INVALID : MORE;

export function sniffAudio(head: Buffer, complete: boolean): SniffResult {
  if (head.length < 4) return complete ? INVALID : MORE;
  if (ascii(head, 0, 'RIFF') || ascii(head, 0, 'RF64')) return sniffWav(head, complete);
  if (ascii(head, 0, 'OggS')) return sniffOgg(head, complete);
  if (ascii(head, 0, 'ID3')) return sniffId3(head, complete);
  // Issue 19's formats (audio-sniff-formats.ts).
  if (ascii(head, 0, 'fLaC')) return sniffFlac(head, complete);
  if (ascii(head, 0, 'FORM')) return sniffAiff(head, complete);
  if (ascii(head, 4, 'ftyp')) return sniffMp4(head, complete);
  if (looksLikeAdts(head)) return sniffAdts(head, complete);
  if (head[0] === 0xff) return sniffMpegFrames(head, 0, complete);
  return INVALID;
}

/** RIFF/WAVE: a well-formed 'fmt ' chunk and the start of the 'data' chunk must be there. */
function sniffWav(head: Buffer, complete: boolean): SniffResult {
  if (head.length < 12) return needMore(head, complete);
  if (!ascii(head, 8, 'WAVE')) return INVALID;
  let at = 12;
  let sawFormat = false;
  while (true) {
    if (head.length < at + 8) return needMore(head, complete);
    const id = head.toString('latin1', at, at + 4);
    if (!/^[\x20-\x7e]{4}$/.test(id)) return INVALID;
    const size = head.readUInt32LE(at + 4);
    if (id === 'data') return sawFormat ? AUDIO('audio/wav') : INVALID;
    if (id === 'fmt ') {
      if (size < 16) return INVALID;
      if (head.length < at + 8 + 16) return needMore(head, complete);
      const f = at + 8;
      const formatTag = head.readUInt16LE(f);
      const channels = head.readUInt16LE(f + 2);
      const sampleRate = head.readUInt32LE(f + 4);
      const blockAlign = head.readUInt16LE(f + 12);
      const bitsPerSample = head.readUInt16LE(f + 14);
      // PCM, IEEE float, A-law, mu-law, extensible.
      if (![1, 3, 6, 7, 0xfffe].includes(formatTag)) return INVALID;
      if (channels < 1 || channels > 32 || sampleRate < 1000 || sampleRate > 768_000) return INVALID;
      if (blockAlign < 1 || bitsPerSample < 8 || bitsPerSample > 64) return INVALID;
      sawFormat = true;
    }
    // Chunks are padded to an even length; RF64 writes 0xFFFFFFFF sizes only for data and riff.
    at += 8 + size + (size & 1);
  }
}

/** Ogg: a first (BOS) page whose first packet is a Vorbis, Opus, FLAC or Speex header. */
function sniffOgg(head: Buffer, complete: boolean): SniffResult {
  if (head.length < 27) return needMore(head, complete);
  if (head[4] !== 0 || (head[5]! & 0x02) === 0) return INVALID;
  const segments = head[26]!;
  const packet = 27 + segments;
  if (head.length < packet + 8) return needMore(head, complete);
  const codecs = ['\x01vorbis', 'OpusHead', '\x7fFLAC', 'Speex   '];
  return codecs.some((c) => ascii(head, packet, c)) ? AUDIO('audio/ogg') : INVALID;
}

/** ID3v2 tag, then MPEG audio frames once the tag ends (found after it, however big it claims to be). */
function sniffId3(head: Buffer, complete: boolean): SniffResult {
  if (head.length < 10) return needMore(head, complete);
  const version = head[3]!;
  if (version < 2 || version > 4 || head[4] === 0xff) return INVALID;
  if ([6, 7, 8, 9].some((i) => head[i]! >= 0x80)) return INVALID;
  const size = (head[6]! << 21) | (head[7]! << 14) | (head[8]! << 7) | head[9]!;
  const footer = (head[5]! & 0x10) !== 0 ? 10 : 0;
  const end = 10 + size + footer;
  // Not held, not trusted: the bytes after the tag are checked as they stream past.
  if (end >= MAX_SNIFF_BYTES) return { kind: 'after-tag', offset: end };
  if (head.length <= end) return needMore(head, complete);
  return sniffAfterTag(head.subarray(end), complete);
}

/** The bytes after an ID3 tag: MPEG audio frames, after the zero padding some taggers leave. */
export function sniffAfterTag(rest: Buffer, complete: boolean): SniffResult {
  let at = 0;
  while (at < rest.length && rest[at] === 0) at++;
  if (at >= rest.length) return needMore(rest, complete);
  return sniffMpegFrames(rest, at, complete);
}

const BITRATES: Record<string, number[]> = {
  // [version group][layer] in kbit/s, index 1..14 (0 is "free", 15 is invalid).
  '1-1': [0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448],
  '1-2': [0, 32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384],
  '1-3': [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320],
  '2-1': [0, 32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256],
  '2-2': [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
  '2-3': [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
};
const SAMPLE_RATES: Record<number, number[]> = {
  3: [44100, 48000, 32000], // MPEG-1
  2: [22050, 24000, 16000], // MPEG-2
  0: [11025, 12000, 8000], // MPEG-2.5
};

/** Length in bytes of the MPEG audio frame whose header is at `at`, or null if it is not one. */
export function mpegFrameLength(b: Buffer, at: number): number | null {
  if (b.length < at + 4 || b[at] !== 0xff || (b[at + 1]! & 0xe0) !== 0xe0) return null;
  const versionBits = (b[at + 1]! >> 3) & 3;
  const layerBits = (b[at + 1]! >> 1) & 3;
  const bitrateIndex = b[at + 2]! >> 4;
  const rateIndex = (b[at + 2]! >> 2) & 3;
  const padding = (b[at + 2]! >> 1) & 1;
  if (versionBits === 1 || layerBits === 0 || bitrateIndex === 0 || bitrateIndex === 15 || rateIndex === 3)
    return null;
  if ((b[at + 3]! & 3) === 2) return null; // reserved emphasis
  const layer = 4 - layerBits;
  const group = versionBits === 3 ? 1 : 2;
  const bitrate = BITRATES[`${group}-${layer}`]![bitrateIndex]! * 1000;
  const sampleRate = SAMPLE_RATES[versionBits]![rateIndex]!;
  if (layer === 1) return (Math.floor((12 * bitrate) / sampleRate) + padding) * 4;
  const perFrame = layer === 3 && group === 2 ? 72 : 144;
  return Math.floor((perFrame * bitrate) / sampleRate) + padding;
}

/** A frame header at `at`, confirmed by the next frame header where the file has one. */
function sniffMpegFrames(head: Buffer, at: number, complete: boolean): SniffResult {
  if (head.length < at + 4) return needMore(head, complete);
  const first = mpegFrameLength(head, at);
  if (first === null) return INVALID;
  const next = at + first;
  if (head.length < next + 4) {
    if (complete) return head.length === next ? AUDIO('audio/mpeg') : INVALID;
    return needMore(head, complete);
  }
  return mpegFrameLength(head, next) === null ? INVALID : AUDIO('audio/mpeg');
}
