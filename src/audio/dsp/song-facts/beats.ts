/**
 * Beat tracking by dynamic programming (Ellis 2007, decision 192): each frame's best score is its onset
 * strength plus the best predecessor's score less a penalty on the log of how far the interval strays from
 * the tempo's period; backtracking from the end gives beats that sit on onsets yet keep the pulse through
 * syncopation and swung off-beats. A straight line through the beats then gives the grid (tempo to well
 * under 1 %), and the downbeat is the beat phase of a four-beat bar where the kick and the bass land and the
 * chords change.
 */
import type { Chromagram, OnsetEnvelopes } from './features';

export interface BeatGrid {
  /** Beat times in seconds, as tracked. */
  beats: number[];
  /** Tempo of the straight line through the beats. */
  bpm: number;
  /** Seconds of the first downbeat at or after 0 on that line. */
  downbeatSeconds: number;
  beatsPerBar: number;
  /** 0..1: how clearly one phase of the bar won. */
  downbeatConfidence: number;
  /** Share of the beats that lie within 40 ms of the fitted line. */
  gridFit: number;
}

const TIGHTNESS = 100;

export const trackBeats = (env: Float32Array, frameRate: number, bpm: number): number[] => {
  const n = env.length;
  if (n === 0) return [];
  const period = (60 * frameRate) / bpm;
  let sd = 0;
  let mean = 0;
  for (let i = 0; i < n; i++) mean += env[i]!;
  mean /= n;
  for (let i = 0; i < n; i++) sd += (env[i]! - mean) ** 2;
  sd = Math.sqrt(sd / n) || 1;
  const local = new Float64Array(n);
  for (let i = 0; i < n; i++) local[i] = env[i]! / sd;
  const score = new Float64Array(n);
  const from = new Int32Array(n).fill(-1);
  const lo = Math.round(period / 2);
  const hi = Math.round(2 * period);
  // The penalty depends only on the interval: one table, not a logarithm per frame and interval.
  const penalty = new Float64Array(hi + 1);
  for (let d = lo; d <= hi; d++) penalty[d] = TIGHTNESS * Math.log(d / period) ** 2;
  for (let t = 0; t < n; t++) {
    let bestValue = Number.NEGATIVE_INFINITY;
    let bestFrom = -1;
    for (let d = lo; d <= hi && t - d >= 0; d++) {
      const v = score[t - d]! - penalty[d]!;
      if (v > bestValue) {
        bestValue = v;
        bestFrom = t - d;
      }
    }
    score[t] = local[t]! + (bestFrom >= 0 ? bestValue : 0);
    from[t] = bestFrom;
  }
  // Start the backtrack at the best-scoring frame of the last period.
  let end = n - 1;
  for (let t = Math.max(0, n - Math.ceil(period)); t < n; t++) if (score[t]! > score[end]!) end = t;
  const frames: number[] = [];
  for (let t = end; t >= 0; t = from[t]!) frames.push(t);
  frames.reverse();
  return frames.map((f) => f / frameRate);
};

/** Least-squares line through beat times against their index: [first, period]. */
const fitLine = (beats: number[]): [number, number] => {
  const n = beats.length;
  let si = 0;
  let st = 0;
  let sii = 0;
  let sit = 0;
  for (let i = 0; i < n; i++) {
    si += i;
    st += beats[i]!;
    sii += i * i;
    sit += i * beats[i]!;
  }
  const period = (n * sit - si * st) / (n * sii - si * si);
  return [(st - period * si) / n, period];
};

const valueNear = (x: Float32Array, frame: number, radius: number): number => {
  let m = 0;
  for (let i = Math.max(0, frame - radius); i <= Math.min(x.length - 1, frame + radius); i++)
    m = Math.max(m, x[i]!);
  return m;
};

export const beatGrid = (env: OnsetEnvelopes, chroma: Chromagram, bpm: number, beatsPerBar = 4): BeatGrid => {
  const tracked = trackBeats(env.all, env.frameRate, bpm);
  if (tracked.length < 4) {
    return { beats: tracked, bpm, downbeatSeconds: 0, beatsPerBar, downbeatConfidence: 0, gridFit: 0 };
  }
  // Drop the beats that do not continue the pulse (the tracker's start-up and any break), then refit once.
  let [first, period] = fitLine(tracked);
  const nominal = 60 / bpm;
  const indexed = tracked.map((t) => ({ t, i: Math.round((t - first) / period) }));
  const kept = indexed.filter(({ t, i }) => Math.abs(t - (first + i * period)) < 0.25 * nominal);
  if (kept.length >= 4) {
    const n = kept.length;
    const mi = kept.reduce((s, k) => s + k.i, 0) / n;
    const mt = kept.reduce((s, k) => s + k.t, 0) / n;
    let num = 0;
    let den = 0;
    for (const k of kept) {
      num += (k.i - mi) * (k.t - mt);
      den += (k.i - mi) ** 2;
    }
    period = num / den;
    first = mt - period * mi;
  }
  const fitted = Math.round(Math.abs(first) / period);
  first -= Math.sign(first) * fitted * period;
  if (first < -0.02) first += period;
  const gridFit =
    indexed.filter(({ t, i }) => Math.abs(t - (first + i * period)) < 0.04).length / indexed.length;
  // Downbeat: for each phase, the kick/bass onsets and the chord change on its beats.
  const count = Math.floor((env.all.length / env.frameRate - first) / period) + 1;
  const phaseScore = new Float64Array(beatsPerBar);
  const phaseCount = new Float64Array(beatsPerBar);
  const radius = Math.round(0.03 * env.frameRate);
  let lowMean = 0;
  for (let i = 0; i < env.low.length; i++) lowMean += env.low[i]!;
  lowMean = lowMean / Math.max(1, env.low.length) || 1;
  for (let b = 0; b < count; b++) {
    const t = first + b * period;
    const frame = Math.round(t * env.frameRate);
    const kick = valueNear(env.low, frame, radius) / lowMean;
    const change = chordChange(chroma, t, period);
    phaseScore[b % beatsPerBar] += Math.log1p(kick) + 2 * change;
    phaseCount[b % beatsPerBar] += 1;
  }
  const means = Array.from(phaseScore, (s, i) => s / Math.max(1, phaseCount[i]!));
  const order = means.map((m, i) => [m, i] as const).sort((a, b) => b[0] - a[0]);
  const phase = order[0]![1];
  const downbeatConfidence = Math.max(
    0,
    Math.min(1, ((order[0]![0] - order[1]![0]) / (order[0]![0] || 1)) * 3),
  );
  // Frame times count from the window's start; an onset shows when it reaches the window's centre.
  let downbeat = first + phase * period + env.offsetSeconds;
  const bar = period * beatsPerBar;
  // The first downbeat: a render's first onset may come a few milliseconds before the line's zero.
  while (downbeat - bar >= -0.1 * period) downbeat -= bar;
  return {
    beats: tracked.map((t) => t + env.offsetSeconds),
    bpm: 60 / period,
    downbeatSeconds: Math.max(0, downbeat),
    beatsPerBar,
    downbeatConfidence,
    gridFit,
  };
};

/** 1 − cosine similarity of the note chroma over the beat before and the beat after `t`. */
const chordChange = (chroma: Chromagram, t: number, period: number): number => {
  const sum = (from: number, to: number): Float64Array => {
    const v = new Float64Array(12);
    const a = Math.max(0, Math.floor(from / chroma.hopSeconds));
    const b = Math.min(chroma.frames, Math.ceil(to / chroma.hopSeconds));
    for (let f = a; f < b; f++) for (let pc = 0; pc < 12; pc++) v[pc] += chroma.notes[f * 12 + pc]!;
    return v;
  };
  const before = sum(t - period, t);
  const after = sum(t, t + period);
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let pc = 0; pc < 12; pc++) {
    dot += before[pc]! * after[pc]!;
    na += before[pc]! ** 2;
    nb += after[pc]! ** 2;
  }
  if (na === 0 || nb === 0) return 0;
  return 1 - dot / Math.sqrt(na * nb);
};
