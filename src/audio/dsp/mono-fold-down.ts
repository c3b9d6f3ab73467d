/**
 * What a stereo track keeps when it is played in mono (a phone speaker, a club's mono PA, a smart speaker):
 * the zero-lag correlation of left and right, and the loudness the mono fold-down ((L + R) / 2 on both
 * sides, what a mono device plays) loses against the stereo original, by the BS.1770 meter. For the "Why it
 * sounds like this" panel (decision 127).
 */
import { measureLoudness } from './loudness';

export interface FoldDown {
  /** Pearson correlation of left and right over the whole track, -1..1 (1 for mono or silence). */
  correlation: number;
  /** Integrated loudness of the stereo signal, LUFS. */
  stereoLufs: number;
  /** Integrated loudness of the mono fold-down, LUFS. */
  monoLufs: number;
  /** stereoLufs - monoLufs: 0 for a mono track, about 3 LU for uncorrelated channels, large when they cancel. */
  monoLossDb: number;
}

export const measureFoldDown = (
  channels: readonly Float32Array[],
  sampleRate: number,
  stereoLufs = measureLoudness(channels, sampleRate, { truePeak: false }).integratedLufs,
): FoldDown => {
  if (channels.length !== 2) return { correlation: 1, stereoLufs, monoLufs: stereoLufs, monoLossDb: 0 };
  const left = channels[0]!;
  const right = channels[1]!;
  const n = left.length;
  const mid = new Float32Array(n);
  let lr = 0;
  let ll = 0;
  let rr = 0;
  for (let i = 0; i < n; i++) {
    const l = left[i]!;
    const r = right[i]!;
    lr += l * r;
    ll += l * l;
    rr += r * r;
    mid[i] = (l + r) * 0.5;
  }
  const correlation = ll > 0 && rr > 0 ? lr / Math.sqrt(ll * rr) : 1;
  const monoLufs = measureLoudness([mid, mid], sampleRate, { truePeak: false }).integratedLufs;
  const monoLossDb =
    Number.isFinite(stereoLufs) && Number.isFinite(monoLufs)
      ? stereoLufs - monoLufs
      : Number.isFinite(stereoLufs)
        ? Number.POSITIVE_INFINITY
        : 0;
  return { correlation, stereoLufs, monoLufs, monoLossDb };
};
