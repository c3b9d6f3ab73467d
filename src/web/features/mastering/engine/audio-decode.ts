/**
 * Decoding a user's file at its own sample rate: decodeAudioData resamples to its context's rate (slow, and
 * it changes the audio), so the rate is read from the file's first bytes and an OfflineAudioContext at that
 * rate decodes it.
 */
import { reportClientError } from '../../../lib/report-client-error';
import { decodeUserAudio } from './engine-api';

const ascii = (b: Uint8Array, at: number, n: number): string =>
  String.fromCharCode(...b.subarray(at, at + n));
const u32 = (b: Uint8Array, at: number): number =>
  (b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16) | (b[at + 3]! << 24)) >>> 0;
const plausible = (rate: number): number | null => (rate >= 3000 && rate <= 768_000 ? rate : null);

const MPEG_RATES: Record<number, readonly number[]> = {
  3: [44_100, 48_000, 32_000],
  2: [22_050, 24_000, 16_000],
  0: [11_025, 12_000, 8_000],
};

/** The file's own sample rate (WAV fmt chunk, Vorbis/Opus header, first MPEG frame), or null. */
export const sniffRate = (b: Uint8Array): number | null => {
  if (b.length >= 12 && ascii(b, 0, 4) === 'RIFF' && ascii(b, 8, 4) === 'WAVE') {
    for (let at = 12; at + 16 <= b.length; ) {
      const size = u32(b, at + 4);
      if (ascii(b, at, 4) === 'fmt ') return plausible(u32(b, at + 12));
      at += 8 + size + (size & 1);
    }
    return null;
  }
  if (b.length >= 28 && ascii(b, 0, 4) === 'OggS') {
    const packet = 27 + b[26]!;
    if (ascii(b, packet, 7) === '\u0001vorbis') return plausible(u32(b, packet + 12));
    if (ascii(b, packet, 8) === 'OpusHead') return 48_000;
    return null;
  }
  let at = 0;
  if (b.length >= 10 && ascii(b, 0, 3) === 'ID3') {
    at = 10 + (((b[6]! & 0x7f) << 21) | ((b[7]! & 0x7f) << 14) | ((b[8]! & 0x7f) << 7) | (b[9]! & 0x7f));
  }
  for (const end = Math.min(b.length - 3, at + 65_536); at < end; at++) {
    if (b[at] !== 0xff || (b[at + 1]! & 0xe0) !== 0xe0) continue;
    const version = (b[at + 1]! >> 3) & 3;
    const index = (b[at + 2]! >> 2) & 3;
    if (version === 1 || ((b[at + 1]! >> 1) & 3) === 0 || index === 3 || b[at + 2]! >> 4 === 15) continue;
    return MPEG_RATES[version]?.[index] ?? null;
  }
  return null;
};

/** AIFF by our reader, the rest by decodeAudioData at the file's own rate (44.1 kHz when unknown). */
export const decodeAudio = (bytes: ArrayBuffer): Promise<AudioBuffer> =>
  decodeUserAudio(bytes, sniffRate, 44_100).catch((error: unknown) => {
    reportClientError('decode-failure', error);
    throw error;
  });

export const channelsOf = (buffer: AudioBuffer): Float32Array[] =>
  Array.from({ length: buffer.numberOfChannels }, (_, c) => buffer.getChannelData(c));

/** An AudioBuffer holding `channels` (copied: an AudioBuffer owns its memory). */
export const toAudioBuffer = (channels: Float32Array[], sampleRate: number): AudioBuffer => {
  const buffer = new AudioBuffer({
    length: channels[0]?.length ?? 1,
    numberOfChannels: Math.max(1, channels.length),
    sampleRate,
  });
  for (const [c, data] of channels.entries()) buffer.copyToChannel(data as Float32Array<ArrayBuffer>, c);
  return buffer;
};
