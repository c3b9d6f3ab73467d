/**
 * The DSP kernels the mixdown borrows from src/audio/dsp (written once, shared with mastering and the live
 * worklet): the BS.1770 meter, the compressor and the true-peak limiter, in the shapes the mix stages use.
 */
import { Compressor, type CompressorParams } from '../dsp/compressor';
import { TruePeakLimiter } from '../dsp/limiter';
import { LoudnessMeter } from '../dsp/loudness';

/** Integrated loudness (BS.1770-4, gated) of whole channels; -Infinity for silence. */
export const measureLufs = (channels: readonly Float32Array[], sampleRate: number): number => {
  const meter = new LoudnessMeter(sampleRate, channels.length, { truePeak: false });
  meter.push(channels);
  return meter.integrated();
};

/**
 * Integrated loudness of a stem as the stereo stem it stands for: a one-channel stem (a mono source, see
 * stemChannelCount) is measured as that channel on both sides, with weight 2: the same figure, bit for bit,
 * as measuring the two identical channels, for half the filtering.
 */
export const measureStemLufs = (stem: readonly Float32Array[], sampleRate: number): number => {
  if (stem.length !== 1) return measureLufs(stem, sampleRate);
  const meter = new LoudnessMeter(sampleRate, 1, { truePeak: false, weights: [2] });
  meter.push(stem);
  return meter.integrated();
};

/**
 * Vocal compression: 3:1 with a soft knee, fast enough to catch syllables (5 ms) and released between
 * words (120 ms). The threshold sits 8 dB over the vocal's loudness at that point of the chain, so the
 * peaks of any (already loudness-matched) vocal are tamed by a few dB whatever style was chosen.
 */
export const vocalCompressorParams = (vocalLufs: number): CompressorParams => ({
  thresholdDb: (Number.isFinite(vocalLufs) ? vocalLufs : -20) + 8,
  ratio: 3,
  kneeDb: 6,
  attackMs: 5,
  releaseMs: 120,
});

export const createVocalCompressor = (sampleRate: number, vocalLufs: number): Compressor =>
  new Compressor(sampleRate, vocalCompressorParams(vocalLufs));

/**
 * The output limiter run offline over whole channels in place, block by block with `tick` awaited between
 * blocks (progress, cancellation). The limiter streams with a fixed latency; output frame m is written back
 * at m, so the result lines up with the input sample for sample and keeps its length.
 */
export const limitInPlace = async (
  channels: readonly Float32Array[],
  sampleRate: number,
  ceilingDb: number,
  tick: (fraction: number) => Promise<void>,
  block = 65_536,
  /** Receives the gain the limiter applied to each frame (stems, decision 150). */
  frameGains: Float32Array | null = null,
): Promise<void> => {
  const limiter = new TruePeakLimiter(sampleRate, channels.length, { ceilingDb });
  limiter.frameGains = frameGains;
  const length = channels[0]?.length ?? 0;
  const latency = limiter.latency;
  const total = length + latency;
  const inputs = channels.map(() => new Float32Array(block));
  const outputs = channels.map(() => new Float32Array(block));
  for (let start = 0; start < total; start += block) {
    const end = Math.min(total, start + block);
    const n = end - start;
    for (let c = 0; c < channels.length; c++) {
      // Copy the input block first: the output is written back over frames the input has already passed.
      const input = inputs[c]!;
      const available = Math.max(0, Math.min(end, length) - start);
      if (available > 0) input.set(channels[c]!.subarray(start, start + available));
      input.fill(0, available, n);
    }
    limiter.process(
      inputs.map((x) => x.subarray(0, n)),
      outputs.map((x) => x.subarray(0, n)),
      0,
      n,
    );
    const from = Math.max(0, latency - start);
    if (from < n)
      for (let c = 0; c < channels.length; c++)
        channels[c]!.set(outputs[c]!.subarray(from, n), start + from - latency);
    await tick(Math.min(1, end / total));
  }
};
