/**
 * Sniffers for the formats issue 19 added beside WAV/MP3/OGG: FLAC, AIFF/AIFF-C, M4A (MP4 audio) and raw AAC
 * (ADTS). Kept apart from audio-sniff.ts so each format stays one small case there. Each looks for the
 * format's header AND a well-formed first structure (the bytes a decoder needs), never the name or the
 * browser's Content-Type.
 */
import type { SniffResult } from './audio-sniff';

/** How many leading bytes may be held back to decide (matches audio-sniff.ts's MAX_SNIFF_BYTES). */
const MAX_BYTES = 256 * 1024;

const INVALID: SniffResult = { kind: 'invalid' };
const MORE: SniffResult = { kind: 'more' };

const ascii = (b: Buffer, at: number, s: string) =>
  b.length >= at + s.length && b.toString('latin1', at, at + s.length) === s;

const needMore = (head: Buffer, complete: boolean): SniffResult =>
  complete || head.length >= MAX_BYTES ? INVALID : MORE;

/** 'fLaC', then a STREAMINFO block (type 0, 34 bytes) with a plausible rate, channel count and depth. */
export function sniffFlac(head: Buffer, complete: boolean): SniffResult {
  if (head.length < 4 + 4 + 34) return needMore(head, complete);
  if ((head[4]! & 0x7f) !== 0 || head.readUIntBE(5, 3) !== 34) return INVALID;
  const info = 8;
  const minBlock = head.readUInt16BE(info);
  const maxBlock = head.readUInt16BE(info + 2);
  const packed = head.readUInt32BE(info + 10);
  const rate = packed >>> 12;
  const bits = ((packed >>> 4) & 0x1f) + 1;
  if (minBlock < 16 || maxBlock < minBlock) return INVALID;
  if (rate < 1000 || rate > 768_000 || bits < 4) return INVALID;
  return { kind: 'audio', contentType: 'audio/flac' };
}

/** FORM/AIFF or FORM/AIFC: a valid COMM chunk, then the start of the SSND chunk. */
export function sniffAiff(head: Buffer, complete: boolean): SniffResult {
  if (head.length < 12) return needMore(head, complete);
  if (!ascii(head, 8, 'AIFF') && !ascii(head, 8, 'AIFC')) return INVALID;
  let sawComm = false;
  for (let at = 12; ; ) {
    if (head.length < at + 8) return needMore(head, complete);
    const id = head.toString('latin1', at, at + 4);
    if (!/^[\x20-\x7e]{4}$/.test(id)) return INVALID;
    const size = head.readUInt32BE(at + 4);
    if (id === 'SSND') return sawComm ? { kind: 'audio', contentType: 'audio/aiff' } : INVALID;
    if (id === 'COMM') {
      if (size < 18) return INVALID;
      if (head.length < at + 8 + 18) return needMore(head, complete);
      const channels = head.readInt16BE(at + 8);
      const bits = head.readInt16BE(at + 14);
      const exponent = head.readUInt16BE(at + 16) & 0x7fff;
      // 80-bit extended: 1000 Hz has exponent 16392, 768 kHz 16402.
      if (channels < 1 || channels > 32 || bits < 1 || bits > 32 || exponent < 16_392 || exponent > 16_402)
        return INVALID;
      sawComm = true;
    }
    at += 8 + size + (size & 1);
  }
}

/** Brands of MP4 files that hold audio (iTunes M4A/M4B, and the generic ISO brands encoders write). */
const MP4_BRANDS = ['M4A ', 'M4B ', 'M4P ', 'mp42', 'mp41', 'isom', 'iso2', 'iso4', 'iso5', 'iso6', 'dash'];

/** An MP4 'ftyp' box first, with an audio-capable major brand. */
export function sniffMp4(head: Buffer, complete: boolean): SniffResult {
  if (head.length < 12) return needMore(head, complete);
  const size = head.readUInt32BE(0);
  if (size < 16 || size > 4096 || !ascii(head, 4, 'ftyp')) return INVALID;
  return MP4_BRANDS.includes(head.toString('latin1', 8, 12))
    ? { kind: 'audio', contentType: 'audio/mp4' }
    : INVALID;
}

/** Length of the ADTS frame whose header is at `at`, or null if it is not one. */
export function adtsFrameLength(b: Buffer, at: number): number | null {
  if (b.length < at + 7 || b[at] !== 0xff || (b[at + 1]! & 0xf6) !== 0xf0) return null;
  const rateIndex = (b[at + 2]! >> 2) & 0x0f;
  if (rateIndex > 12) return null;
  const length = ((b[at + 3]! & 0x03) << 11) | (b[at + 4]! << 3) | (b[at + 5]! >> 5);
  return length >= 7 ? length : null;
}

/** Raw AAC: an ADTS frame header (sync 0xFFF, layer 0), confirmed by the next frame's header. */
export function sniffAdts(head: Buffer, complete: boolean): SniffResult {
  if (head.length < 7) return needMore(head, complete);
  const first = adtsFrameLength(head, 0);
  if (first === null) return INVALID;
  if (head.length < first + 7) {
    if (complete) return head.length === first ? { kind: 'audio', contentType: 'audio/aac' } : INVALID;
    return needMore(head, complete);
  }
  return adtsFrameLength(head, first) === null ? INVALID : { kind: 'audio', contentType: 'audio/aac' };
}

/** ADTS and MPEG audio share the 0xFF sync byte; ADTS has layer bits 00, which MPEG audio never uses. */
export const looksLikeAdts = (head: Buffer): boolean =>
  head.length >= 2 && head[0] === 0xff && (head[1]! & 0xf6) === 0xf0;
