/** Vocal space's analysis of the whole vocal stem (decision 155): the singing threshold and band weights. */

import { BiquadCascade } from './biquad';
import {
  filterBandPairs,
  monoInto,
  SILENT_VOCAL_PROFILE,
  TINY,
  VOCAL_SPACE_BANDS,
  type VocalSpaceProfile,
  vocalSpaceBandDesigns,
} from './vocal-space-bands';

/** Level statistics of the vocal band over blocks: the singing threshold sits 30 dB below the loud level. */
export const PROFILE_BLOCK_S = 0.05;
export const THRESHOLD_BELOW_LOUD_DB = 30;
export const THRESHOLD_FLOOR_DB = -70;
export const WEIGHT_RANGE_DB = 18;

/**
 * The vocal's profile from the whole stem: the singing threshold (30 dB under the 90th percentile of its
 * 50 ms band levels, never under -70 dBFS) and the band weights from its energy while it sings.
 */
export const analyseVocalSpace = (vocal: readonly Float32Array[], sampleRate: number): VocalSpaceProfile => {
  const frames = vocal[0]?.length ?? 0;
  if (frames === 0) return SILENT_VOCAL_PROFILE;
  const block = Math.max(1, Math.round(PROFILE_BLOCK_S * sampleRate));
  const blocks = Math.ceil(frames / block);
  const filters = vocalSpaceBandDesigns(sampleRate).map((c) => {
    const f = new BiquadCascade(1, 1);
    f.setSection(0, c);
    return f;
  });
  // energy[k * blocks + b]: band k's mean square in block b.
  const energy = new Float64Array(VOCAL_SPACE_BANDS * blocks);
  const mono = new Float32Array(block);
  const bands = Array.from({ length: VOCAL_SPACE_BANDS }, () => new Float32Array(block));
  for (let b = 0; b < blocks; b++) {
    const start = b * block;
    const end = Math.min(frames, start + block);
    const n = end - start;
    monoInto(mono, vocal, start, end);
    for (const band of bands) band.set(mono.subarray(0, n));
    filterBandPairs(filters, bands, n);
    for (let k = 0; k < VOCAL_SPACE_BANDS; k++) {
      const band = bands[k]!;
      let sum = 0;
      for (let i = 0; i < n; i++) sum += band[i]! * band[i]!;
      energy[k * blocks + b] = sum / n;
    }
  }
  const levels: number[] = [];
  const blockDb = new Float64Array(blocks);
  for (let b = 0; b < blocks; b++) {
    let total = 0;
    for (let k = 0; k < VOCAL_SPACE_BANDS; k++) total += energy[k * blocks + b]!;
    blockDb[b] = 10 * Math.log10(total + TINY);
    if (total > 1e-12) levels.push(blockDb[b]!);
  }
  if (levels.length === 0) return SILENT_VOCAL_PROFILE;
  levels.sort((x, y) => x - y);
  const loud = levels[Math.min(levels.length - 1, Math.floor(0.9 * levels.length))]!;
  const singingThresholdDb = Math.max(THRESHOLD_FLOOR_DB, loud - THRESHOLD_BELOW_LOUD_DB);
  const bandDb = Array.from({ length: VOCAL_SPACE_BANDS }, (_, k) => {
    let sum = 0;
    for (let b = 0; b < blocks; b++) if (blockDb[b]! >= singingThresholdDb) sum += energy[k * blocks + b]!;
    return 10 * Math.log10(sum + TINY);
  });
  const strongest = Math.max(...bandDb);
  const weights = bandDb.map((db) => Math.min(1, Math.max(0, 1 + (db - strongest) / WEIGHT_RANGE_DB)));
  return { weights, singingThresholdDb };
};
