/**
 * FLAC files (RFC 9639) of 16- or 24-bit integers, produced lazily frame group by frame group so the encoder
 * worker can report progress and honour cancellation. Our own encoder (decision 120): STREAMINFO with the
 * MD5 of the samples, fixed-block-size frames from flac-frame.ts.
 */
import { TpdfDither } from '../dsp/dither';
import { BitWriter } from './bit-writer';
import { exportChannels, validSampleRate } from './export-errors';
import { FLAC_BLOCK_SIZE, frameScratch, writeFrame } from './flac-frame';
import { Md5 } from './md5';
import { type IntDepth, quantise } from './pcm-quantise';

export interface FlacEncodeOptions {
  bits?: IntDepth;
  /** TPDF dither at the target depth (default true); off for bit-exact round trips of integer sources. */
  dither?: boolean;
  ditherSeed?: number;
  /** Frames (FLAC blocks) per yielded part. */
  blocksPerPart?: number;
}

const STREAMINFO_BYTES = 4 + 4 + 34;

/**
 * fLaC, then one STREAMINFO block (the last metadata block). Frame sizes and the MD5 are known only at the
 * end, so the first part yielded is this header, filled in place once every frame is written; callers
 * build the Blob after the generator finishes.
 */
const writeStreamInfo = (
  header: Uint8Array,
  info: {
    sampleRate: number;
    channels: number;
    bits: number;
    total: number;
    minFrame: number;
    maxFrame: number;
    md5: Uint8Array;
  },
) => {
  header.set([0x66, 0x4c, 0x61, 0x43]); // fLaC
  header.set([0x80, 0, 0, 34], 4); // last metadata block, type 0 (STREAMINFO), 34 bytes
  const view = new DataView(header.buffer, header.byteOffset + 8, 34);
  const block = Math.min(FLAC_BLOCK_SIZE, Math.max(16, info.total));
  view.setUint16(0, block);
  view.setUint16(2, block);
  view.setUint16(4, info.minFrame >>> 8);
  view.setUint8(6, info.minFrame & 0xff);
  view.setUint16(7, info.maxFrame >>> 8);
  view.setUint8(9, info.maxFrame & 0xff);
  // 20 bits rate, 3 bits channels - 1, 5 bits depth - 1, 36 bits total samples.
  const high = Math.floor(info.total / 2 ** 32);
  view.setUint32(
    10,
    ((info.sampleRate << 12) | ((info.channels - 1) << 9) | ((info.bits - 1) << 4) | high) >>> 0,
  );
  view.setUint32(14, info.total >>> 0);
  header.set(info.md5, 8 + 18);
};

export function* flacParts(
  channels: readonly Float32Array[],
  sampleRate: number,
  options: FlacEncodeOptions = {},
): Generator<{ part: Uint8Array<ArrayBuffer>; framesDone: number; frames: number }, void, void> {
  const kept = exportChannels(channels);
  validSampleRate(sampleRate);
  if (sampleRate >= 2 ** 20) throw new RangeError('FLAC sample rates stop below 1 048 576 Hz');
  const bits = options.bits ?? 16;
  const frames = kept[0]!.length;
  const count = kept.length;
  const header = new Uint8Array(STREAMINFO_BYTES);
  yield { part: header, framesDone: 0, frames };
  const dither = options.dither === false ? null : new TpdfDither(options.ditherSeed);
  const md5 = new Md5();
  const width = bits / 8;
  const ints = kept.map(() => new Int32Array(FLAC_BLOCK_SIZE));
  const interleaved = new Int32Array(FLAC_BLOCK_SIZE * count);
  const pcm = new Uint8Array(FLAC_BLOCK_SIZE * count * width);
  const scratch = frameScratch(FLAC_BLOCK_SIZE);
  const out = new BitWriter();
  const perPart = Math.max(1, options.blocksPerPart ?? 64);
  let minFrame = Number.POSITIVE_INFINITY;
  let maxFrame = 0;
  let index = 0;
  for (let start = 0; start < frames; ) {
    out.reset();
    for (let b = 0; b < perPart && start < frames; b++, start += FLAC_BLOCK_SIZE, index++) {
      const n = Math.min(FLAC_BLOCK_SIZE, frames - start);
      for (let c = 0; c < count; c++)
        quantise(kept[c]!.subarray(start, start + n), interleaved, c, count, bits, dither);
      // Split per channel for the frame, and the little-endian bytes the MD5 signature covers.
      for (let i = 0, j = 0; i < n; i++)
        for (let c = 0; c < count; c++, j++) {
          const v = interleaved[j]!;
          ints[c]![i] = v;
          const at = j * width;
          pcm[at] = v & 0xff;
          pcm[at + 1] = (v >> 8) & 0xff;
          if (width === 3) pcm[at + 2] = (v >> 16) & 0xff;
        }
      md5.update(pcm.subarray(0, n * count * width));
      const before = out.length;
      writeFrame(out, ints, n, bits, sampleRate, index, scratch);
      minFrame = Math.min(minFrame, out.length - before);
      maxFrame = Math.max(maxFrame, out.length - before);
    }
    yield { part: out.view().slice(), framesDone: Math.min(start, frames), frames };
  }
  writeStreamInfo(header, {
    sampleRate,
    channels: count,
    bits,
    total: frames,
    minFrame,
    maxFrame,
    md5: md5.digest(),
  });
}

/** The whole FLAC file as Blob parts. */
export const encodeFlac = (
  channels: readonly Float32Array[],
  sampleRate: number,
  options?: FlacEncodeOptions,
): Uint8Array<ArrayBuffer>[] => Array.from(flacParts(channels, sampleRate, options), (step) => step.part);
