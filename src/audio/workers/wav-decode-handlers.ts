/** The WAV decode worker's handlers, apart from the worker entry so they can be served over any port. */
import { SNIFF_HEAD_BYTES, sniffSampleRate } from '../codecs/sniff-sample-rate';
import { decodeWav, readWavLayout, WavFormatError } from '../codecs/wav-decoder';
import type { WavDecodeApi } from './wav-decode-protocol';
import { buffersOf, type RpcHandlers, throwIfAborted, transferring } from './worker-rpc';

/** Chromium's AudioBuffer limits: more channels or another rate and decodeAudioData's own errors apply. */
const MAX_CHANNELS = 32;
const MIN_RATE = 3_000;
const MAX_RATE = 768_000;

/**
 * Whether our reader gives the very samples decodeAudioData gives for this file (e2e/wav-decode-parity.spec
 * compares them in Chromium): integer PCM of 16, 24 or 32 bits and 32-bit float, plain or
 * WAVE_FORMAT_EXTENSIBLE, holding at least one frame. Anything else (8-bit, 64-bit float, compressed
 * formats, broken headers, repeated fmt or data chunks, empty data) stays with decodeAudioData, its errors and their messages included.
 * Returns the file's sample rate when it is one of those, else null.
 */
export const workerDecodableWav = (bytes: Uint8Array): number | null => {
  let layout: ReturnType<typeof readWavLayout>;
  try {
    layout = readWavLayout(bytes);
  } catch (error) {
    // A RangeError is a chunk header cut off by the end of the file.
    if (error instanceof WavFormatError || error instanceof RangeError) return null;
    throw error;
  }
  const { format, bits, channelCount, sampleRate, blockAlign, data, repeatedChunks } = layout;
  const pcm = format === 1 && (bits === 16 || bits === 24 || bits === 32);
  const float = format === 3 && bits === 32;
  const ours =
    (pcm || float) &&
    !repeatedChunks &&
    channelCount >= 1 &&
    channelCount <= MAX_CHANNELS &&
    blockAlign === (channelCount * bits) / 8 &&
    sampleRate >= MIN_RATE &&
    sampleRate <= MAX_RATE &&
    data.size >= blockAlign;
  return ours ? sampleRate : null;
};

/**
 * Reads the file here, off the page's main thread (a FileReader's load of a 10-minute WAV was one 114-174 ms
 * task there, issue 26). Only files that decodeAudioData would decode at their own rate are decoded here
 * (the rate sniffSampleRate reads from the head, which decodeUserAudio decodes at, is the file's), so the
 * samples match; the bytes of every other file go back to the page for decodeUserAudio.
 */
export const createWavDecodeHandlers = (): RpcHandlers<WavDecodeApi> => ({
  decode: async ({ file }, { progress, signal }) => {
    let bytes: ArrayBuffer;
    try {
      bytes = await file.arrayBuffer();
    } catch {
      return { kind: 'unreadable' as const };
    }
    throwIfAborted(signal); // the page gave up waiting for the read (its time-out)
    progress('read');
    const all = new Uint8Array(bytes);
    const rate = workerDecodableWav(all);
    if (rate === null || sniffSampleRate(all.subarray(0, SNIFF_HEAD_BYTES)) !== rate) {
      return transferring({ kind: 'refused' as const, bytes }, [bytes]);
    }
    const wav = decodeWav(bytes, { int16: false, chromium: true });
    return transferring(
      { kind: 'decoded' as const, sampleRate: wav.sampleRate, channels: wav.channels },
      buffersOf(wav.channels),
    );
  },
});
