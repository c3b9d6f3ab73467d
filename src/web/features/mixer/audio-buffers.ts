/** Samples copied per step: a 10-minute stereo mix is copied in slices so no single task blocks the page. */
const COPY_SLICE = 1 << 21;

const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

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
