/**
 * The mixer's big sample arrays are copied on the page in slices of 256K samples (1 MB), one task each (see
 * audio/sliced-copy): a structured clone of a 10-minute channel in one postMessage is one long task. 1M-sample
 * slices ran 100-290 ms a task on the shared two cores (a trace of e2e/mixer-longtask.spec.ts, issue 26): the
 * page copies for the listener, the song facts, the peaks and the mix worker at once after a load.
 */
import { copyChannelsInSlices, fillAudioBufferInSlices } from '../../../../audio/sliced-copy';

const COPY_SLICE = 1 << 18;

/** Rendered channels (from a worker) as an AudioBuffer of the playback context, copied slice by slice. */
export const toAudioBuffer = async (
  ctx: BaseAudioContext,
  channels: readonly Float32Array[],
  sampleRate: number,
): Promise<AudioBuffer> => {
  const buffer = ctx.createBuffer(
    Math.max(1, channels.length),
    Math.max(1, channels[0]?.length ?? 0),
    sampleRate,
  );
  // The browser zero-fills a new buffer in one task: the long-task spec reads this mark to tell it apart.
  performance.mark('mixer:audio-buffer:created');
  return fillAudioBufferInSlices(buffer, channels, COPY_SLICE);
};

/**
 * A private copy of each channel, made slice by slice, for handing to a worker with `transfer: true`
 * (zero-copy) while the originals stay usable (they may be an AudioBuffer's own data, still playing).
 */
export const copyForTransfer = (channels: readonly Float32Array[]): Promise<Float32Array[]> =>
  copyChannelsInSlices(channels, COPY_SLICE);
