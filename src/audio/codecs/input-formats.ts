/**
 * Decoding a user's file in the browser, for the formats of issue 19 beside WAV/MP3/OGG: AIFF through our
 * own reader (Chromium refuses it), FLAC and M4A/AAC through decodeAudioData at the file's own rate (read
 * here from the file: decodeAudioData resamples to its context's rate, which is slow and alters the audio).
 */
import { decodeAiff, isAiff, readExtended } from './aiff-decoder';
import { SNIFF_HEAD_BYTES } from './sniff-sample-rate';

const ascii = (b: Uint8Array, at: number, n: number): string =>
  String.fromCharCode(...b.subarray(at, at + n));
const plausible = (rate: number): number | null => (rate >= 1000 && rate <= 768_000 ? rate : null);
const ADTS_RATES = [
  96_000, 88_200, 64_000, 48_000, 44_100, 32_000, 24_000, 22_050, 16_000, 12_000, 11_025, 8_000, 7_350,
];

/** Index of `word` in `b` from `from`, or -1 (a plain scan: MP4 boxes can sit anywhere in the file). */
const find = (b: Uint8Array, word: string, from = 0): number => {
  const [c0, c1, c2, c3] = [...word].map((c) => c.charCodeAt(0));
  for (let i = from; i + 4 <= b.length; i++)
    if (b[i] === c0 && b[i + 1] === c1 && b[i + 2] === c2 && b[i + 3] === c3) return i;
  return -1;
};

/** The sample rate of a FLAC, AIFF, M4A or ADTS AAC file from its own bytes, or null. */
export const studioInputRate = (b: Uint8Array): number | null => {
  if (b.length < 12) return null;
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  if (ascii(b, 0, 4) === 'fLaC' && b.length >= 8 + 18) return plausible(view.getUint32(8 + 10) >>> 12);
  if (isAiff(b)) {
    const comm = find(b, 'COMM', 12);
    return comm >= 0 && comm + 26 <= b.length ? plausible(Math.round(readExtended(view, comm + 16))) : null;
  }
  if (ascii(b, 4, 4) === 'ftyp') {
    // The 'mp4a' sample entry holds the rate as 16.16 fixed point at byte 28 of its payload (rates above
    // 65535 Hz do not fit there: null, and the caller's fallback rate applies).
    const entry = find(b, 'mp4a');
    return entry >= 0 && entry + 32 <= b.length ? plausible(view.getUint16(entry + 28)) : null;
  }
  if (b[0] === 0xff && (b[1]! & 0xf6) === 0xf0) return ADTS_RATES[(b[2]! >> 2) & 0x0f] ?? null;
  return null;
};

/**
 * A user's file as an AudioBuffer: AIFF by our reader, everything else by decodeAudioData at the rate
 * `rateOf` (or studioInputRate) reads from the file, else at `fallbackRate`.
 */
export const decodeUserAudio = async (
  bytes: ArrayBuffer,
  rateOf: (head: Uint8Array) => number | null,
  fallbackRate: number,
): Promise<AudioBuffer> => {
  const all = new Uint8Array(bytes);
  if (isAiff(all)) {
    const aiff = decodeAiff(all);
    if (aiff.frames === 0) throw new RangeError('The AIFF file holds no audio');
    const buffer = new AudioBuffer({
      length: aiff.frames,
      numberOfChannels: aiff.channelCount,
      sampleRate: aiff.sampleRate,
    });
    for (const [c, data] of aiff.channels.entries())
      buffer.copyToChannel(data as Float32Array<ArrayBuffer>, c);
    return buffer;
  }
  const head = all.subarray(0, Math.min(all.length, SNIFF_HEAD_BYTES));
  const rate = studioInputRate(all) ?? rateOf(head) ?? fallbackRate;
  const ctx = new OfflineAudioContext({ numberOfChannels: 1, length: 1, sampleRate: rate });
  return ctx.decodeAudioData(bytes);
};
