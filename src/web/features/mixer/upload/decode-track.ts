import { decodeUserAudio } from '../../../../audio';
import { reportClientError } from '../../../lib/report-client-error';
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

/**
 * Decodes in the browser at the file's own sample rate (decodeAudioData resamples to its context's rate,
 * which costs time and alters the audio). The decode runs off the main thread inside the browser; the
 * AudioBuffer then plays in the running context at any rate.
 */
export const decodeAtOwnRate = (bytes: ArrayBuffer, fallbackRate: number): Promise<AudioBuffer> =>
  decodeUserAudio(bytes, sniffSampleRate, fallbackRate).catch((error: unknown) => {
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
