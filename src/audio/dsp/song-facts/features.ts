/**
 * The spectral features the song-facts analysis reads (decision 190): the beat mixed to mono and decimated to
 * about 11 kHz (tempo and key live below 5 kHz), then
 * - onset strength envelopes from a 512-point STFT (46 ms window, 11.6 ms hop): log-compressed spectral flux,
 *   in a low band (kick and bass, < 150 Hz), a mid band (snare body and chords, 150 Hz–2 kHz) and a high
 *   band (hats, snare noise);
 * - chroma from a 4096-point STFT (2.7 Hz bins, 186 ms hop): all notes 55 Hz–1 kHz and the bass alone
 *   (40–200 Hz), tuned to the beat's own reference pitch.
 */
import { fft } from '../band-levels';

export interface MonoSignal {
  samples: Float32Array;
  sampleRate: number;
}

/** Mono mix decimated by an integer factor to ≈ 11 kHz, after a 4-tap then 2-tap box smoothing. */
export const decimateMono = (channels: readonly Float32Array[], sampleRate: number): MonoSignal => {
  const factor = Math.max(1, Math.floor(sampleRate / 11025));
  const length = channels[0]?.length ?? 0;
  const outLength = Math.floor(length / factor);
  const out = new Float32Array(outLength);
  const gain = 1 / (channels.length * factor);
  let previous = 0;
  const count = channels.length;
  const [left, right] = channels as [Float32Array, Float32Array];
  // Stereo at 44.1 or 48 kHz (factor 4), the usual case, unrolled: the same additions in the same order.
  const stereo4 = count === 2 && factor === 4;
  for (let o = 0; o < outLength; o++) {
    let sum = 0;
    const start = o * factor;
    if (stereo4) {
      sum += left[start]!;
      sum += left[start + 1]!;
      sum += left[start + 2]!;
      sum += left[start + 3]!;
      sum += right[start]!;
      sum += right[start + 1]!;
      sum += right[start + 2]!;
      sum += right[start + 3]!;
    } else
      for (let c = 0; c < count; c++) {
        const ch = channels[c]!;
        for (let k = 0; k < factor; k++) sum += ch[start + k]!;
      }
    const value = sum * gain;
    // A second box (two taps) deepens the first one's sidelobes where the decimation folds hats down.
    out[o] = 0.5 * (value + previous);
    previous = value;
  }
  return { samples: out, sampleRate: sampleRate / factor };
};

export interface OnsetEnvelopes {
  /** Frames per second. */
  frameRate: number;
  /** Seconds from a frame's start to its window's centre, where an onset shows in the flux. */
  offsetSeconds: number;
  all: Float32Array;
  low: Float32Array;
  mid: Float32Array;
  high: Float32Array;
}

const hann = (n: number): Float64Array => {
  const w = new Float64Array(n);
  for (let i = 0; i < n; i++) w[i] = 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / n);
  return w;
};

export const ONSET_FFT = 512;
export const ONSET_HOP = 128;

/** Subtracts a centred moving average (about 0.4 s) and keeps what is above it: onsets, not loudness. */
const detrend = (x: Float32Array, radius: number): Float32Array => {
  const out = new Float32Array(x.length);
  const prefix = new Float64Array(x.length + 1);
  for (let i = 0; i < x.length; i++) prefix[i + 1] = prefix[i]! + x[i]!;
  for (let i = 0; i < x.length; i++) {
    const a = Math.max(0, i - radius);
    const b = Math.min(x.length, i + radius + 1);
    const mean = (prefix[b]! - prefix[a]!) / (b - a);
    out[i] = Math.max(0, x[i]! - mean);
  }
  return out;
};

export const onsetEnvelopes = async (
  signal: MonoSignal,
  onFrame: (fraction: number) => Promise<void> = async () => {},
): Promise<OnsetEnvelopes> => {
  const { samples, sampleRate } = signal;
  const frames = Math.max(0, Math.floor((samples.length - ONSET_FFT) / ONSET_HOP) + 1);
  const bins = ONSET_FFT / 2;
  const binHz = sampleRate / ONSET_FFT;
  const lowTop = Math.round(150 / binHz);
  const midTop = Math.round(2000 / binHz);
  const window = hann(ONSET_FFT);
  const re = new Float64Array(ONSET_FFT);
  const im = new Float64Array(ONSET_FFT);
  let previous = new Float64Array(bins);
  let current = new Float64Array(bins);
  const low = new Float32Array(frames);
  const mid = new Float32Array(frames);
  const high = new Float32Array(frames);
  // Two real frames per complex FFT (frame f real, f + 1 imaginary), separated by conjugate symmetry.
  const magA = new Float64Array(bins);
  const magB = new Float64Array(bins);
  const flux = (mag: Float64Array, f: number) => {
    let l = 0;
    let m = 0;
    let h = 0;
    for (let k = 1; k < bins; k++) {
      // log(1 + γ|X|): flux on a compressed scale, so quiet hats count next to a loud kick.
      const v = Math.log1p(1000 * mag[k]!);
      current[k] = v;
      const rise = f === 0 ? 0 : Math.max(0, v - previous[k]!);
      if (k <= lowTop) l += rise;
      else if (k <= midTop) m += rise;
      else h += rise;
    }
    low[f] = l;
    mid[f] = m / 4;
    high[f] = h / 8;
    [previous, current] = [current, previous];
  };
  for (let f = 0; f < frames; f += 2) {
    const a = f * ONSET_HOP;
    const b = (f + 1) * ONSET_HOP;
    const second = f + 1 < frames;
    for (let i = 0; i < ONSET_FFT; i++) {
      re[i] = samples[a + i]! * window[i]!;
      im[i] = second ? samples[b + i]! * window[i]! : 0;
    }
    fft(re, im);
    for (let k = 1; k < bins; k++) {
      const rk = re[k]!;
      const ik = im[k]!;
      const rn = re[ONSET_FFT - k]!;
      const iN = im[ONSET_FFT - k]!;
      magA[k] = 0.5 * Math.sqrt((rk + rn) * (rk + rn) + (ik - iN) * (ik - iN));
      magB[k] = 0.5 * Math.sqrt((rk - rn) * (rk - rn) + (ik + iN) * (ik + iN));
    }
    flux(magA, f);
    if (second) flux(magB, f + 1);
    if ((f & 1022) === 1022) await onFrame(f / frames);
  }
  const frameRate = sampleRate / ONSET_HOP;
  const radius = Math.round(0.2 * frameRate);
  const dl = detrend(low, radius);
  const dm = detrend(mid, radius);
  const dh = detrend(high, radius);
  const all = new Float32Array(frames);
  for (let i = 0; i < frames; i++) all[i] = dl[i]! + dm[i]! + dh[i]!;
  return { frameRate, offsetSeconds: ONSET_FFT / 2 / sampleRate, all, low: dl, mid: dm, high: dh };
};

export const CHROMA_FFT = 4096;
export const CHROMA_HOP = 2048;

export interface Chromagram {
  /** Seconds between frames. */
  hopSeconds: number;
  /** 12 values per frame (pitch class 0 = C), each frame's notes 55 Hz–1 kHz. */
  notes: Float32Array;
  /** The same for the bass, 40–200 Hz. */
  bass: Float32Array;
  frames: number;
  /** Reference tuning found, in cents off A = 440 Hz. */
  tuningCents: number;
}

const HARMONICS = [12, 19, 24, 28];
const HARMONIC_GAIN = [0.8, 0.6, 0.45, 0.35];
/** Chords sit below 1 kHz; above it a chroma mostly counts the harmonics of lower notes. */
const NOTES_TOP_HZ = 1000;

/** Pitch (MIDI number, fractional) of a frequency. */
const midiOf = (hz: number): number => 69 + 12 * Math.log2(hz / 440);

export const chromagram = async (
  signal: MonoSignal,
  onFrame: (fraction: number) => Promise<void> = async () => {},
): Promise<Chromagram> => {
  const { samples, sampleRate } = signal;
  const frames = Math.max(0, Math.floor((samples.length - CHROMA_FFT) / CHROMA_HOP) + 1);
  const bins = CHROMA_FFT / 2;
  const binHz = sampleRate / CHROMA_FFT;
  const window = hann(CHROMA_FFT);
  const re = new Float64Array(CHROMA_FFT);
  const im = new Float64Array(CHROMA_FFT);
  const kLow = Math.ceil(40 / binHz);
  const kHigh = Math.min(bins - 2, Math.floor(NOTES_TOP_HZ / binHz));
  const mags = new Float32Array(frames * (kHigh + 2));
  const stride = kHigh + 2;
  // Tuning: the magnitude-weighted circular mean of spectral peaks' distance to the nearest semitone.
  let tuneRe = 0;
  let tuneIm = 0;
  // Two real frames per complex FFT, as for the onsets.
  for (let f = 0; f < frames; f += 2) {
    const second = f + 1 < frames;
    for (let i = 0; i < CHROMA_FFT; i++) {
      re[i] = samples[f * CHROMA_HOP + i]! * window[i]!;
      im[i] = second ? samples[(f + 1) * CHROMA_HOP + i]! * window[i]! : 0;
    }
    fft(re, im);
    for (let k = kLow - 1; k <= kHigh + 1; k++) {
      const rk = re[k]!;
      const ik = im[k]!;
      const rn = re[CHROMA_FFT - k]!;
      const iN = im[CHROMA_FFT - k]!;
      mags[f * stride + k] = 0.5 * Math.sqrt((rk + rn) * (rk + rn) + (ik - iN) * (ik - iN));
      if (second) mags[(f + 1) * stride + k] = 0.5 * Math.sqrt((rk - rn) * (rk - rn) + (ik + iN) * (ik + iN));
    }
    if ((f & 126) === 126) await onFrame(f / frames);
  }
  for (let f = 0; f < frames; f++) {
    for (let k = kLow; k <= kHigh; k++) {
      const m = mags[f * stride + k]!;
      if (m <= mags[f * stride + k - 1]! || m < mags[f * stride + k + 1]! || m === 0) continue;
      // Parabolic interpolation of the peak on log magnitude.
      const a = Math.log(mags[f * stride + k - 1]! + 1e-12);
      const b = Math.log(m);
      const c = Math.log(mags[f * stride + k + 1]! + 1e-12);
      const delta = (0.5 * (a - c)) / (a - 2 * b + c || 1);
      const hz = (k + delta) * binHz;
      if (hz < 80) continue;
      const frac = midiOf(hz) - Math.round(midiOf(hz));
      tuneRe += m * Math.cos(2 * Math.PI * frac);
      tuneIm += m * Math.sin(2 * Math.PI * frac);
    }
  }
  const tuning = Math.atan2(tuneIm, tuneRe) / (2 * Math.PI);
  const notes = new Float32Array(frames * 12);
  const bass = new Float32Array(frames * 12);
  // Each bin goes to its semitone with a weight falling to zero half a semitone away.
  const weightOf = new Float32Array(kHigh + 1);
  for (let k = kLow; k <= kHigh; k++) {
    const pitch = midiOf(k * binHz) - tuning;
    weightOf[k] = Math.max(0, 1 - 2 * Math.abs(pitch - Math.round(pitch))) ** 2;
  }
  const semitoneOf = new Int16Array(kHigh + 1);
  for (let k = kLow; k <= kHigh; k++) semitoneOf[k] = Math.round(midiOf(k * binHz) - tuning);
  const lowest = semitoneOf[kLow]!;
  const semis = new Float64Array(semitoneOf[kHigh]! - lowest + 1);
  for (let f = 0; f < frames; f++) {
    semis.fill(0);
    for (let k = kLow; k <= kHigh; k++)
      semis[semitoneOf[k]! - lowest] += mags[f * stride + k]! * weightOf[k]!;
    // Take away what the 2nd–5th harmonics of the lower notes put here (12, 19, 24, 28 semitones up), lowest
    // note first, so a G's D and B do not pull the key a fifth up.
    for (let m = 0; m < semis.length; m++) {
      let expected = 0;
      for (let h = 0; h < HARMONICS.length; h++) {
        const below = m - HARMONICS[h]!;
        if (below >= 0) expected += HARMONIC_GAIN[h]! * semis[below]!;
      }
      semis[m] = Math.max(0, semis[m]! - expected);
    }
    for (let m = 0; m < semis.length; m++) {
      const midi = m + lowest;
      const pc = ((midi % 12) + 12) % 12;
      const hz = 440 * 2 ** ((midi - 69) / 12);
      if (hz >= 55) notes[f * 12 + pc] += semis[m]!;
      if (hz <= 200) bass[f * 12 + pc] += semis[m]!;
    }
  }
  return { hopSeconds: CHROMA_HOP / sampleRate, notes, bass, frames, tuningCents: tuning * 100 };
};
