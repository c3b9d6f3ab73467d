/**
 * Copies of whole tracks made in slices with event-loop turns between them: a ten-minute stereo track is
 * 200 MB of samples, and one `slice()` of it blocks the page for hundreds of milliseconds on a small machine.
 */
const SLICE = 1 << 21;

/** One event-loop turn (a MessageChannel round trip: not clamped like nested timers). */
export const turn = (): Promise<void> =>
  new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });

export const copyChannels = async (
  channels: readonly Float32Array[],
  signal?: AbortSignal,
): Promise<Float32Array[]> => {
  const out = channels.map((c) => new Float32Array(c.length));
  for (const [i, data] of channels.entries()) {
    for (let at = 0; at < data.length; at += SLICE) {
      out[i]!.set(data.subarray(at, Math.min(data.length, at + SLICE)), at);
      signal?.throwIfAborted();
      await turn();
    }
  }
  return out;
};

/** An AudioBuffer filled from `channels` slice by slice. */
export const toAudioBufferInSlices = async (
  channels: readonly Float32Array[],
  sampleRate: number,
): Promise<AudioBuffer> => {
  const length = channels[0]?.length ?? 1;
  const buffer = new AudioBuffer({ length, numberOfChannels: Math.max(1, channels.length), sampleRate });
  for (const [c, data] of channels.entries()) {
    for (let at = 0; at < length; at += SLICE) {
      buffer.copyToChannel(
        data.subarray(at, Math.min(length, at + SLICE)) as Float32Array<ArrayBuffer>,
        c,
        at,
      );
      await turn();
    }
  }
  return buffer;
};
