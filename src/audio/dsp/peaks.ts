/**
 * Waveform peaks: per block of samples, the lowest and highest value over all channels. The finest level is
 * read from the samples once; every coarser level is folded from the one below it, so all zoom levels cost
 * little more than one pass over the audio.
 */
export interface PeakLevel {
  /** Samples (per channel) summarised by one peak. */
  readonly samplesPerPeak: number;
  readonly min: Float32Array;
  readonly max: Float32Array;
}

/** Zoom levels, finest first; each is twice the one before so they fold exactly. */
export const PEAK_ZOOM_LEVELS: readonly number[] = [128, 256, 512, 1024, 2048, 4096, 8192];

export const peakCount = (frames: number, samplesPerPeak: number): number =>
  Math.ceil(frames / samplesPerPeak);

/**
 * Fills peaks [fromPeak, toPeak) of the finest level from the samples. Called block by block so a worker can
 * report progress between blocks.
 */
export const fillPeaks = (
  channels: readonly Float32Array[],
  samplesPerPeak: number,
  min: Float32Array,
  max: Float32Array,
  fromPeak: number,
  toPeak: number,
): void => {
  const frames = channels[0]?.length ?? 0;
  for (let p = fromPeak; p < toPeak; p++) {
    const start = p * samplesPerPeak;
    const end = Math.min(start + samplesPerPeak, frames);
    let lo = Infinity;
    let hi = -Infinity;
    for (const channel of channels) {
      for (let i = start; i < end; i++) {
        const v = channel[i]!;
        if (v < lo) lo = v;
        if (v > hi) hi = v;
      }
    }
    min[p] = lo === Infinity ? 0 : lo;
    max[p] = hi === -Infinity ? 0 : hi;
  }
};

/** A coarser level from a finer one: every `factor` peaks become one. */
export const foldPeaks = (finer: PeakLevel, factor: number): PeakLevel => {
  const n = Math.ceil(finer.min.length / factor);
  const min = new Float32Array(n);
  const max = new Float32Array(n);
  for (let p = 0; p < n; p++) {
    const start = p * factor;
    const end = Math.min(start + factor, finer.min.length);
    let lo = finer.min[start]!;
    let hi = finer.max[start]!;
    for (let i = start + 1; i < end; i++) {
      if (finer.min[i]! < lo) lo = finer.min[i]!;
      if (finer.max[i]! > hi) hi = finer.max[i]!;
    }
    min[p] = lo;
    max[p] = hi;
  }
  return { samplesPerPeak: finer.samplesPerPeak * factor, min, max };
};

const checkLevels = (levels: readonly number[]): void => {
  if (levels.length === 0) throw new RangeError('At least one zoom level is needed');
  for (let i = 0; i < levels.length; i++) {
    const spp = levels[i]!;
    if (!Number.isInteger(spp) || spp < 1) throw new RangeError(`Invalid zoom level ${spp}`);
    if (i > 0 && spp % levels[i - 1]! !== 0)
      throw new RangeError('Each zoom level must be a multiple of the one before');
  }
};

/**
 * Peaks at every zoom level, built in blocks: `onBlock` runs after each block of the finest level (with the
 * fraction done) and may be async, so a worker can yield there.
 */
export const computePeaks = async (
  channels: readonly Float32Array[],
  levels: readonly number[] = PEAK_ZOOM_LEVELS,
  onBlock?: (fraction: number) => void | Promise<void>,
  peaksPerBlock = 4096,
): Promise<PeakLevel[]> => {
  checkLevels(levels);
  const frames = channels[0]?.length ?? 0;
  const finest = levels[0]!;
  const n = peakCount(frames, finest);
  const min = new Float32Array(n);
  const max = new Float32Array(n);
  for (let from = 0; from < n; from += peaksPerBlock) {
    const to = Math.min(n, from + peaksPerBlock);
    fillPeaks(channels, finest, min, max, from, to);
    await onBlock?.(to / n);
  }
  const out: PeakLevel[] = [{ samplesPerPeak: finest, min, max }];
  for (let i = 1; i < levels.length; i++) out.push(foldPeaks(out[i - 1]!, levels[i]! / levels[i - 1]!));
  return out;
};
