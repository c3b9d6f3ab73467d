import { TpdfDither } from '../dsp/dither';
import {
  EXPORT_MAX_BYTES,
  EXPORT_MESSAGES,
  ExportError,
  exportChannels,
  validSampleRate,
} from './export-errors';

export const WAV_HEADER_BYTES = 44;
/** Frames per Blob part: 1 MiB of stereo 16-bit data, so no export ever makes one giant copy. */
export const WAV_CHUNK_FRAMES = 262_144;

export interface WavEncodeOptions {
  /** TPDF dither before rounding to 16 bits (default true); off for bit-exact round trips of 16-bit sources. */
  dither?: boolean;
  /** Seed of the dither noise, for reproducible files. */
  ditherSeed?: number;
  chunkFrames?: number;
  /** Size cap of the whole file in bytes (spec: 100 MB). */
  maxBytes?: number;
}

/** Size in bytes of the 16-bit WAV file for these dimensions. */
export const wavFileBytes = (frames: number, channelCount: number): number =>
  WAV_HEADER_BYTES + frames * channelCount * 2;

/** The canonical 44-byte RIFF/WAVE header of 16-bit PCM. */
export const wavHeader = (
  frames: number,
  channelCount: number,
  sampleRate: number,
): Uint8Array<ArrayBuffer> => {
  const header = new Uint8Array(WAV_HEADER_BYTES);
  const view = new DataView(header.buffer);
  const dataBytes = frames * channelCount * 2;
  const ascii = (offset: number, text: string) => {
    for (let i = 0; i < text.length; i++) header[offset + i] = text.charCodeAt(i);
  };
  ascii(0, 'RIFF');
  view.setUint32(4, 36 + dataBytes, true);
  ascii(8, 'WAVE');
  ascii(12, 'fmt ');
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true); // PCM
  view.setUint16(22, channelCount, true);
  view.setUint32(24, sampleRate, true);
  view.setUint32(28, sampleRate * channelCount * 2, true);
  view.setUint16(32, channelCount * 2, true);
  view.setUint16(34, 16, true);
  ascii(36, 'data');
  view.setUint32(40, dataBytes, true);
  return header;
};

const littleEndian = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/**
 * One channel to 16-bit integers at out[offset], out[offset + stride], ... Scaled by 32768 as decoders do,
 * so a 16-bit source comes back bit-exactly without dither. Rounds with floor(x + 0.5), the same result as
 * Math.round for these values and 4-5x faster in V8 (measured: 74 vs 336 ms for 4 minutes of stereo).
 */
const toInt16 = (
  input: Float32Array,
  out: Int16Array,
  offset: number,
  stride: number,
  dither: TpdfDither | null,
): void => {
  const n = input.length;
  if (dither) {
    for (let i = 0, j = offset; i < n; i++, j += stride) {
      const f = input[i]! * 32768 + dither.next();
      out[j] = f >= 32767 ? 32767 : f <= -32768 ? -32768 : Math.floor(f + 0.5);
    }
  } else {
    for (let i = 0, j = offset; i < n; i++, j += stride) {
      const f = input[i]! * 32768;
      out[j] = f >= 32767 ? 32767 : f <= -32768 ? -32768 : Math.floor(f + 0.5);
    }
  }
};

/**
 * A WAV file as a sequence of parts (header, then ~1 MiB blocks of interleaved samples), produced lazily so a
 * worker can report progress and honour cancellation between blocks. Validation happens on the first step.
 */
export function* wavParts(
  channels: readonly Float32Array[],
  sampleRate: number,
  options: WavEncodeOptions = {},
): Generator<{ part: Uint8Array<ArrayBuffer>; framesDone: number; frames: number }, void, void> {
  const kept = exportChannels(channels);
  validSampleRate(sampleRate);
  const frames = kept[0]!.length;
  const count = kept.length;
  if (wavFileBytes(frames, count) > (options.maxBytes ?? EXPORT_MAX_BYTES)) {
    throw new ExportError(EXPORT_MESSAGES.tooLarge);
  }
  yield { part: wavHeader(frames, count, sampleRate), framesDone: 0, frames };
  const dither = options.dither === false ? null : new TpdfDither(options.ditherSeed);
  const chunk = Math.max(1, options.chunkFrames ?? WAV_CHUNK_FRAMES);
  for (let start = 0; start < frames; start += chunk) {
    const n = Math.min(chunk, frames - start);
    const block = new Int16Array(n * count);
    for (let c = 0; c < count; c++) toInt16(kept[c]!.subarray(start, start + n), block, c, count, dither);
    // WAV is little-endian; Int16Array follows the platform, which is little-endian everywhere we run.
    if (!littleEndian) {
      const view = new DataView(block.buffer);
      for (let i = 0; i < block.length; i++) view.setInt16(i * 2, block[i]!, true);
    }
    yield { part: new Uint8Array(block.buffer), framesDone: start + n, frames };
  }
}

/** The whole WAV file as Blob parts. */
export const encodeWav = (
  channels: readonly Float32Array[],
  sampleRate: number,
  options?: WavEncodeOptions,
): Uint8Array<ArrayBuffer>[] => Array.from(wavParts(channels, sampleRate, options), (step) => step.part);
