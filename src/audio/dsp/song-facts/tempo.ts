/**
 * Tempo from the onset envelopes (decision 191): a comb of the envelope's autocorrelation at one to four
 * periods finds the periodicity; the metrical level (half or double) is then chosen by the backbeat — a
 * snare or clap repeats every two beats and not every beat, while the kick leads the snare by one beat — with
 * a mild log-normal preference for 120 BPM when the drums say nothing.
 */
import { trackBeats } from './beats';
import type { OnsetEnvelopes } from './features';

export const MIN_BPM = 60;
export const MAX_BPM = 200;

/** Autocorrelation at lags 0..maxLag, each lag averaged over its overlap and divided by lag 0. */
export const autocorrelation = (x: Float32Array, maxLag: number): Float64Array => {
  const n = x.length;
  const out = new Float64Array(maxLag + 1);
  let mean = 0;
  for (let i = 0; i < n; i++) mean += x[i]!;
  mean /= Math.max(1, n);
  for (let lag = 0; lag <= maxLag && lag < n; lag++) {
    let sum = 0;
    for (let i = 0; i + lag < n; i++) sum += (x[i]! - mean) * (x[i + lag]! - mean);
    out[lag] = sum / (n - lag);
  }
  const zero = out[0]! || 1;
  for (let lag = 0; lag <= maxLag; lag++) out[lag] = out[lag]! / zero;
  return out;
};

/** Linear interpolation of an autocorrelation at a fractional lag; 0 beyond its end. */
const at = (a: Float64Array, lag: number): number => {
  const i = Math.floor(lag);
  if (i + 1 >= a.length || i < 0) return 0;
  const f = lag - i;
  return a[i]! * (1 - f) + a[i + 1]! * f;
};

const peakNear = (x: Float32Array, frame: number, radius: number): number => {
  let m = 0;
  for (let i = Math.max(0, frame - radius); i <= Math.min(x.length - 1, frame + radius); i++)
    m = Math.max(m, x[i]!);
  return m;
};

/**
 * The backbeat at a tempo: track beats at it, then how strongly kick and snare alternate from beat to beat.
 * At the right level the beats go kick, snare, kick, snare; at half the tempo every beat is a kick (or every
 * one a snare), at double the tempo the even beats carry both and the odd ones neither: both near 0.
 */
export const alternation = (env: OnsetEnvelopes, snare: Float32Array, bpm: number): number => {
  const beats = trackBeats(env.all, env.frameRate, bpm);
  const radius = Math.round(0.03 * env.frameRate);
  const kicks = beats.map((t) => peakNear(env.low, Math.round(t * env.frameRate), radius));
  const snares = beats.map((t) => peakNear(snare, Math.round(t * env.frameRate), radius));
  const mk = kicks.reduce((s, x) => s + x, 0) / Math.max(1, kicks.length) || 1;
  const ms = snares.reduce((s, x) => s + x, 0) / Math.max(1, snares.length) || 1;
  let signed = 0;
  let total = 0;
  for (let i = 0; i < beats.length; i++) {
    const d = snares[i]! / ms - kicks[i]! / mk;
    signed += i % 2 === 0 ? d : -d;
    total += Math.abs(d);
  }
  return total === 0 ? 0 : Math.abs(signed) / total;
};

/**
 * Snare and clap onsets: noise bursts that rise in the mid and the high band at once (the geometric mean of
 * the two, each over its mean), where chords rise in the mid band only and hats in the high band only.
 */
export const coincidence = (mid: Float32Array, high: Float32Array): Float32Array => {
  let mm = 0;
  let mh = 0;
  for (let i = 0; i < mid.length; i++) {
    mm += mid[i]!;
    mh += high[i]!;
  }
  mm = mm / mid.length || 1;
  mh = mh / high.length || 1;
  const out = new Float32Array(mid.length);
  for (let i = 0; i < mid.length; i++) out[i] = Math.sqrt((mid[i]! / mm) * (high[i]! / mh));
  return out;
};

export interface TempoEstimate {
  bpm: number;
  /** 0..1 */
  confidence: number;
  /** The candidates weighed, for the decision record and the tests. */
  candidates: { bpm: number; comb: number; backbeat: number; score: number }[];
}

export const estimateTempo = (env: OnsetEnvelopes): TempoEstimate => {
  const fr = env.frameRate;
  const maxLag = Math.ceil(((60 * fr) / MIN_BPM) * 4) + 4;
  const all = autocorrelation(env.all, maxLag);
  const snare = coincidence(env.mid, env.high);
  const lag = (bpm: number) => (60 * fr) / bpm;
  const comb = (bpm: number): number => {
    const p = lag(bpm);
    return at(all, p) + at(all, 2 * p) / 2 + at(all, 3 * p) / 3 + at(all, 4 * p) / 4;
  };
  // 1. The periodicity: the comb's best tempo on a 0.05 BPM grid.
  let best = 120;
  let bestComb = Number.NEGATIVE_INFINITY;
  for (let bpm = MIN_BPM; bpm <= MAX_BPM; bpm += 0.05) {
    const c = comb(bpm);
    if (c > bestComb) {
      bestComb = c;
      best = bpm;
    }
  }
  // 2. The metrical level among its relatives.
  const relatives = [1, 2, 0.5].map((r) => best * r).filter((b) => b >= MIN_BPM && b <= MAX_BPM);
  const candidates = relatives.map((bpm) => {
    const backbeat = alternation(env, snare, bpm);
    const prior = Math.exp(-0.5 * (Math.log2(bpm / 120) / 0.9) ** 2);
    const c = comb(bpm);
    return { bpm, comb: c, backbeat, score: (Math.max(0, c) + 2 * backbeat) * (0.5 + 0.5 * prior) };
  });
  candidates.sort((a, b) => b.score - a.score);
  const top = candidates[0]!;
  const second = candidates[1];
  const margin = second ? (top.score - second.score) / (top.score || 1) : 1;
  const confidence = Math.max(
    0,
    Math.min(1, 0.5 * Math.min(1, Math.max(0, top.comb) * 1.5) + 0.5 * Math.min(1, margin * 2)),
  );
  return { bpm: top.bpm, confidence, candidates };
};
