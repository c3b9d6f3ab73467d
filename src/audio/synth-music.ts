/**
 * Generated music: oscillators, noise and plucked strings with a fixed seed, so what it makes is ours, small
 * and reproducible. The demo tracks (scripts/generate-demo-tracks.ts) and the test audio of the mastering
 * specs, tests and benchmarks are made here.
 */
export type DemoStyle = 'acoustic' | 'pop' | 'club';

const mulberry = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};

const midi = (note: number) => 440 * 2 ** ((note - 69) / 12);
/** C - Am - F - G, as MIDI roots; each chord is a major or minor triad. */
const PROGRESSION = [
  [60, 64, 67],
  [57, 60, 64],
  [53, 57, 60],
  [55, 59, 62],
];

interface Voice {
  /** Adds this voice into left/right from frame `start` on. */
  render(left: Float32Array, right: Float32Array, start: number, sampleRate: number): void;
}

const pluck = (freq: number, gain: number, pan: number, rand: () => number): Voice => ({
  render(l, r, start, sr) {
    const period = Math.max(2, Math.round(sr / freq));
    const line = Float32Array.from({ length: period }, () => rand() * 2 - 1);
    const n = Math.min(l.length - start, sr * 2);
    let prev = 0;
    for (let i = 0; i < n; i++) {
      const k = i % period;
      const v = line[k]!;
      line[k] = 0.996 * 0.5 * (v + prev);
      prev = v;
      l[start + i]! += v * gain * (1 - pan);
      r[start + i]! += v * gain * (1 + pan);
    }
  },
});

const tone = (
  freq: number,
  seconds: number,
  gain: number,
  shape: 'sine' | 'saw',
  decay: number,
  pan = 0,
  sweep = 0,
): Voice => ({
  render(l, r, start, sr) {
    const n = Math.min(l.length - start, Math.round(seconds * sr));
    let phase = 0;
    for (let i = 0; i < n; i++) {
      const t = i / sr;
      const f = freq * (1 + sweep * Math.exp(-t * 30));
      phase += f / sr;
      const p = phase - Math.floor(phase);
      const wave = shape === 'sine' ? Math.sin(2 * Math.PI * p) : 2 * p - 1;
      const env = Math.exp(-t * decay) * Math.min(1, t * 200);
      const v = wave * env * gain;
      l[start + i]! += v * (1 - pan);
      r[start + i]! += v * (1 + pan);
    }
  },
});

const noise = (seconds: number, gain: number, decay: number, bright: boolean, rand: () => number): Voice => ({
  render(l, r, start, sr) {
    const n = Math.min(l.length - start, Math.round(seconds * sr));
    let last = 0;
    for (let i = 0; i < n; i++) {
      const w = rand() * 2 - 1;
      const v = (bright ? w - last : w) * Math.exp((-i / sr) * decay) * gain;
      last = w;
      l[start + i]! += v;
      r[start + i]! += v * 0.9;
    }
  },
});

/** A stereo track of `seconds` in the given style, peak-normalised to `peakDb` (quiet: room to master). */
export const synthTrack = (
  style: DemoStyle,
  seconds: number,
  sampleRate = 44_100,
  peakDb = -8,
): Float32Array[] => {
  const frames = Math.round(seconds * sampleRate);
  const left = new Float32Array(frames);
  const right = new Float32Array(frames);
  const rand = mulberry(style === 'acoustic' ? 7 : style === 'pop' ? 11 : 13);
  const bpm = style === 'acoustic' ? 90 : style === 'pop' ? 100 : 124;
  const beat = Math.round((60 / bpm) * sampleRate);
  for (let b = 0; b * beat < frames; b++) {
    const at = b * beat;
    const chord = PROGRESSION[Math.floor(b / 4) % 4]!;
    const voices: Voice[] = [];
    if (style === 'acoustic') {
      // Arpeggiated plucks with a soft accent on each bar, and a quieter second phrase for dynamics.
      const level = Math.floor(b / 16) % 2 === 0 ? 0.35 : 0.18;
      for (const [i, note] of chord.entries()) {
        const v = pluck(midi(note + (b % 2 ? 12 : 0)), level * (b % 4 === 0 ? 1 : 0.7), (i - 1) * 0.4, rand);
        v.render(left, right, Math.min(frames - 1, at + Math.round((i * beat) / 3)), sampleRate);
      }
      if (b % 4 === 0) pluck(midi(chord[0]! - 12), 0.4, 0, rand).render(left, right, at, sampleRate);
      continue;
    }
    voices.push(tone(style === 'club' ? 50 : 55, 0.35, 0.9, 'sine', 9, 0, 2.5)); // kick
    if (style === 'pop' && b % 2 === 1)
      voices.push(noise(0.2, 0.35, 18, false, rand), tone(190, 0.1, 0.3, 'sine', 25));
    if (style === 'club' && b % 2 === 1) voices.push(noise(0.15, 0.3, 22, false, rand));
    const bass = tone(
      midi(chord[0]! - 24),
      (beat / sampleRate) * 0.9,
      style === 'club' ? 0.5 : 0.35,
      style === 'club' ? 'sine' : 'saw',
      2,
    );
    voices.push(bass);
    if (b % 4 === 0) {
      for (const [i, note] of chord.entries()) {
        voices.push(tone(midi(note), (4 * beat) / sampleRate, 0.09, 'saw', 0.6, (i - 1) * 0.5));
      }
    }
    for (const v of voices) v.render(left, right, at, sampleRate);
    // Off-beat hi-hats.
    const half = at + Math.round(beat / 2);
    if (half < frames)
      noise(0.05, style === 'club' ? 0.22 : 0.14, 60, true, rand).render(left, right, half, sampleRate);
  }
  let peak = 0;
  for (const ch of [left, right]) for (const v of ch) peak = Math.max(peak, Math.abs(v));
  const g = peak > 0 ? 10 ** (peakDb / 20) / peak : 1;
  for (const ch of [left, right]) for (let i = 0; i < frames; i++) ch[i]! *= g;
  return [left, right];
};
