import { TpdfDither } from '../dsp/dither';
import {
  EXPORT_MAX_BYTES,
  EXPORT_MESSAGES,
  ExportError,
  exportChannels,
  validSampleRate,
} from './export-errors';
import { interleaveInt16, quantise } from './pcm-quantise';

export const WAV_HEADER_BYTES = 44;
/**
 * The sample encodings we write: the spec's 16-bit PCM, 24-bit PCM, and 32-bit IEEE float (written as is,
 * never dithered: float keeps every bit the engine produced).
 */
export type WavEncoding = 'int16' | 'int24' | 'float32';
/** RIFF sizes are 32-bit: no WAV file can be larger than this. */
export const WAV_RIFF_MAX_BYTES = 0xffff_ffff;
/** Float WAV needs a fmt chunk with cbSize (18 bytes) and a fact chunk (12 bytes): 58 bytes in all. */
const FLOAT_HEADER_BYTES = 58;
/** Frames per Blob part: 1 MiB of stereo 16-bit data, so no export ever makes one giant copy. */
export const WAV_CHUNK_FRAMES = 262_144;

export interface WavEncodeOptions {
  /** Sample encoding (default the spec's 16-bit PCM). */
  encoding?: WavEncoding;
  /**
   * TPDF dither before rounding to the integer depth (default true); off for bit-exact round trips of
   * integer sources. Float output is never dithered.
   */
  dither?: boolean;
  /** Seed of the dither noise, for reproducible files. */
  ditherSeed?: number;
  chunkFrames?: number;
  /** Encode only part of the file (the two-worker export, see WavSegment). */
  segment?: WavSegment;
  /**
   * Size cap of the whole file in bytes. Default: the spec's 100 MB for its 16-bit WAV; the RIFF limit
   * (4 GiB) for 24-bit and float, which the spec does not cover (decision 121).
   */
  maxBytes?: number;
}

/**
 * One worker's share of a 16-bit (or float) file: frames [start, end) of the channels it was given, whose
 * frame 0 is frame `firstFrame` of the file (the dither is a function of that position, so the shares
 * join into exactly the bytes of a serial encode). Only the first share writes the header, for the whole
 * file of `fileFrames` frames.
 */
export interface WavSegment {
  start: number;
  end: number;
  firstFrame: number;
  fileFrames: number;
  header: boolean;
}

const BYTES_PER_SAMPLE: Record<WavEncoding, number> = { int16: 2, int24: 3, float32: 4 };

const headerBytes = (encoding: WavEncoding) =>
  encoding === 'float32' ? FLOAT_HEADER_BYTES : WAV_HEADER_BYTES;

/** Size in bytes of the WAV file for these dimensions. */
export const wavFileBytes = (frames: number, channelCount: number, encoding: WavEncoding = 'int16'): number =>
  headerBytes(encoding) + frames * channelCount * BYTES_PER_SAMPLE[encoding];

/**
 * The RIFF/WAVE header: the canonical 44 bytes for integer PCM (format 1, also for 24-bit: every reader
 * takes it), 58 bytes for float (format 3 with cbSize and the fact chunk that non-PCM formats require).
 */
export const wavHeader = (
  frames: number,
  channelCount: number,
  sampleRate: number,
  encoding: WavEncoding = 'int16',
): Uint8Array<ArrayBuffer> => {
  const size = headerBytes(encoding);
  const header = new Uint8Array(size);
  const view = new DataView(header.buffer);
  const width = BYTES_PER_SAMPLE[encoding];
  const dataBytes = frames * channelCount * width;
  const float = encoding === 'float32';
  const ascii = (offset: number, text: string) => {
    for (let i = 0; i < text.length; i++) header[offset + i] = text.charCodeAt(i);
  };
  ascii(0, 'RIFF');
  view.setUint32(4, size - 8 + dataBytes, true);
  ascii(8, 'WAVE');
  ascii(12, 'fmt ');
  view.setUint32(16, float ? 18 : 16, true);
  view.setUint16(20, float ? 3 : 1, true);
  view.setUint16(22, channelCount, true);
  view.setUint32(24, sampleRate, true);
  view.setUint32(28, sampleRate * channelCount * width, true);
  view.setUint16(32, channelCount * width, true);
  view.setUint16(34, width * 8, true);
  let at = 36;
  if (float) {
    view.setUint16(36, 0, true); // cbSize
    ascii(38, 'fact');
    view.setUint32(42, 4, true);
    view.setUint32(46, frames, true);
    at = 50;
  }
  ascii(at, 'data');
  view.setUint32(at + 4, dataBytes, true);
  return header;
};

const littleEndian = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

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
  const count = kept.length;
  const encoding = options.encoding ?? 'int16';
  const dither = options.dither === false ? null : new TpdfDither(options.ditherSeed);
  const segment = options.segment;
  // The 24-bit dither is a stream in channel-block order, not a function of the position: not splittable.
  if (segment && encoding === 'int24' && dither)
    throw new RangeError('Dithered 24-bit WAV encodes in one piece');
  const fileFrames = segment?.fileFrames ?? kept[0]!.length;
  const cap = options.maxBytes ?? (encoding === 'int16' ? EXPORT_MAX_BYTES : WAV_RIFF_MAX_BYTES);
  if (wavFileBytes(fileFrames, count, encoding) > Math.min(cap, WAV_RIFF_MAX_BYTES)) {
    throw new ExportError(EXPORT_MESSAGES.tooLarge);
  }
  const from = segment?.start ?? 0;
  const to = segment?.end ?? kept[0]!.length;
  const frames = to - from;
  if (segment && !(0 <= from && from <= to && to <= kept[0]!.length && segment.firstFrame + to <= fileFrames))
    throw new RangeError('WAV segment outside its channels or its file');
  if (!segment || segment.header)
    yield { part: wavHeader(fileFrames, count, sampleRate, encoding), framesDone: 0, frames };
  const chunk = Math.max(1, options.chunkFrames ?? WAV_CHUNK_FRAMES);
  for (let start = from; start < to; start += chunk) {
    const n = Math.min(chunk, to - start);
    const part =
      encoding === 'int16'
        ? int16Block(kept, start, n, dither?.key ?? null, segment?.firstFrame ?? 0)
        : wideBlock(kept, start, n, encoding, dither);
    yield { part, framesDone: start + n - from, frames };
  }
}

/**
 * Frames [start, start + n) as interleaved 16-bit little-endian bytes, dithered by position (pcm-quantise.ts):
 * the same bytes whichever blocks or workers the file is cut into. `firstFrame` is the file position of
 * the channels' frame 0.
 */
export const int16Block = (
  channels: readonly Float32Array[],
  start: number,
  n: number,
  ditherKey: number | null,
  firstFrame = 0,
): Uint8Array<ArrayBuffer> => {
  const block = new Int16Array(n * channels.length);
  interleaveInt16(channels, start, n, block, ditherKey, firstFrame);
  // WAV is little-endian; Int16Array follows the platform, which is little-endian everywhere we run.
  if (!littleEndian) {
    const view = new DataView(block.buffer);
    for (let i = 0; i < block.length; i++) view.setInt16(i * 2, block[i]!, true);
  }
  return new Uint8Array(block.buffer);
};

/** The whole WAV file as Blob parts. */
export const encodeWav = (
  channels: readonly Float32Array[],
  sampleRate: number,
  options?: WavEncodeOptions,
): Uint8Array<ArrayBuffer>[] => Array.from(wavParts(channels, sampleRate, options), (step) => step.part);

/** One interleaved block of 24-bit PCM (3 bytes little-endian per sample) or 32-bit float. */
const wideBlock = (
  channels: readonly Float32Array[],
  start: number,
  n: number,
  encoding: 'int24' | 'float32',
  dither: TpdfDither | null,
): Uint8Array<ArrayBuffer> => {
  const count = channels.length;
  if (encoding === 'float32') {
    const block = new Float32Array(n * count);
    for (let c = 0; c < count; c++) {
      const input = channels[c]!;
      for (let i = 0, j = c; i < n; i++, j += count) block[j] = input[start + i]!;
    }
    if (!littleEndian) {
      const view = new DataView(block.buffer);
      for (let i = 0; i < block.length; i++) view.setFloat32(i * 4, block[i]!, true);
    }
    return new Uint8Array(block.buffer);
  }
  const ints = new Int32Array(n * count);
  for (let c = 0; c < count; c++)
    quantise(channels[c]!.subarray(start, start + n), ints, c, count, 24, dither);
  const bytes = new Uint8Array(ints.length * 3);
  for (let i = 0, b = 0; i < ints.length; i++, b += 3) {
    const v = ints[i]!;
    bytes[b] = v & 0xff;
    bytes[b + 1] = (v >> 8) & 0xff;
    bytes[b + 2] = (v >> 16) & 0xff;
  }
  return bytes;
};
