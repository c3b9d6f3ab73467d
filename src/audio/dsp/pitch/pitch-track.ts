/**
 * Pitch tracking of a vocal (decision 200): YIN's cumulative mean normalised difference on a ~11 kHz copy
 * gives a few period candidates per 10 ms frame; a Viterbi pass over candidates plus an "unvoiced" state
 * picks the smoothest path (octave jumps and voiced/unvoiced flips cost); the chosen period is refined on
 * the full-rate signal. Breaths and sibilance have no deep dip in the difference function, so they stay
 * unvoiced, and quiet frames are unvoiced outright.
 */

export const PITCH_HOP_SECONDS = 0.01;
export const MIN_F0 = 65;
export const MAX_F0 = 1100;
/** Candidates whose normalised difference is above this are not periodic enough to be a voice. */
const CANDIDATE_MAX = 0.45;
const MAX_CANDIDATES = 4;
const UNVOICED_COST = 0.32;
const VOICING_SWITCH_COST = 0.12;
const COST_PER_SEMITONE = 0.018;
/** Frames this far (dB) under the loudest frame are silence or room noise. */
const SILENCE_DB = -45;
/** Voiced runs shorter than this many frames are dropped (clicks, consonant onsets). */
const MIN_RUN_FRAMES = 4;

export interface PitchTrack {
  sampleRate: number;
  /** Samples between frames; frame i is centred at sample i * hop. */
  hop: number;
  /** Fundamental in Hz per frame; 0 where unvoiced. */
  f0: Float32Array;
  /** 0..1 periodicity of the chosen candidate (1 - normalised difference); 0 where unvoiced. */
  clarity: Float32Array;
}

export interface TrackOptions {
  signal?: AbortSignal;
  onProgress?: (fraction: number) => void;
  /** Called every few milliseconds of the frame loop: a worker's pause gate (pause-gate.ts) holds there. */
  checkpoint?: () => void;
}

/** Frames between two checkpoints: a few milliseconds of the difference function's work. */
const CHECKPOINT_FRAMES = 32;

/** Mono mix of a source's channels (the mid), a fresh array. */
export const monoOf = (channels: readonly Float32Array[]): Float32Array => {
  const first = channels[0]!;
  if (channels.length === 1) return first;
  const out = new Float32Array(first.length);
  const g = 1 / channels.length;
  for (const ch of channels) for (let i = 0; i < out.length; i++) out[i]! += ch[i]! * g;
  return out;
};

/** Samples of the decimating filter between two checkpoints: a few milliseconds of its loop. */
const CHECKPOINT_SAMPLES = 1 << 16;

/** Decimate by `factor` after a 4th-order low-pass (two cascaded RBJ sections) at 0.42 of the new Nyquist. */
const decimate = (x: Float32Array, factor: number, checkpoint?: () => void): Float32Array => {
  if (factor <= 1) return x;
  const w = (Math.PI * 0.84) / factor;
  const q = [0.5412, 1.3066];
  let y = Float64Array.from(x);
  for (const Q of q) {
    const alpha = Math.sin(w) / (2 * Q);
    const cw = Math.cos(w);
    const a0 = 1 + alpha;
    const b0 = (1 - cw) / 2 / a0;
    const b1 = (1 - cw) / a0;
    const a1 = (-2 * cw) / a0;
    const a2 = (1 - alpha) / a0;
    let x1 = 0;
    let x2 = 0;
    let y1 = 0;
    let y2 = 0;
    const out = new Float64Array(y.length);
    for (let i = 0; i < y.length; i++) {
      if ((i & (CHECKPOINT_SAMPLES - 1)) === CHECKPOINT_SAMPLES - 1) checkpoint?.();
      const v = y[i]!;
      const o = b0 * v + b1 * x1 + b0 * x2 - a1 * y1 - a2 * y2;
      out[i] = o;
      x2 = x1;
      x1 = v;
      y2 = y1;
      y1 = o;
    }
    y = out;
  }
  const n = Math.floor(x.length / factor);
  const d = new Float32Array(n);
  for (let i = 0; i < n; i++) d[i] = y[i * factor]!;
  return d;
};

interface Candidate {
  tau: number;
  cost: number;
}

/** YIN's normalised difference of frame at `start` for lags 1..tauMax into `cmnd`; returns the frame energy. */
const differenceFrame = (
  x: Float32Array,
  start: number,
  w: number,
  tauMax: number,
  cmnd: Float64Array,
): number => {
  let energy = 0;
  for (let j = 0; j < w; j++) energy += x[start + j]! * x[start + j]!;
  // e2 slides with the lag: the energy of x[start + tau .. start + tau + w).
  let e2 = energy;
  let running = 0;
  cmnd[0] = 1;
  for (let tau = 1; tau <= tauMax; tau++) {
    const a = x[start + tau - 1]!;
    const b = x[start + tau + w - 1]!;
    e2 += b * b - a * a;
    let r = 0;
    for (let j = 0; j < w; j++) r += x[start + j]! * x[start + j + tau]!;
    const d = Math.max(0, energy + e2 - 2 * r);
    running += d;
    cmnd[tau] = running > 0 ? (d * tau) / running : 1;
  }
  return energy / w;
};

/** Squared difference of the full-rate signal at a fractional-free lag, for the refinement. */
const fullRateDifference = (x: Float32Array, start: number, w: number, tau: number): number => {
  let d = 0;
  for (let j = 0; j < w; j++) {
    const v = x[start + j]! - x[start + j + tau]!;
    d += v * v;
  }
  return d;
};

const parabolicOffset = (a: number, b: number, c: number): number => {
  const den = a - 2 * b + c;
  return den > 0 ? Math.max(-0.5, Math.min(0.5, (0.5 * (a - c)) / den)) : 0;
};

/** Track the pitch of a mono signal. Runs in blocks of frames so a worker can report progress and cancel. */
export const trackPitch = async (
  x: Float32Array,
  sampleRate: number,
  options: TrackOptions = {},
): Promise<PitchTrack> => {
  const factor = Math.max(1, Math.round(sampleRate / 11_025));
  const ds = decimate(x, factor, options.checkpoint);
  const dsRate = sampleRate / factor;
  const hop = Math.round(PITCH_HOP_SECONDS * sampleRate);
  const frames = Math.floor(x.length / hop) + 1;
  const tauMin = Math.max(2, Math.floor(dsRate / MAX_F0));
  const tauMax = Math.ceil(dsRate / MIN_F0);
  const w = tauMax + 4;
  const cmnd = new Float64Array(tauMax + 1);
  const candidates: Candidate[][] = new Array(frames);
  const power = new Float64Array(frames);
  let maxPower = 0;
  const block = 256;
  for (let f = 0; f < frames; f++) {
    const centre = Math.round((f * hop) / factor);
    const start = centre - (w >> 1);
    const list: Candidate[] = [];
    if (start >= 0 && start + w + tauMax < ds.length) {
      power[f] = differenceFrame(ds, start, w, tauMax, cmnd);
      let firstUnder = -1;
      for (let tau = tauMin; tau < tauMax; tau++) {
        const v = cmnd[tau]!;
        if (v < CANDIDATE_MAX && v <= cmnd[tau - 1]! && v < cmnd[tau + 1]!) {
          // YIN's first dip under its threshold is the period more often than a deeper dip at a multiple.
          const bonus = firstUnder < 0 && v < 0.2 ? -0.05 : 0;
          if (bonus) firstUnder = tau;
          list.push({ tau: tau + parabolicOffset(cmnd[tau - 1]!, v, cmnd[tau + 1]!), cost: v + bonus });
        }
      }
      list.sort((a, b) => a.cost - b.cost);
      list.length = Math.min(list.length, MAX_CANDIDATES);
    }
    if (power[f]! > maxPower) maxPower = power[f]!;
    candidates[f] = list;
    if (f % CHECKPOINT_FRAMES === CHECKPOINT_FRAMES - 1) options.checkpoint?.();
    if (f % (block * 8) === block * 8 - 1) {
      options.onProgress?.((0.9 * f) / frames);
      await Promise.resolve();
      options.signal?.throwIfAborted();
    }
  }
  const floor = maxPower * 10 ** (SILENCE_DB / 10);
  for (let f = 0; f < frames; f++) if (power[f]! < floor) candidates[f] = [];

  const path = viterbi(candidates);
  const f0 = new Float32Array(frames);
  const clarity = new Float32Array(frames);
  const wf = w * factor;
  for (let f = 0; f < frames; f++) {
    const c = path[f];
    if (!c) continue;
    // Refine on the full-rate signal around the decimated lag.
    const centre = f * hop;
    const start = centre - (wf >> 1);
    const guess = Math.round(c.tau * factor);
    const lo = guess - factor - 1;
    const hi = guess + factor + 1;
    let tau = c.tau * factor;
    if (start >= 0 && start + wf + hi + 1 < x.length && lo > 1) {
      let best = lo;
      let bestD = Number.POSITIVE_INFINITY;
      const ds3: number[] = [];
      for (let t = lo - 1; t <= hi + 1; t++) ds3.push(fullRateDifference(x, start, wf, t));
      for (let t = lo; t <= hi; t++) {
        const d = ds3[t - lo + 1]!;
        if (d < bestD) {
          bestD = d;
          best = t;
        }
      }
      const i = best - lo + 1;
      tau = best + parabolicOffset(ds3[i - 1]!, ds3[i]!, ds3[i + 1]!);
    }
    f0[f] = sampleRate / tau;
    clarity[f] = Math.max(0, 1 - c.cost);
  }
  dropShortRuns(f0, clarity);
  options.onProgress?.(1);
  return { sampleRate, hop, f0, clarity };
};

/** Smoothest path through the candidates: index into each frame's list, or null for unvoiced. */
const viterbi = (candidates: Candidate[][]): (Candidate | null)[] => {
  const frames = candidates.length;
  // State 0 = unvoiced, 1..k = candidate k-1.
  let prevCost: number[] = [0];
  let prevStates: (Candidate | null)[] = [null];
  const back: Int16Array[] = [];
  for (let f = 0; f < frames; f++) {
    const states: (Candidate | null)[] = [null, ...candidates[f]!];
    const cost = new Array<number>(states.length);
    const from = new Int16Array(states.length);
    for (let s = 0; s < states.length; s++) {
      const cur = states[s]!;
      const emit = cur ? cur.cost : candidates[f]!.length ? UNVOICED_COST : 0;
      let best = Number.POSITIVE_INFINITY;
      let arg = 0;
      for (let p = 0; p < prevStates.length; p++) {
        const prev = prevStates[p]!;
        let t = 0;
        if (cur && prev) t = COST_PER_SEMITONE * Math.abs(12 * Math.log2(prev.tau / cur.tau));
        else if (cur !== prev) t = VOICING_SWITCH_COST;
        const c = prevCost[p]! + t;
        if (c < best) {
          best = c;
          arg = p;
        }
      }
      cost[s] = best + emit;
      from[s] = arg;
    }
    back.push(from);
    prevCost = cost;
    prevStates = states;
  }
  const path: (Candidate | null)[] = new Array(frames).fill(null);
  let s = prevCost.indexOf(Math.min(...prevCost));
  for (let f = frames - 1; f >= 0; f--) {
    path[f] = s === 0 ? null : candidates[f]![s - 1]!;
    s = back[f]![s]!;
  }
  return path;
};

const dropShortRuns = (f0: Float32Array, clarity: Float32Array): void => {
  let f = 0;
  while (f < f0.length) {
    if (f0[f] === 0) {
      f++;
      continue;
    }
    let end = f;
    while (end < f0.length && f0[end]! > 0) end++;
    if (end - f < MIN_RUN_FRAMES) for (let k = f; k < end; k++) f0[k] = clarity[k] = 0;
    f = end;
  }
};

export const hzToMidi = (hz: number): number => 69 + 12 * Math.log2(hz / 440);
export const midiToHz = (midi: number): number => 440 * 2 ** ((midi - 69) / 12);
