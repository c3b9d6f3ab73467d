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
): Float32Array[] => {
  const out = channels.map((c) => Float32Array.from(c));
  const length = mono.length;
  const runs = voicedRuns(track, length);
  const fade = Math.max(1, Math.round(EDGE_FADE_SECONDS * track.sampleRate));
  for (const [r, run] of runs.entries()) {
    onRun?.(r, runs.length);
    const marks = pitchMarks(mono, track, run);
    if (marks.length < 3) continue;
    let unity = true;
    for (let f = Math.floor(run.start / track.hop); f <= Math.ceil(run.end / track.hop); f++)
      if (ratio[f] !== undefined && ratio[f] !== 1) unity = false;
    if (unity) continue;
    const periods = marks.map((m, i) => (i + 1 < marks.length ? marks[i + 1]! - m : m - marks[i - 1]!));
    const span0 = Math.max(0, marks[0]! - periods[0]!);
    const span1 = Math.min(length, marks[marks.length - 1]! + periods[periods.length - 1]!);
    const spanLen = span1 - span0;
    const acc = channels.map(() => new Float64Array(spanLen));
    const wsum = new Float64Array(spanLen);
    // Synthesis marks run at the corrected period; each takes the grain of the nearest analysis mark.
    let t = marks[0]!;
    let k = 0;
    const last = marks[marks.length - 1]!;
    while (t <= last) {
      while (k + 1 < marks.length && Math.abs(marks[k + 1]! - t) <= Math.abs(marks[k]! - t)) k++;
      const m = marks[k]!;
      const p = periods[k]!;
      const shift = Math.round(t) - m;
      for (let j = -p + 1; j < p; j++) {
        const src = m + j;
        const dst = m + shift + j - span0;
        if (src < 0 || src >= length || dst < 0 || dst >= spanLen) continue;
        const w = 0.5 + 0.5 * Math.cos((Math.PI * j) / p);
        for (let c = 0; c < channels.length; c++) acc[c]![dst]! += w * channels[c]![src]!;
        wsum[dst]! += w;
      }
      const rho = atSample(ratio, track.hop, t);
      t += p / (rho > 0 ? rho : 1);
    }
    // Where the grains cover the run, blend from dry to shifted and back at its edges.
    const a = Math.max(span0, run.start);
    const b = Math.min(span1, run.end);
    for (let i = a; i < b; i++) {
      const ws = wsum[i - span0]!;
      if (ws < 0.25) continue;
      const edge = Math.min(i - a, b - 1 - i);
      const g = edge >= fade ? 1 : 0.5 - 0.5 * Math.cos((Math.PI * edge) / fade);
      for (let c = 0; c < channels.length; c++) {
        const dry = channels[c]![i]!;
        out[c]![i] = dry + g * (acc[c]![i - span0]! / ws - dry);
      }
    }
  }
  onRun?.(runs.length, runs.length);
  return out;
};
