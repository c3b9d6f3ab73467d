/**
 * Deterministic test material generated in the page: no fixtures on disk. "Music-like" means a few detuned
 * partials with a slow envelope and a little noise, different per side, so codecs and mixes see real content.
 */
export const musicLike = (
  seconds: number,
  sampleRate: number,
  channels: number,
  seed = 1,
): Float32Array[] => {
  const n = Math.round(seconds * sampleRate);
  let state = seed >>> 0 || 1;
  const noise = () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 4294967296 - 0.5;
  };
  return Array.from({ length: channels }, (_, c) => {
    const out = new Float32Array(n);
    const base = 110 * (1 + c * 0.01);
    for (let i = 0; i < n; i++) {
      const t = i / sampleRate;
      const env = 0.6 + 0.4 * Math.sin(2 * Math.PI * 0.5 * t);
      out[i] =
        env *
          (0.3 * Math.sin(2 * Math.PI * base * t) +
            0.15 * Math.sin(2 * Math.PI * base * 2.01 * t) +
            0.08 * Math.sin(2 * Math.PI * base * 5.03 * t)) +
        0.02 * noise();
    }
    return out;
  });
};

/** A voice-like signal: a 180 Hz buzz with formant-ish partials, phrased on and off every few seconds. */
export const voiceLike = (seconds: number, sampleRate: number, seed = 7): Float32Array[] => {
  const n = Math.round(seconds * sampleRate);
  const out = new Float32Array(n);
  let state = seed >>> 0 || 1;
  for (let i = 0; i < n; i++) {
    const t = i / sampleRate;
    const phrase = Math.sin(Math.PI * ((t % 4) / 4)) ** 2;
    state = (state * 1664525 + 1013904223) >>> 0;
    const f0 = 180 * (1 + 0.03 * Math.sin(2 * Math.PI * 5 * t));
    let v = 0;
    for (let h = 1; h <= 12; h++) v += Math.sin(2 * Math.PI * f0 * h * t) / h ** (h > 3 && h < 8 ? 0.5 : 1.2);
    out[i] = 0.12 * phrase * v + 0.005 * (state / 4294967296 - 0.5);
  }
  return [out];
};

/** Every 16-bit value once, then pseudo-random values, as floats i/32768. */
export const int16Ramp = (frames: number, seed: number): Int16Array => {
  const out = new Int16Array(frames);
  let x = seed >>> 0;
  for (let i = 0; i < frames; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    out[i] = i < 65536 ? i - 32768 : (x >>> 16) - 32768;
  }
  return out;
};

/** Pseudo-random integers of `bits` bits with both extremes first (bit-exact round trips at 24 bits). */
export const intNoise = (frames: number, bits: 16 | 24, seed: number): Int32Array => {
  const out = new Int32Array(frames);
  let x = seed >>> 0;
  const shift = 32 - bits;
  for (let i = 0; i < frames; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    out[i] = (x | 0) >> shift;
  }
  out[0] = -(2 ** (bits - 1));
  if (frames > 1) out[1] = 2 ** (bits - 1) - 1;
  return out;
};
