/**
 * Reference honesty (issue 30, decision 243): a reference that stops short in the highs (a lossy codec's
 * low-pass, an old transfer) would make the tone match cut the master's top bands by up to 12 dB, copying a
 * hole that says nothing about the mix. Its empty top bands are found from its own spectrum and left out.
 */
import { THIRD_OCTAVE_CENTRES } from './track-analysis';

/** A cliff: this much lower than the band below. Music rolls off a few dB per third octave, a codec's
 * low-pass 20 dB or more (a 11 kHz cut measured 31 dB, an MP3 cut at 11 kHz on asc-music 46 dB). */
export const CLIFF_DB = 20;
/** Below this a drop is the music, not a codec (lossy low-passes sit at 11-20 kHz). */
export const CLIFF_FROM_HZ = 2000;

export interface ReferenceBandwidth {
  /** Index into THIRD_OCTAVE_CENTRES of the first band left out (the one holding the edge), or null. */
  firstLeftOut: number | null;
  /** About where the reference's content stops (the lower edge of its first empty band), Hz, or null. */
  cutoffHz: number | null;
}

/**
 * Finds a top-end cliff in a reference's 1/3-octave levels (mid): the first band from 2 kHz up that is
 * CLIFF_DB under the band below, with every band above it at least as far down. The band below the cliff
 * holds the low-pass's slope, so it is left out too.
 */
export const referenceBandwidth = (levelsDb: readonly number[]): ReferenceBandwidth => {
  for (let k = 1; k < THIRD_OCTAVE_CENTRES.length; k++) {
    if (THIRD_OCTAVE_CENTRES[k]! < CLIFF_FROM_HZ) continue;
    const below = levelsDb[k - 1]!;
    if (!Number.isFinite(below)) continue;
    const rest = levelsDb.slice(k);
    const empty = rest.every((v) => !Number.isFinite(v) || v < below - CLIFF_DB);
    if (empty) {
      return { firstLeftOut: k - 1, cutoffHz: THIRD_OCTAVE_CENTRES[k]! / 2 ** (1 / 6) };
    }
  }
  return { firstLeftOut: null, cutoffHz: null };
};

/** The levels with the reference's empty top bands as NaN: a NaN band takes no part in the match. */
export const withoutEmptyBands = (levelsDb: readonly number[], bandwidth: ReferenceBandwidth): number[] =>
  levelsDb.map((v, k) => (bandwidth.firstLeftOut !== null && k >= bandwidth.firstLeftOut ? Number.NaN : v));
