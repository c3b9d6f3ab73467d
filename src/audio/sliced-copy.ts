/**
 * Big sample arrays copied on the page in slices with an event-loop turn after each one, so no single task
 * blocks the main thread: a ten-minute stereo track is about 200 MB of samples, and one `slice()` (or one
 * structured clone in a postMessage) of it blocks the page for hundreds of milliseconds on a small machine.
 * The one place for this: the worker clients copy what they send with it too.
 */
import { yieldToEventLoop } from './event-loop';

/**
 * The worker clients' slice: 256K samples (1 MB) of one channel per task. A fresh array's pages are only
 * made on first write, so a slice costs its page faults as well as its copy: the mix client's 4M-sample
 * slices of a loaded 10-minute track ran 27-29 ms of CPU each on a quiet machine (a trace of
 * e2e/mixer-longtask.spec.ts), 58-80 ms on the wall while the workers ran.
 */
export const WORKER_COPY_SLICE = 1 << 18;

/**
 * A private copy of each channel, `slice` samples per task. `signal` is checked after every slice.
 * The copies can be moved to a worker (`transfer: true`) while the originals stay in use.
 * Each channel's array is allocated in a task of its own, after a turn: a new 10-minute channel is 106 MB
 * that the browser zero-fills, and the page's jobs for a loaded track (the listener's, the song facts') all
 * start in the task that loaded it; allocated up front, their arrays made one task of most of a second under
 * load (decision 290).
 */
export const copyChannelsInSlices = async (
  channels: readonly Float32Array[],
  slice = WORKER_COPY_SLICE,
  signal?: AbortSignal,
): Promise<Float32Array[]> => {
  const out: Float32Array[] = [];
  for (const data of channels) {
    await yieldToEventLoop();
    signal?.throwIfAborted();
    const copy = new Float32Array(data.length);
    out.push(copy);
    for (let at = 0; at < data.length; at += slice) {
      copy.set(data.subarray(at, at + slice), at);
      signal?.throwIfAborted();
      await yieldToEventLoop();
    }
  }
  return out;
};

/**
 * Fills `buffer` from `channels`, `slice` samples per task, with a turn between slices. The channels may be
 * on shared memory (the two-worker master's): TypedArray.set takes it, AudioBuffer.copyToChannel would not.
 */
export const fillAudioBufferInSlices = async (
  buffer: AudioBuffer,
  channels: readonly Float32Array[],
  slice: number,
): Promise<AudioBuffer> => {
  for (const [c, data] of channels.entries()) {
    const length = Math.min(data.length, buffer.length);
    const target = buffer.getChannelData(c);
    for (let at = 0; at < length; at += slice) {
      target.set(data.subarray(at, Math.min(length, at + slice)), at);
      if (at + slice < length) await yieldToEventLoop();
    }
  }
  return buffer;
};

/**
 * Writes every sample of `buffer` once (zeros, as it already holds), `slice` samples per task with a turn
 * between slices. A fresh AudioBuffer's memory is mapped page by page on its first write, which made filling
 * one with a 4-minute master about 80 ms of the main thread's time where the copy alone is a fraction of it;
 * written once while the page waits for the render, the fill after it is the copy alone (decision 298).
 */
export const touchAudioBufferInSlices = async (
  buffer: AudioBuffer,
  slice: number,
  signal?: AbortSignal,
): Promise<void> => {
  for (let c = 0; c < buffer.numberOfChannels; c++) {
    const data = buffer.getChannelData(c);
    for (let at = 0; at < data.length; at += slice) {
      data.fill(0, at, Math.min(data.length, at + slice));
      await yieldToEventLoop();
      signal?.throwIfAborted();
    }
  }
};
