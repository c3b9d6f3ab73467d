/**
 * TD-PSOLA pitch shifting on the tracked pitch marks (decision 202). Each voiced run is cut into two-period
 * Hann grains centred on its pitch marks (one per period, on the waveform's peak); the grains are laid down
 * again at the corrected period. A grain keeps the spectral envelope of the voice (its formants) and only the
 * spacing changes, so a corrected note is neither chipmunked nor dulled. Unvoiced samples are not touched:
 * outside the voiced runs the output is the input, sample for sample, and each run fades in and out of the
 * dry signal over a few milliseconds.
 */
import type { PitchTrack } from './pitch-track';

/** Dry-to-shifted crossfade at each voiced run's edges. */
const EDGE_FADE_SECONDS = 0.008;

/** Linear interpolation of a per-frame curve at a sample position. */
const atSample = (curve: Float32Array, hop: number, sample: number): number => {
  const pos = sample / hop;
  const i = Math.floor(pos);
  if (i < 0) return curve[0]!;
  if (i >= curve.length - 1) return curve[curve.length - 1]!;
  const t = pos - i;
  return curve[i]! * (1 - t) + curve[i + 1]! * t;
};

export interface VoicedRun {
  /** First and one-past-last sample of the run. */
  start: number;
  end: number;
}

/** The voiced runs of a track in samples (frame centres ± half a hop), clamped to [0, length). */
export const voicedRuns = (track: PitchTrack, length: number): VoicedRun[] => {
  const runs: VoicedRun[] = [];
  const { f0, hop } = track;
  let f = 0;
  while (f < f0.length) {
    if (!(f0[f]! > 0)) {
      f++;
      continue;
    }
    let end = f;
    while (end < f0.length && f0[end]! > 0) end++;
    runs.push({
      start: Math.max(0, Math.round((f - 0.5) * hop)),
      end: Math.min(length, Math.round((end - 0.5) * hop)),
    });
    f = end;
  }
  return runs;
};

/** Continuous period (samples) over a run: the f0 curve with unvoiced frames at its edges bridged. */
const periodAt = (track: PitchTrack, sample: number): number => {
  const f = Math.round(sample / track.hop);
  let hz = track.f0[Math.min(Math.max(f, 0), track.f0.length - 1)]!;
  if (!(hz > 0)) {
    // Edge of a run: the nearest voiced frame.
    for (let d = 1; d < 4 && !(hz > 0); d++)
      hz = track.f0[f - d]! > 0 ? track.f0[f - d]! : (track.f0[f + d] ?? 0);
  }
  if (!(hz > 0)) return 0;
  const exact = atSample(track.f0, track.hop, sample);
  return track.sampleRate / (exact > 0 && Math.abs(exact - hz) < hz * 0.06 ? exact : hz);
};

/** Pitch marks (sample positions) of a run: one per period, each on the largest sample near its prediction. */
export const pitchMarks = (x: Float32Array, track: PitchTrack, run: VoicedRun): number[] => {
  const marks: number[] = [];
  const p0 = periodAt(track, run.start);
  if (!(p0 > 0)) return marks;
  let m = run.start;
  let best = -Infinity;
  for (let i = run.start; i < Math.min(run.end, run.start + Math.round(p0)); i++)
    if (x[i]! > best) {
      best = x[i]!;
      m = i;
    }
  while (m < run.end) {
    marks.push(m);
    const p = periodAt(track, m);
    if (!(p > 2)) break;
    const predicted = m + p;
    const reach = Math.max(1, Math.round(p * 0.15));
    let next = Math.round(predicted);
    let peak = -Infinity;
    for (let i = Math.round(predicted) - reach; i <= Math.round(predicted) + reach; i++) {
      if (i <= m || i >= x.length) continue;
      if (x[i]! > peak) {
        peak = x[i]!;
        next = i;
      }
    }
    m = next;
  }
  return marks;
};

/** A voiced run with its analysis pitch marks: what the shifter needs from the tracking, per source. */
export interface PsolaRun extends VoicedRun {
  /** Analysis marks (samples), one per period, and each mark's period (distance to its neighbour). */
  marks: Int32Array;
  periods: Int32Array;
  /** Samples [span0, span1) the grains of this run can reach. */
  span0: number;
  span1: number;
}

/** Where the grains go for one correction curve: synthesis mark positions and the analysis mark each takes. */
export interface GrainPlan {
  /** Rounded synthesis mark positions, in order. */
  at: Int32Array;
  /** Index of the analysis mark whose grain is laid at each synthesis mark. */
  grain: Int32Array;
  /** The longest period among the run's marks (the farthest a grain reaches from its mark). */
  reach: number;
}

/** The runs of a source that can be shifted (at least three marks), with their marks. Depends on the track only. */
export const psolaRuns = (mono: Float32Array, track: PitchTrack): PsolaRun[] => {
  const length = mono.length;
  const out: PsolaRun[] = [];
  for (const run of voicedRuns(track, length)) {
    const marks = pitchMarks(mono, track, run);
    if (marks.length < 3) continue;
    const periods = marks.map((m, i) => (i + 1 < marks.length ? marks[i + 1]! - m : m - marks[i - 1]!));
    out.push({
      ...run,
      marks: Int32Array.from(marks),
      periods: Int32Array.from(periods),
      span0: Math.max(0, marks[0]! - periods[0]!),
      span1: Math.min(length, marks[marks.length - 1]! + periods[periods.length - 1]!),
    });
  }
  return out;
};

/**
 * The synthesis marks of a run for a per-frame `ratio` (output period = input period / ratio), each taking the
 * grain of the nearest analysis mark; null when the ratio is 1 all over the run (the run stays dry).
 */
export const planGrains = (run: PsolaRun, ratio: Float32Array, hop: number): GrainPlan | null => {
  let unity = true;
  for (let f = Math.floor(run.start / hop); f <= Math.ceil(run.end / hop); f++)
    if (ratio[f] !== undefined && ratio[f] !== 1) unity = false;
  if (unity) return null;
  const { marks, periods } = run;
  const at: number[] = [];
  const grain: number[] = [];
  let t = marks[0]!;
  let k = 0;
  const last = marks[marks.length - 1]!;
  while (t <= last) {
    while (k + 1 < marks.length && Math.abs(marks[k + 1]! - t) <= Math.abs(marks[k]! - t)) k++;
    at.push(Math.round(t));
    grain.push(k);
    const rho = atSample(ratio, hop, t);
    t += periods[k]! / (rho > 0 ? rho : 1);
  }
  let reach = 0;
  for (const p of periods) reach = Math.max(reach, p);
  return { at: Int32Array.from(at), grain: Int32Array.from(grain), reach };
};

/** Samples the edge crossfade of a run lasts at this rate. */
export const edgeFadeSamples = (sampleRate: number): number =>
  Math.max(1, Math.round(EDGE_FADE_SECONDS * sampleRate));

/**
 * Accumulators reused from call to call (zeroed over the part used): the live worklet calls renderRunSpan
 * every few quanta, and fresh arrays each time would feed the audio thread's garbage collector.
 */
const scratch: Float64Array[] = [];
const zeroedScratch = (count: number, n: number): Float64Array[] => {
  for (let i = 0; i < count; i++) {
    const have = scratch[i];
    if (!have || have.length < n) scratch[i] = new Float64Array(Math.max(n, 4096));
    else have.fill(0, 0, n);
  }
  return scratch.slice(0, count);
};

/**
 * Writes the shifted samples [from, to) of one run into `out` (the same sample positions), blending from dry
 * to shifted at the run's edges; samples the grains do not cover stay as they are in `out`. Any span gives
 * the same samples as the whole run at once (each sample sums the grains in the same order), which is what
 * lets the live AudioWorklet compute 128 samples at a time and match the offline render exactly.
 */
export const renderRunSpan = (
  channels: readonly Float32Array[],
  run: PsolaRun,
  plan: GrainPlan,
  fade: number,
  out: readonly Float32Array[],
  from: number,
  to: number,
): void => {
  const a = Math.max(run.span0, run.start);
  const b = Math.min(run.span1, run.end);
  const lo = Math.max(from, a);
  const hi = Math.min(to, b);
  if (hi <= lo) return;
  const n = hi - lo;
  const length = channels[0]!.length;
  const [wsum, ...acc] = zeroedScratch(channels.length + 1, n);
  const { at, grain, reach } = plan;
  const { marks, periods } = run;
  // The first synthesis mark whose grain can reach `lo` (marks are in order).
  let g0 = 0;
  let g1 = at.length;
  while (g0 < g1) {
    const mid = (g0 + g1) >> 1;
    if (at[mid]! + reach <= lo) g0 = mid + 1;
    else g1 = mid;
  }
  for (let g = g0; g < at.length && at[g]! - reach < hi; g++) {
    const k = grain[g]!;
    const m = marks[k]!;
    const p = periods[k]!;
    const t = at[g]!;
    const j0 = Math.max(-p + 1, lo - t);
    const j1 = Math.min(p, hi - t);
    for (let j = j0; j < j1; j++) {
      const src = m + j;
      if (src < 0 || src >= length) continue;
      const dst = t + j - lo;
      const w = 0.5 + 0.5 * Math.cos((Math.PI * j) / p);
      for (let c = 0; c < channels.length; c++) acc[c]![dst]! += w * channels[c]![src]!;
      wsum[dst]! += w;
    }
  }
  for (let i = lo; i < hi; i++) {
    const ws = wsum[i - lo]!;
    if (ws < 0.25) continue;
    const edge = Math.min(i - a, b - 1 - i);
    const g = edge >= fade ? 1 : 0.5 - 0.5 * Math.cos((Math.PI * edge) / fade);
    for (let c = 0; c < channels.length; c++) {
      const dry = channels[c]![i]!;
      out[c]![i] = dry + g * (acc[c]![i - lo]! / ws - dry);
    }
  }
};

/**
 * Shift each voiced run of `channels` by the per-frame `ratio` (output period = input period / ratio), with
 * the marks found on `mono`. Returns fresh channels; unvoiced samples are copied bit for bit.
 */
export const psolaShift = (
  channels: readonly Float32Array[],
  mono: Float32Array,
  track: PitchTrack,
  ratio: Float32Array,
  onRun?: (done: number, total: number) => void,
  runs: readonly PsolaRun[] = psolaRuns(mono, track),
): Float32Array[] => {
  const out = channels.map((c) => Float32Array.from(c));
  const fade = edgeFadeSamples(track.sampleRate);
  for (const [r, run] of runs.entries()) {
    onRun?.(r, runs.length);
    const plan = planGrains(run, ratio, track.hop);
    if (plan) renderRunSpan(channels, run, plan, fade, out, run.start, run.end);
  }
  onRun?.(runs.length, runs.length);
  return out;
};
