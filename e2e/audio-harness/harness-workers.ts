/** The harness page's workers (the built app's worker bundles) and a buffer from channels. */

export const masterWorker = () => new Worker('/master-worker.js', { type: 'module' });
export const meterWorker = () => new Worker('/meter-worker.js', { type: 'module' });

export const toBuffer = (ctx: BaseAudioContext, channels: Float32Array[], length = channels[0]!.length) => {
  const buffer = ctx.createBuffer(channels.length, length, ctx.sampleRate);
  // copyToChannel wants a Float32Array over a plain ArrayBuffer; ours are, but typed over ArrayBufferLike.
  channels.forEach((c, i) => {
    buffer.copyToChannel(c as Float32Array<ArrayBuffer>, i);
  });
  return buffer;
};
