import { describe, expect, it } from 'vitest';
import { DEFAULT_PITCH_SETTINGS } from '../../../shared/pitch-settings';
import { correctPitch } from './correct-pitch';
import { hzToMidi, type PitchTrack, trackPitch } from './pitch-track';
import { psolaShift } from './psola';

const medianMidi = (track: PitchTrack): number => {
  const voiced = Array.from(track.f0.slice(30, -30))
    .filter((v) => v > 0)
    .sort((p, q) => p - q);
  return hzToMidi(voiced[voiced.length >> 1]!);
};

const SR = 44_100;

/**
 * A vowel-like source: a glottal pulse train at f0 through two formant resonators (700 Hz and 1200 Hz, an
 * /a/), so the spectral envelope does not move with the pitch.
 */
const vowel = (f0: number, seconds: number): Float32Array => {
  const n = Math.round(seconds * SR);
  const src = new Float32Array(n);
  let phase = 0;
  for (let i = 0; i < n; i++) {
    phase += f0 / SR;
    if (phase >= 1) {
      phase -= 1;
      src[i] = 1;
    }
  }
  let y = Float64Array.from(src);
  for (const [fc, bw] of [
    [700, 90],
    [1200, 110],
  ] as const) {
    const r = Math.exp((-Math.PI * bw) / SR);
    const a1 = -2 * r * Math.cos((2 * Math.PI * fc) / SR);
    const a2 = r * r;
    const out = new Float64Array(n);
    for (let i = 0; i < n; i++) out[i] = y[i]! - a1 * (out[i - 1] ?? 0) - a2 * (out[i - 2] ?? 0);
    y = out;
  }
  let peak = 0;
  for (const v of y) peak = Math.max(peak, Math.abs(v));
  return Float32Array.from(y, (v) => (0.5 * v) / peak);
};

/** The two strongest peaks of the LPC envelope (order 12 on a 11 kHz copy) of the middle of a signal. */
const formants = (x: Float32Array): [number, number] => {
  const factor = 4;
  const rate = SR / factor;
  const mid = Math.floor(x.length / 2);
  const frame: number[] = [];
  for (let i = 0; i < 2048; i++) {
    let acc = 0;
    for (let k = 0; k < factor; k++) acc += x[mid + i * factor + k]!;
    const w = 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / 2047);
    frame.push((acc / factor) * w);
  }
  const order = 12;
  const r = Array.from({ length: order + 1 }, (_, lag) => {
    let s = 0;
    for (let i = lag; i < frame.length; i++) s += frame[i]! * frame[i - lag]!;
    return s;
  });
  // Levinson-Durbin.
  let a = [1];
  let err = r[0]!;
  for (let i = 1; i <= order; i++) {
    let acc = r[i]!;
    for (let j = 1; j < i; j++) acc += a[j]! * r[i - j]!;
    const k = -acc / err;
    const next = [...a, 0];
    for (let j = 1; j <= i; j++) next[j] = (a[j] ?? 0) + k * (a[i - j] ?? 0);
    a = next;
    err *= 1 - k * k;
  }
  const env: number[] = [];
  for (let hz = 0; hz <= 4000; hz += 5) {
    let re = 0;
    let im = 0;
    for (let j = 0; j <= order; j++) {
      re += a[j]! * Math.cos((2 * Math.PI * hz * j) / rate);
      im -= a[j]! * Math.sin((2 * Math.PI * hz * j) / rate);
    }
    env.push(-Math.log(re * re + im * im));
  }
  const peaks: [number, number][] = [];
  for (let i = 1; i < env.length - 1; i++)
    if (env[i]! > env[i - 1]! && env[i]! >= env[i + 1]! && i * 5 > 200) peaks.push([i * 5, env[i]!]);
  const [f1, f2] = peaks.slice(0, 2).map(([hz]) => hz);
  return [f1!, f2!];
};

describe('PSOLA keeps the formants while the pitch moves', () => {
  it('corrects a vowel sung 40 cents sharp to the note', async () => {
    const f0 = 123.47 * 2 ** (40 / 1200); // B2 + 40 cents
    const x = vowel(f0, 1.5);
    const settings = { ...DEFAULT_PITCH_SETTINGS, amount: 100, humanize: 0, retuneMs: 0 };
    const { channels } = await correctPitch([x], SR, settings);
    const cents = 100 * (medianMidi(await trackPitch(channels[0]!, SR)) - 47);
    const [a1, a2] = formants(x);
    const [b1, b2] = formants(channels[0]!);
    console.info(
      `40 cents sharp -> ${cents.toFixed(2)} cents off B2; F1 ${a1}->${b1} Hz, F2 ${a2}->${b2} Hz`,
    );
    expect(Math.abs(cents)).toBeLessThan(2);
    expect(Math.abs(b1 - a1) / a1).toBeLessThan(0.05);
    expect(Math.abs(b2 - a2) / a2).toBeLessThan(0.05);
  });

  it('moves the pitch 4 semitones (26 %) while F1 and F2 move less than 5 %', async () => {
    const x = vowel(110, 1.5);
    const track = await trackPitch(x, SR);
    const ratio = new Float32Array(track.f0.length).fill(2 ** (4 / 12));
    const out = psolaShift([x], x, track, ratio)[0]!;
    const moved = medianMidi(await trackPitch(out, SR)) - medianMidi(track);
    const [a1, a2] = formants(x);
    const [b1, b2] = formants(out);
    console.info(`+4 semitones: pitch moved ${moved.toFixed(3)} st; F1 ${a1}->${b1} Hz, F2 ${a2}->${b2} Hz`);
    expect(Math.abs(moved - 4)).toBeLessThan(0.05);
    expect(Math.abs(b1 - a1) / a1).toBeLessThan(0.05);
    expect(Math.abs(b2 - a2) / a2).toBeLessThan(0.05);
  });

  it('leaves unvoiced noise untouched, sample for sample', async () => {
    const voiced = vowel(230, 0.6);
    const n = Math.round(1.6 * SR);
    const x = new Float32Array(n);
    let seed = 11;
    for (let i = 0; i < n; i++) {
      seed = (seed * 1664525 + 1013904223) >>> 0;
      x[i] = 0.2 * (seed / 4294967296 - 0.5); // breath/sibilance-like noise
    }
    x.set(voiced, Math.round(0.5 * SR));
    const { channels, track } = await correctPitch([x], SR, { ...DEFAULT_PITCH_SETTINGS, amount: 100 });
    const out = channels[0]!;
    // The noise before and after the vowel (away from the run's edges) is not voiced and not changed.
    expect(Array.from(track.f0.slice(2, 45)).every((v) => v === 0)).toBe(true);
    for (const [a, b] of [
      [0, Math.round(0.45 * SR)],
      [Math.round(1.15 * SR), n],
    ] as const)
      for (let i = a; i < b; i++) expect(out[i]).toBe(x[i]);
    let changed = 0;
    for (let i = Math.round(0.6 * SR); i < Math.round(1 * SR); i++) changed += Math.abs(out[i]! - x[i]!);
    expect(changed).toBeGreaterThan(1);
  });
});
