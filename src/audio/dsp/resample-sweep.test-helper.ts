/**
 * Swept-sine measurement of a resampler (used by resample.test.ts in Node and by the Chromium spec through
 * the encoder worker): the exact sweep, and per-block residual / alias levels.
 */

/** A linear sweep f0 → f1 over `seconds`, amplitude 0.5, evaluated exactly at any time. */
export const sweep = (f0: number, f1: number, seconds: number) => ({
  at: (t: number) => 0.5 * Math.sin(2 * Math.PI * (f0 * t + ((f1 - f0) * t * t) / (2 * seconds))),
  frequency: (t: number) => f0 + ((f1 - f0) * t) / seconds,
});
export type Sweep = ReturnType<typeof sweep>;

export const renderSweep = (s: Sweep, rate: number, seconds: number) =>
  Float32Array.from({ length: Math.round(rate * seconds) }, (_, i) => s.at(i / rate));

const BLOCK = 1024;
const db = (ratio: number) => 20 * Math.log10(ratio);

/**
 * Splits the output into blocks by the sweep's frequency at the block: in passband blocks (≤ 19.5 kHz) the
 * residual against the exact sweep is measured (images of upsampling, aliases of downsampling and ripple
 * all land in it); in stopband blocks (input frequency at or above the output's Nyquist) the whole output is
 * alias. Levels are the worst block's RMS in dB relative to the sweep's RMS.
 */
export const measureSweep = (out: Float32Array, outRate: number, s: Sweep, edge: number) => {
  const sweepRms = 0.5 / Math.SQRT2;
  let passband = 0;
  let stopband = 0;
  let stopBlocks = 0;
  for (let start = edge; start + BLOCK <= out.length - edge; start += BLOCK) {
    const fLow = s.frequency(start / outRate);
    const fHigh = s.frequency((start + BLOCK) / outRate);
    let sum = 0;
    if (Math.max(fLow, fHigh) <= 19_500) {
      for (let j = start; j < start + BLOCK; j++) sum += (out[j]! - s.at(j / outRate)) ** 2;
      passband = Math.max(passband, Math.sqrt(sum / BLOCK));
    } else if (Math.min(fLow, fHigh) >= outRate / 2) {
      for (let j = start; j < start + BLOCK; j++) sum += out[j]! ** 2;
      stopband = Math.max(stopband, Math.sqrt(sum / BLOCK));
      stopBlocks++;
    }
  }
  return { passbandDb: db(passband / sweepRms), stopbandDb: db(stopband / sweepRms), stopBlocks };
};
