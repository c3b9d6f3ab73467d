/**
 * Big sample arrays are copied on the page in slices, one task each, so no single task blocks the main
 * thread: a structured clone of a 10-minute channel (about 100 MB) in one postMessage is one long task.
 */
const COPY_SLICE = 1 << 20;

/** Gives the page's event loop a turn (a MessageChannel round trip: setTimeout(0) is clamped to 4 ms). */
export const nextTask = (): Promise<void> =>
  new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });

/** Rendered channels (from a worker) as an AudioBuffer of the playback context, copied slice by slice. */
export const toAudioBuffer = async (
  ctx: BaseAudioContext,
  channels: readonly Float32Array[],
  sampleRate: number,
): Promise<AudioBuffer> => {
  const length = Math.max(1, channels[0]?.length ?? 0);
  const buffer = ctx.createBuffer(Math.max(1, channels.length), length, sampleRate);
  for (const [c, data] of channels.entries()) {
    for (let at = 0; at < data.length; at += COPY_SLICE) {
      // Worker-transferred arrays are backed by plain ArrayBuffers.
      buffer.copyToChannel(data.subarray(at, at + COPY_SLICE) as Float32Array<ArrayBuffer>, c, at);
      if (at + COPY_SLICE < data.length) await nextTask();
    }
  }
  return buffer;
};

/**
 * A private copy of each channel, made slice by slice, for handing to a worker with `transfer: true`
 * (zero-copy) while the originals stay usable (they may be an AudioBuffer's own data, still playing).
 */
export const copyForTransfer = async (channels: readonly Float32Array[]): Promise<Float32Array[]> => {
  const out: Float32Array[] = [];
  for (const data of channels) {
    const copy = new Float32Array(data.length);
    for (let at = 0; at < data.length; at += COPY_SLICE) {
      copy.set(data.subarray(at, at + COPY_SLICE), at);
      await nextTask();
    }
    out.push(copy);
  }
  return out;
};
