import { createEncoder } from 'wasm-media-encoders';
import { ExportError, exportChannels, validSampleRate } from './export-errors';
import { lameInfoFrame } from './mp3-info-tag';

/** What LAME's WebAssembly can be loaded from: a URL (browser), the bytes (Node), or a compiled module. */
export type Mp3WasmSource = string | ArrayBuffer | Uint8Array | WebAssembly.Module;

export type Mp3Bitrate = 128 | 160 | 192 | 224 | 256 | 320;
export const MP3_DEFAULT_BITRATE: Mp3Bitrate = 320;
/** Samples per MPEG-1 Layer III frame. */
export const MP3_FRAME_SAMPLES = 1152;
/** Frames handed to LAME per call: ~1.7 s at 44.1 kHz; between calls the job reports progress and can stop. */
export const MP3_BLOCK_FRAMES = MP3_FRAME_SAMPLES * 64;
/**
 * Lossy coding adds overshoots: a 320 kbps encode of a master limited to -1.0 dBTP decodes up to ~0.4 dB
 * hotter. The MP3 is made 0.5 dB quieter so the decoded file still meets the -1 dBTP ceiling.
 */
export const MP3_HEADROOM_DB = 0.5;
const MP3_HEADROOM_GAIN = 10 ** (-MP3_HEADROOM_DB / 20);
/** Output bytes gathered per Blob part. */
const PART_BYTES = 1 << 20;

export interface Mp3EncodeOptions {
  wasm: Mp3WasmSource;
  bitrate?: Mp3Bitrate;
  signal?: AbortSignal;
  /** Fraction of input consumed, 0..1. */
  onProgress?: (fraction: number) => void;
  /** Called between blocks; a worker passes a yield to its event loop here so cancel messages get through. */
  between?: () => Promise<void>;
  /**
   * How much quieter the MP3 is made than its input, dB (default MP3_HEADROOM_DB). 0 when the input was
   * limited for the coder already (limitForLossy, decision 217): it then measures as loud as the WAV.
   */
  headroomDb?: number;
}

/** LAME's sample rates; others are resampled by LAME to the nearest of these. */
const MP3_RATES = [8000, 11025, 12000, 16000, 22050, 24000, 32000, 44100, 48000] as const;
type Mp3Rate = (typeof MP3_RATES)[number];
const outputRate = (sampleRate: number): Mp3Rate =>
  MP3_RATES.includes(sampleRate as Mp3Rate)
    ? (sampleRate as Mp3Rate)
    : MP3_RATES.reduce((best, r) => (Math.abs(r - sampleRate) < Math.abs(best - sampleRate) ? r : best));

/** The compiled LAME module, kept so later encodes in the same worker skip compilation. */
let compiled: WebAssembly.Module | null = null;

/**
 * MPEG-1 Layer III at a constant bitrate (320 kbps by default) through LAME compiled to WebAssembly.
 * Returns the file as Blob parts, led by a LAME Info tag (see mp3-info-tag.ts).
 */
export const encodeMp3 = async (
  channels: readonly Float32Array[],
  sampleRate: number,
  options: Mp3EncodeOptions,
): Promise<Uint8Array<ArrayBuffer>[]> => {
  const parts = await encodeMp3Frames(channels, sampleRate, options);
  // The gapless Info tag goes first: decoders then trim LAME's delay and padding to the exact input length.
  return [
    lameInfoFrame(
      parts,
      channels[0]!.length,
      options.bitrate ?? MP3_DEFAULT_BITRATE,
    ) as Uint8Array<ArrayBuffer>,
    ...parts,
  ];
};

/** Which samples of the input to encode (a segment of a parallel encode; see mp3-parallel.ts). */
export interface Mp3Range {
  start?: number;
  end?: number;
}

/**
 * LAME's frames for the samples [start, end) of the input, without an Info tag, as Blob parts.
 * encode() hands back a view into the wasm memory, overwritten by the next call, so every output is
 * copied (into the current part) before the next block.
 */
export const encodeMp3Frames = async (
  channels: readonly Float32Array[],
  sampleRate: number,
  options: Mp3EncodeOptions & Mp3Range,
): Promise<Uint8Array<ArrayBuffer>[]> => {
  const kept = exportChannels(channels);
  validSampleRate(sampleRate);
  options.signal?.throwIfAborted();
  const first = options.start ?? 0;
  const last = Math.min(options.end ?? kept[0]!.length, kept[0]!.length);
  if (!(first >= 0 && first < last)) throw new ExportError('MP3 segment is empty');
  const encoder = await createEncoder('audio/mpeg', compiled ?? options.wasm, (module) => {
    compiled = module;
  });
  encoder.configure({
    channels: kept.length as 1 | 2,
    sampleRate,
    bitrate: options.bitrate ?? MP3_DEFAULT_BITRATE,
    outputSampleRate: outputRate(sampleRate),
  });
  const parts: Uint8Array<ArrayBuffer>[] = [];
  let pending = new Uint8Array(PART_BYTES);
  let filled = 0;
  const take = (out: Uint8Array) => {
    let read = 0;
    while (read < out.length) {
      const n = Math.min(out.length - read, pending.length - filled);
      pending.set(out.subarray(read, read + n), filled);
      filled += n;
      read += n;
      if (filled === pending.length) {
        parts.push(pending);
        pending = new Uint8Array(PART_BYTES);
        filled = 0;
      }
    }
  };
  const scratch = kept.map(() => new Float32Array(MP3_BLOCK_FRAMES));
  const headroomGain =
    options.headroomDb === undefined ? MP3_HEADROOM_GAIN : 10 ** (-options.headroomDb / 20);
  for (let start = first; start < last; start += MP3_BLOCK_FRAMES) {
    const end = Math.min(last, start + MP3_BLOCK_FRAMES);
    const block = kept.map((c, ch) => {
      const out = scratch[ch]!.subarray(0, end - start);
      for (let i = 0; i < out.length; i++) out[i] = c[start + i]! * headroomGain;
      return out;
    });
    take(encoder.encode(block));
    options.onProgress?.((end - first) / (last - first));
    if (options.between) await options.between();
    options.signal?.throwIfAborted();
  }
  take(encoder.finalize());
  if (filled > 0) parts.push(pending.slice(0, filled));
  if (parts.length === 0) throw new ExportError('MP3 encoder produced no data');
  return parts;
};
