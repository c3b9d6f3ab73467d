/**
 * A chosen file (or a fetched track's Blob) to an AudioBuffer at its own sample rate, with the main thread
 * kept free: the WAV decode worker reads the bytes and decodes the WAV files it can, and the AudioBuffer is
 * filled slice by slice. The mixer (decisions 299, 312) and the mastering page (decision 309) load through it.
 */
import { decodeUserAudio } from '../../audio';
import { sniffSampleRate } from '../../audio/codecs/sniff-sample-rate';
import { fillAudioBufferInSlices } from '../../audio/sliced-copy';
import { WavDecodeClient } from '../../audio/workers/wav-decode-client';
import { reportClientError } from './report-client-error';

/** A failure with a user-facing notice already chosen (time-outs and read errors of spec 8). */
export class TrackLoadError extends Error {
  override name = 'TrackLoadError';
}

let wavWorker: WavDecodeClient | null = null;
const sharedWorker = () => {
  wavWorker ??= new WavDecodeClient();
  return wavWorker;
};

/** Samples per slice of the AudioBuffer's fill: one task each (1 MB). */
const FILL_SLICE = 1 << 18;

/**
 * Decoded channels (from the WAV decode worker) as an AudioBuffer at their own rate, filled slice by slice:
 * the same data from decodeAudioData arrives as one task of 84-91 ms for a 10-minute file (issue 26).
 */
const channelsToAudioBuffer = (
  channels: readonly Float32Array[],
  sampleRate: number,
): Promise<AudioBuffer> => {
  const buffer = new AudioBuffer({
    length: channels[0]!.length,
    numberOfChannels: channels.length,
    sampleRate,
  });
  // The browser zero-fills a new buffer in one task: the mixer's long-task spec reads this mark to tell it apart.
  performance.mark('decode:audio-buffer:created');
  return fillAudioBufferInSlices(buffer, channels, FILL_SLICE);
};

/** A chosen file on its way to an AudioBuffer (see `readAndDecode`). */
export interface TrackDecode {
  /** Settles when the file's bytes are read (spec 9 times this step: 60 s); rejects as `audio` does before. */
  read: Promise<void>;
  /** The file decoded at its own sample rate. */
  audio: Promise<AudioBuffer>;
  /** Gives up the read (its time-out): the worker stops before decoding. */
  cancel(): void;
}

/**
 * Reads and decodes a chosen file at its own sample rate (decodeAudioData resamples to its context's rate,
 * which costs time and alters the audio; the AudioBuffer then plays in the running context at any rate).
 * The WAV decode worker reads the file: a FileReader on the page delivered a 10-minute WAV's 106 MB in one
 * main-thread task of 114-174 ms (issue 26). WAV files our reader gives the same samples for as
 * decodeAudioData are decoded there and become an AudioBuffer slice by slice (decodeAudioData builds its
 * result on the main thread in one task, 84-91 ms for a 10-minute file); the bytes of every other file come
 * back for decodeUserAudio, its errors and their messages included.
 */
export const readAndDecode = (
  file: Blob,
  fallbackRate: number,
  worker: () => WavDecodeClient = sharedWorker,
): TrackDecode => {
  const stop = new AbortController();
  let bytesIn!: () => void;
  const read = new Promise<void>((resolve) => {
    bytesIn = resolve;
  });
  const audio = (async () => {
    const result = await worker().decode(file, { signal: stop.signal, onRead: bytesIn });
    if (result.kind === 'unreadable') throw new TrackLoadError('Failed to read file');
    if (result.kind === 'refused') return decodeUserAudio(result.bytes, sniffSampleRate, fallbackRate);
    return channelsToAudioBuffer(result.channels, result.sampleRate);
  })();
  audio.catch((error: unknown) => {
    if (!(error instanceof TrackLoadError) && !stop.signal.aborted)
      reportClientError('decode-failure', error);
  });
  return {
    read: Promise.race([read, audio.then(() => undefined)]),
    audio,
    cancel: () => stop.abort(),
  };
};

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
