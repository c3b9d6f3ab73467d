/**
 * Corrective EQ toward the target curve (decision 112): nine RBJ peaking sections at the octave centres
 * 63 Hz .. 16 kHz (minimum phase, the same biquads the live worklet runs, no latency), whose gains are
 * fitted by least squares so that their summed response follows the smoothed, amount-scaled opposite of
 * the track's deviation from the target on the 1/3-octave grid, then scaled so the response stays
 * within +/-4 dB. Reference mastering uses the same fit on a 1/3-octave grid (decision 115).
 */
import { type BiquadCoefficients, biquadResponseDb, designBiquad } from './biquad';
import { deviationFromTarget, MATCH_BANDS } from './tonal-target';
import { THIRD_OCTAVE_CENTRES } from './track-analysis';

export const TONE_EQ_HZ: readonly number[] = [63, 125, 250, 500, 1000, 2000, 4000, 8000, 16000];
/** About one octave between the -3 dB points: neighbours overlap into a smooth curve. */
export const TONE_EQ_Q = 1.41;
export const TONE_EQ_LIMIT_DB = 4;
/** Matching a chosen reference may move further (decision 114); its amount is the user's blend. */
export const REFERENCE_EQ_LIMIT_DB = 12;

/** Where a set of peaking sections sits: centre frequencies and one Q for all. */
export interface EqGrid {
  hz: readonly number[];
  q: number;
}

/** The corrective EQ toward the target curve: nine octave sections, smooth by construction. */
export const TONE_EQ_GRID: EqGrid = { hz: TONE_EQ_HZ, q: TONE_EQ_Q };

/**
 * Reference mastering (decision 115): one section per matched 1/3-octave band (40 Hz-12.5 kHz), Q of a
 * 1/3-octave graphic EQ, so the correction can follow the reference band by band.
 */
export const REFERENCE_EQ_GRID: EqGrid = {
  hz: MATCH_BANDS.map((k) => THIRD_OCTAVE_CENTRES[k]!),
  q: 3,
};

export const toneEqSections = (
  gainsDb: readonly number[],
  sampleRate: number,
  grid: EqGrid = TONE_EQ_GRID,
): BiquadCoefficients[] =>
  grid.hz.map((hz, j) =>
    designBiquad({ kind: 'peaking', frequency: hz, q: grid.q, gainDb: gainsDb[j] ?? 0 }, sampleRate),
  );

/** The summed response of the sections in dB at each frequency. */
export const toneEqResponseDb = (
  gainsDb: readonly number[],
  frequencies: readonly number[],
  sampleRate: number,
  grid: EqGrid = TONE_EQ_GRID,
): number[] => {
  const sections = toneEqSections(gainsDb, sampleRate, grid);
  return frequencies.map((hz) => sections.reduce((s, c) => s + biquadResponseDb(c, hz, sampleRate), 0));
};

/**
 * The EQ's moves at the nine octave centres, for display: the section gains themselves on the octave grid;
 * the summed response on the reference's 1/3-octave grid, whose 26 gains say little one by one. (A plan
 * that crossed a postMessage is a copy, so the grid is told by its size.)
 */
export const octaveMovesDb = (gainsDb: readonly number[], grid: EqGrid, sampleRate = 48000): number[] =>
  grid.hz.length === TONE_EQ_HZ.length
    ? TONE_EQ_HZ.map((_, i) => gainsDb[i] ?? 0)
    : toneEqResponseDb(gainsDb, TONE_EQ_HZ, sampleRate, grid);

/** Points across a 1/3-octave band (equally spaced in log frequency, as pink noise spreads its power). */
const BAND_POINTS = Array.from({ length: 9 }, (_, j) => 2 ** ((j - 4) / 24));

/**
 * A response as a 1/3-octave band meter reads it (power mean across each band around `centres`), which
 * is what the analysis measures: a narrow section's gain at its centre overstates its band's change.
 */
export const bandAverageDb = (
  responseDb: (frequencies: readonly number[]) => number[],
  centres: readonly number[],
): number[] => {
  const db = responseDb(centres.flatMap((fc) => BAND_POINTS.map((r) => fc * r)));
  return centres.map((_, i) => {
    let power = 0;
    for (let j = 0; j < BAND_POINTS.length; j++) power += 10 ** (db[i * BAND_POINTS.length + j]! / 10);
    return 10 * Math.log10(power / BAND_POINTS.length);
  });
};

/** The sections' response per 1/3-octave band. */
export const bandResponseDb = (
  gainsDb: readonly number[],
  centres: readonly number[],
  sampleRate: number,
  grid: EqGrid,
): number[] => bandAverageDb((f) => toneEqResponseDb(gainsDb, f, sampleRate, grid), centres);

/** Smooths over about one octave (1/3-octave neighbours weighted 1, 2, 1), skipping NaN bands. */
const smooth = (values: readonly number[]): number[] =>
  values.map((_, k) => {
    let sum = 0;
    let weight = 0;
    for (let d = -1; d <= 1; d++) {
      const v = values[k + d];
      if (v === undefined || !Number.isFinite(v)) continue;
      const w = d === 0 ? 2 : 1;
      sum += w * v;
      weight += w;
    }
    return weight > 0 ? sum / weight : 0;
  });

/** Solves the small symmetric system A x = b (Gaussian elimination with partial pivoting). */
const solve = (a: number[][], b: number[]): number[] => {
  const n = b.length;
  const m = a.map((row, i) => [...row, b[i]!]);
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(m[r]![c]!) > Math.abs(m[p]![c]!)) p = r;
    [m[c], m[p]] = [m[p]!, m[c]!];
    for (let r = c + 1; r < n; r++) {
      const f = m[r]![c]! / m[c]![c]!;
      for (let k = c; k <= n; k++) m[r]![k] = m[r]![k]! - f * m[c]![k]!;
    }
  }
  const x = new Array<number>(n).fill(0);
  for (let r = n - 1; r >= 0; r--) {
    let s = m[r]![n]!;
    for (let k = r + 1; k < n; k++) s -= m[r]![k]! * x[k]!;
    x[r] = s / m[r]![r]!;
  }
  return x;
};

/**
 * Section gains (dB) that move `levelsDb` toward the target by `amount` (0..1). The response on the
 * matched bands is what is fitted; gains are solved with a small ridge so neighbours do not fight.
 */
export const fitToneEq = (
  levelsDb: readonly number[],
  sampleRate: number,
  amount: number,
  tiltDbPerOctave = 0,
): number[] => fitEqToDeviation(deviationFromTarget(levelsDb, tiltDbPerOctave), sampleRate, amount);

/**
 * Section gains that undo `amount` of a deviation (NaN bands are left alone); `already` is the response
 * in dB another EQ applies first on the 1/3-octave grid (the side EQ works on top of the mid's).
 */
export const fitEqToDeviation = (
  deviation: readonly number[],
  sampleRate: number,
  amount: number,
  already?: readonly number[],
  limitDb = TONE_EQ_LIMIT_DB,
  grid: EqGrid = TONE_EQ_GRID,
): number[] => {
  const zero = grid.hz.map(() => 0);
  if (amount <= 0) return zero;
  // The octave grid is smoothed over about an octave; the reference grid is its own 1/3-octave smoothing.
  const fine = grid !== TONE_EQ_GRID;
  const clamp = (v: number) => Math.max(-limitDb, Math.min(limitDb, v));
  // The octave grid limits the whole correction; the fine grid its own move (the side EQ's move is the
  // width change on top of the mid's tone move, each limited on its own).
  const wanted = (fine ? deviation : smooth(deviation)).map((d, k) =>
    fine
      ? clamp(-Math.min(1, amount) * d - (already?.[k] ?? 0))
      : clamp(-Math.min(1, amount) * d) - (already?.[k] ?? 0),
  );
  // Empty bands (NaN deviation) are not fitted: nothing there to correct.
  const fitted = MATCH_BANDS.filter((k) => Number.isFinite(deviation[k]!));
  const freqs = fitted.map((k) => THIRD_OCTAVE_CENTRES[k]!);
  const goal = fitted.map((k) => wanted[k]!);
  // Hold the top fitted band's goal up to 16 kHz: unconstrained, the 16 kHz section would swing far
  // above the matched range and the limit below would then scale every move down with it.
  if (!fine && goal.length > 0 && freqs.at(-1)! < 16000) {
    freqs.push(16000);
    goal.push(goal.at(-1)!);
  }
  // The fine grid is fitted to what a band meter reads; the octave grid to the response at the centres.
  const response = (g: readonly number[]) =>
    fine ? bandResponseDb(g, freqs, sampleRate, grid) : toneEqResponseDb(g, freqs, sampleRate, grid);
  // Basis: each section's response per dB of gain (peaking responses in dB are close to linear in gain).
  const basis = grid.hz.map((_, j) => {
    const g = zero.slice();
    g[j] = 1;
    return response(g);
  });
  const ridge = fine ? 0.001 : 0.05;
  let gains = zero.slice();
  for (let iteration = 0; iteration < (fine ? 12 : 3); iteration++) {
    const now = response(gains);
    const residual = goal.map((v, i) => v - now[i]!);
    const ata = basis.map((bi, i) =>
      basis.map((bj, j) => bi.reduce((s, v, k) => s + v * bj[k]!, 0) + (i === j ? ridge : 0)),
    );
    const atb = basis.map((bi) => bi.reduce((s, v, k) => s + v * residual[k]!, 0));
    const step = solve(ata, atb);
    gains = gains.map((g, j) => g + step[j]!);
  }
  // Keep the whole response inside the limit (checked on a finer grid than the bands).
  const fineGrid = Array.from({ length: 200 }, (_, i) => 20 * 2 ** (i / 20));
  // The response is nearly, not exactly, linear in the gains: scale until it fits.
  for (let i = 0; i < (fine ? 0 : 8); i++) {
    const worst = Math.max(...toneEqResponseDb(gains, fineGrid, sampleRate, grid).map(Math.abs));
    if (worst <= limitDb) break;
    gains = gains.map((g) => (g * limitDb) / worst);
  }
  return gains;
};
