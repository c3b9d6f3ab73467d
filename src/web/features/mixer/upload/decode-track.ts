import { decodeUserAudio } from '../../../../audio';
import { WavDecodeClient } from '../../../../audio/workers/wav-decode-client';
import { workerDecodableWav } from '../../../../audio/workers/wav-decode-handlers';
import { reportClientError } from '../../../lib/report-client-error';
import { channelsToAudioBuffer } from './audio-buffers';
import { sniffSampleRate } from './sniff-sample-rate';

/** A failure with a user-facing notice already chosen (time-outs and read errors of spec 8). */
export class TrackLoadError extends Error {
  override name = 'TrackLoadError';
}

/** Reads a File's bytes, failing with `onTimeout` after `ms` (spec 9: file read time-out 60 s). */
export const readFileBytes = (file: Blob, ms: number): Promise<ArrayBuffer> =>
  new Promise((resolve, reject) => {
    const reader = new FileReader();
    const timer = setTimeout(() => {
      reader.abort();
      reject(new TrackLoadError('File reading timed out'));
    }, ms);
    reader.onload = () => {
      clearTimeout(timer);
      resolve(reader.result as ArrayBuffer);
    };
    reader.onerror = () => {
      clearTimeout(timer);
      reject(new TrackLoadError('Failed to read file'));
    };
    reader.readAsArrayBuffer(file);
  });

let wavWorker: WavDecodeClient | null = null;

/**
 * WAV files our reader gives the same samples for as decodeAudioData (16/24/32-bit integer, 32-bit float)
 * are read in a worker and become an AudioBuffer slice by slice: decodeAudioData builds its result on the
 * main thread in one task (84-91 ms for a 10-minute file, issue 26). Only files that decodeAudioData would
 * decode at their own rate go there (the rate sniffSampleRate reads is the file's), so the samples match.
 * Everything else, and anything the worker refuses, takes decodeUserAudio as before.
 */
const decodeOwnRate = async (
  bytes: ArrayBuffer,
  fallbackRate: number,
  worker: () => WavDecodeClient,
): Promise<AudioBuffer> => {
  const all = new Uint8Array(bytes);
  const rate = workerDecodableWav(all);
  if (rate === null || sniffSampleRate(all.subarray(0, 128 * 1024)) !== rate) {
    return decodeUserAudio(bytes, sniffSampleRate, fallbackRate);
  }
  const result = await worker().decode(bytes);
  if (result.kind === 'refused') return decodeUserAudio(result.bytes, sniffSampleRate, fallbackRate);
  return channelsToAudioBuffer(result.channels, result.sampleRate);
};

/**
 * Decodes at the file's own sample rate (decodeAudioData resamples to its context's rate, which costs time
 * and alters the audio); the AudioBuffer then plays in the running context at any rate.
 */
export const decodeAtOwnRate = (
  bytes: ArrayBuffer,
  fallbackRate: number,
  worker: () => WavDecodeClient = () => {
    wavWorker ??= new WavDecodeClient();
    return wavWorker;
  },
): Promise<AudioBuffer> =>
  decodeOwnRate(bytes, fallbackRate, worker).catch((error: unknown) => {
    reportClientError('decode-failure', error);
    throw error;
  });

/** Rejects with `error` if `work` has not settled within `ms`. */
export const withTimeout = <T>(work: Promise<T>, ms: number, error: () => Error): Promise<T> =>
  new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(error()), ms);
    work.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (e: unknown) => {
        clearTimeout(timer);
        reject(e);
      },
    );
  });
