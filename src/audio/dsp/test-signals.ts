/**
 * Deterministic signals for tests and benchmarks: sines at a level, and a "music-like" stereo track
 * (kick, snare, hats, bass, chords, with quieter verses and louder choruses) so that meters and the
 * mastering chain see realistic crest factors, spectra, stereo image and loudness range.
 * Not part of the engine's public face.
 */
import { fft } from './band-levels';

export const dbfs = (db: number): number => 10 ** (db / 20);

/** A sine of peak amplitude `amplitudeDb` dBFS in every channel. */
export const sine = (
  sampleRate: number,
  seconds: number,
  frequency: number,
  amplitudeDb: number,
  channels = 2,
  phase = 0,
): Float32Array[] => {
  const n = Math.round(sampleRate * seconds);
  const a = dbfs(amplitudeDb);
  const data = new Float32Array(n);
  const w = (2 * Math.PI * frequency) / sampleRate;
  for (let i = 0; i < n; i++) data[i] = a * Math.sin(w * i + phase);
  return Array.from({ length: channels }, (_, c) => (c === 0 ? data : data.slice()));
};

/** Concatenates segments of 1 kHz sine at the given levels and durations (EBU Tech 3341 style). */
export const sineSequence = (
  sampleRate: number,
  segments: readonly (readonly [levelDb: number, seconds: number])[],
  frequency = 1000,
): Float32Array[] => {
  const total = segments.reduce((n, [, s]) => n + Math.round(s * sampleRate), 0);
  const left = new Float32Array(total);
  const w = (2 * Math.PI * frequency) / sampleRate;
  let offset = 0;
  for (const [level, seconds] of segments) {
    const a = dbfs(level);
    const n = Math.round(seconds * sampleRate);
    // Keep the phase continuous across segments so level steps are the only change.
    for (let i = 0; i < n; i++) left[offset + i] = a * Math.sin(w * (offset + i));
    offset += n;
  }
  return [left, left.slice()];
};

/** xorshift32 in [0, 1). */
const rng = (seed: number) => {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s / 4294967296;
  };
};

const TABLE_SIZE = 4096;
const SINE = Float64Array.from({ length: TABLE_SIZE + 1 }, (_, i) =>
  Math.sin((2 * Math.PI * i) / TABLE_SIZE),
);
/** Table sine of a phase in cycles (any real). */
const tsin = (cycles: number): number => {
  const p = (cycles - Math.floor(cycles)) * TABLE_SIZE;
  const i = p | 0;
  const f = p - i;
  return SINE[i]! + (SINE[i + 1]! - SINE[i]!) * f;
};

export interface MusicOptions {
  seconds: number;
  sampleRate?: number;
  seed?: number;
  /** Overall level offset in dB (0 gives a mix near -19 LUFS with true peaks just under 0 dBTP). */
  gainDb?: number;
}

/**
 * A stereo track at 120 BPM: four-on-the-floor kick, snare on 2 and 4, off-beat hats (panned), a bass line,
 * three-note chords spread left/right, and an 8-bar verse/chorus alternation 6 dB apart.
 */
export const musicLike = ({
  seconds,
  sampleRate = 44100,
  seed = 1,
  gainDb = 0,
}: MusicOptions): Float32Array[] => {
  const n = Math.round(seconds * sampleRate);
  const left = new Float32Array(n);
  const right = new Float32Array(n);
  const random = rng(seed);
  const beat = Math.round((60 / 120) * sampleRate);
  const bar = beat * 4;
  // 0.45 puts the track near -19 LUFS with true peaks just under 0 dBTP: a typical unmastered mix.
  const gain = 0.45 * dbfs(gainDb);
  const roots = [55, 43.65, 49, 41.2]; // A1, F1, G1, E1: one per bar
  const chordRatios = [1, 1.189, 1.498]; // minor triad
  // One beat of each percussive sound, computed once (every beat is the same).
  const kickTable = new Float64Array(beat);
  const snareBody = new Float64Array(beat);
  const snareEnv = new Float64Array(beat);
  const hatEnv = new Float64Array(beat);
  const bassEnv = new Float64Array(beat);
  let kickPhase = 0;
  for (let t = 0; t < beat; t++) {
    const tb = t / sampleRate;
    kickPhase += (45 + 90 * Math.exp(-tb * 30)) / sampleRate;
    kickTable[t] = 0.9 * tsin(kickPhase) * Math.exp(-tb * 9);
    snareEnv[t] = Math.exp(-tb * 18);
    snareBody[t] = 0.2 * tsin(tb * 190) * snareEnv[t]!;
    hatEnv[t] = 0.12 * Math.exp(-tb * 60);
    bassEnv[t] = 0.35 * Math.exp(-((t % (beat >> 1)) / sampleRate) * 4);
  }
  const half = beat >> 1;
  let bassPhase = 0;
  const chordPhases = new Float64Array(6);
  let hatState = 0;
  let snareState = 0;
  for (let i = 0; i < n; i++) {
    const inBeat = i % beat;
    const beatIndex = (i / beat) | 0;
    const barIndex = (i / bar) | 0;
    const section = ((barIndex / 8) | 0) % 2 === 0 ? 0.5 : 1; // verse, chorus
    const root = roots[barIndex % 4]!;
    const noise = random() * 2 - 1;
    // Snare on beats 2 and 4: low-passed noise plus a 190 Hz body.
    snareState += 0.5 * (noise - snareState);
    const snare = beatIndex % 2 === 1 ? 0.45 * snareState * snareEnv[inBeat]! + snareBody[inBeat]! : 0;
    // Hats on off-beats: high-passed noise (difference of successive values).
    const hatNoise = noise - hatState;
    hatState = noise;
    const hat = hatNoise * hatEnv[(inBeat + half) % beat]!;
    // Bass: the root, a square-ish tone (fundamental + odd harmonics), plucked per eighth note.
    bassPhase += root / sampleRate;
    const bass =
      (tsin(bassPhase) + 0.3 * tsin(3 * bassPhase) + 0.15 * tsin(5 * bassPhase)) * bassEnv[inBeat]!;
    // Chords: the triad two octaves up, each note slightly detuned between left and right.
    let chordL = 0;
    let chordR = 0;
    for (let k = 0; k < 3; k++) {
      const f = root * 4 * chordRatios[k]!;
      const pl = chordPhases[2 * k]! + f / sampleRate;
      const pr = chordPhases[2 * k + 1]! + (f * 1.003) / sampleRate;
      chordPhases[2 * k] = pl;
      chordPhases[2 * k + 1] = pr;
      chordL += tsin(pl) + 0.4 * tsin(2 * pl);
      chordR += tsin(pr) + 0.4 * tsin(2 * pr);
    }
    const pad = 0.07 * section;
    const drums = kickTable[inBeat]! + snare;
    left[i] = gain * (section * (drums + bass) + pad * chordL + 0.7 * hat);
    right[i] = gain * (section * (drums + bass) + pad * chordR + 1.3 * hat);
  }
  return [left, right];
};

export interface ShapedNoiseOptions {
  sampleRate?: number;
  /** Length is 2^log2Frames frames (the shaping is one FFT over the whole signal). Default 2^20 (~24 s). */
  log2Frames?: number;
  seed?: number;
  /** Extra level in dB at a frequency, on top of pink noise (equal energy per octave). */
  shapeDb?: (hz: number) => number;
  /** 'mono': equal channels; 'wide': independent channels; 'antiphase-bass': right's content below 120 Hz inverted. */
  stereo?: 'mono' | 'wide' | 'antiphase-bass';
  /** RMS level of the result per channel, dBFS. Default -20. */
  rmsDb?: number;
}

/** One channel of shaped pink noise, built in the frequency domain (random phases, exact magnitudes). */
const shapedSpectrum = (
  n: number,
  sampleRate: number,
  random: () => number,
  shapeDb: (hz: number) => number,
) => {
  const re = new Float64Array(n);
  const im = new Float64Array(n);
  for (let k = 1; k < n / 2; k++) {
    const hz = (k * sampleRate) / n;
    // Pink: power per bin falls as 1/f, so the amplitude as 1/sqrt(f). Nothing below 20 Hz.
    const amp = hz < 20 ? 0 : 10 ** (shapeDb(hz) / 20) / Math.sqrt(hz);
    const phase = 2 * Math.PI * random();
    re[k] = amp * Math.cos(phase);
    im[k] = amp * Math.sin(phase);
    re[n - k] = re[k]!;
    im[n - k] = -im[k]!;
  }
  return { re, im };
};

/** Pink noise with an optional spectral shape and stereo image: signals with a known long-term spectrum. */
export const shapedNoise = ({
  sampleRate = 44100,
  log2Frames = 20,
  seed = 7,
  shapeDb = () => 0,
  stereo = 'wide',
  rmsDb = -20,
}: ShapedNoiseOptions = {}): Float32Array[] => {
  const n = 2 ** log2Frames;
  const random = rng(seed);
  const toSignal = (spectrum: { re: Float64Array; im: Float64Array }) => {
    // Inverse FFT by conjugation: ifft(X) = conj(fft(conj(X))) / n; the result is real.
    const { re, im } = spectrum;
    for (let k = 0; k < n; k++) im[k] = -im[k]!;
    fft(re, im);
    let sum = 0;
    for (let k = 0; k < n; k++) sum += re[k]! * re[k]!;
    const scale = dbfs(rmsDb) / Math.sqrt(sum / n);
    return Float32Array.from(re, (v) => v * scale);
  };
  const left = shapedSpectrum(n, sampleRate, random, shapeDb);
  if (stereo === 'mono') {
    const l = toSignal(left);
    return [l, l.slice()];
  }
  if (stereo === 'antiphase-bass') {
    const right = { re: left.re.slice(), im: left.im.slice() };
    for (let k = 1; k < n; k++) {
      const hz = (Math.min(k, n - k) * sampleRate) / n;
      if (hz < 120) {
        right.re[k] = -right.re[k]!;
        right.im[k] = -right.im[k]!;
      }
    }
    return [toSignal(left), toSignal(right)];
  }
  return [toSignal(left), toSignal(shapedSpectrum(n, sampleRate, random, shapeDb))];
};
