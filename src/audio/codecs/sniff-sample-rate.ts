/**
 * The sample rate a file was recorded at, read from its first bytes, so it can be decoded by a context at that
 * rate: decodeAudioData resamples to its context's rate, which is slow and changes the audio (DESIGN pitfalls).
 * Returns null for anything it does not recognise; the caller then decodes at the playback context's rate.
 */
/** How much of a file's start the rate is read from. */
export const SNIFF_HEAD_BYTES = 128 * 1024;

export const sniffSampleRate = (bytes: Uint8Array): number | null =>
  wavRate(bytes) ?? oggRate(bytes) ?? mp3Rate(bytes);

const ascii = (b: Uint8Array, at: number, n: number): string =>
  String.fromCharCode(...b.subarray(at, at + n));

const u32le = (b: Uint8Array, at: number): number =>
  (b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16) | (b[at + 3]! << 24)) >>> 0;

/** RIFF/WAVE: walk the chunks to 'fmt ', whose bytes 4..8 hold the rate. */
const wavRate = (b: Uint8Array): number | null => {
  if (b.length < 12 || ascii(b, 0, 4) !== 'RIFF' || ascii(b, 8, 4) !== 'WAVE') return null;
  let at = 12;
  while (at + 8 <= b.length) {
    const id = ascii(b, at, 4);
    const size = u32le(b, at + 4);
    if (id === 'fmt ' && at + 16 <= b.length) return plausible(u32le(b, at + 12));
    at += 8 + size + (size & 1);
  }
  return null;
};

/** Ogg: Vorbis keeps the rate in its identification header; Opus always decodes at 48 kHz. */
const oggRate = (b: Uint8Array): number | null => {
  if (b.length < 28 || ascii(b, 0, 4) !== 'OggS') return null;
  const segments = b[26]!;
  const packet = 27 + segments;
  if (ascii(b, packet, 7) === '\u0001vorbis') return plausible(u32le(b, packet + 12));
  if (ascii(b, packet, 8) === 'OpusHead') return 48_000;
  return null;
};

const MPEG_RATES: Record<number, readonly number[]> = {
  3: [44_100, 48_000, 32_000], // MPEG-1
  2: [22_050, 24_000, 16_000], // MPEG-2
  0: [11_025, 12_000, 8_000], // MPEG-2.5
};

/** MPEG audio: skip an ID3v2 tag, then read the first frame header's version and rate index. */
const mp3Rate = (b: Uint8Array): number | null => {
  let at = 0;
  if (b.length >= 10 && ascii(b, 0, 3) === 'ID3') {
    const size = ((b[6]! & 0x7f) << 21) | ((b[7]! & 0x7f) << 14) | ((b[8]! & 0x7f) << 7) | (b[9]! & 0x7f);
    at = 10 + size + (b[5]! & 0x10 ? 10 : 0);
  }
  const end = Math.min(b.length - 3, at + 64 * 1024);
  for (; at < end; at++) {
    if (b[at] !== 0xff || (b[at + 1]! & 0xe0) !== 0xe0) continue;
    const version = (b[at + 1]! >> 3) & 3;
    const layer = (b[at + 1]! >> 1) & 3;
    const index = (b[at + 2]! >> 2) & 3;
    const bitrate = b[at + 2]! >> 4;
    if (version === 1 || layer === 0 || index === 3 || bitrate === 15) continue;
    return MPEG_RATES[version]?.[index] ?? null;
  }
  return null;
};

/** What an OfflineAudioContext accepts; anything else means the header was not what it seemed. */
const plausible = (rate: number): number | null => (rate >= 3_000 && rate <= 768_000 ? rate : null);
