/**
 * Issue 26's stages one by one on generated signals: clipped peaks and clicks repaired, breaths lowered,
 * the rider never lifting pauses or breaths, the split-band cut leaving the rest of the voice bit-exact,
 * the delay on the tempo's grid.
 */
import { describe, expect, it } from 'vitest';
import {
  FRAME_BREATH,
  FRAME_SILENCE,
  FRAME_VOICED,
  type FrameClass,
  type VocalAnalysis,
} from './analyse-vocal';
import { DynamicBand } from './dynamic-band';
import { vocalTargetFor } from './genre-vocal-targets';
import { lowerBreaths, repairClicks, repairClipped } from './repair';
import { applyRide, rideCurve } from './rider';
import { SLAP_SECONDS, spaceParamsFor, VocalSpaceFx } from './vocal-space-fx';

const SR = 44_100;
const sine = (n: number, hz: number, amp: number) =>
  Float32Array.from({ length: n }, (_, i) => amp * Math.sin((2 * Math.PI * hz * i) / SR));
const maxErr = (a: Float32Array, b: Float32Array) =>
  a.reduce((m, v, i) => Math.max(m, Math.abs(v - b[i]!)), 0);

describe('repair', () => {
  it('redraws clipped tops closer to the wave than the flat clip', () => {
    const truth = sine(SR / 10, 200, 1.3);
    const clipped = truth.map((v) => Math.max(-1, Math.min(1, v)));
    const runs: { start: number; end: number }[] = [];
    let s = -1;
    for (let i = 0; i <= clipped.length; i++) {
      const on = i < clipped.length && Math.abs(clipped[i]!) >= 1;
      if (on && s < 0) s = i;
      if (!on && s >= 0) {
        runs.push({ start: s / SR, end: i / SR });
        s = -1;
      }
    }
    const fixed = Float32Array.from(clipped);
    expect(repairClipped(fixed, runs, SR)).toBe(runs.length);
    const before = maxErr(clipped, truth);
    const after = maxErr(fixed, truth);
    console.log({ before, after });
    expect(after).toBeLessThan(before / 2);
  });

  it('removes a one-sample click and leaves a clean sine alone', () => {
    const clean = sine(SR / 2, 300, 0.3);
    const untouched = Float32Array.from(clean);
    expect(repairClicks(untouched, SR)).toBe(0);
    expect(untouched).toEqual(clean);
    const clicked = Float32Array.from(clean);
    clicked[10_000]! += 0.5;
    expect(repairClicks(clicked, SR)).toBe(1);
    expect(maxErr(clicked, clean)).toBeLessThan(0.01);
  });

  it('lowers a breath by the asked dB and leaves the rest', () => {
    const x = new Float32Array(SR).fill(0.1);
    lowerBreaths(x, [{ start: 0.4, end: 0.6 }], SR, -10);
    expect(20 * Math.log10(x[Math.round(0.5 * SR)]! / 0.1)).toBeCloseTo(-10, 3);
    expect(x[Math.round(0.1 * SR)]).toBeCloseTo(0.1, 6);
    expect(x[Math.round(0.9 * SR)]).toBeCloseTo(0.1, 6);
  });
});

/** A minimal analysis: 3 s, a loud phrase, a breath, a phrase 8 dB quieter, a pause. */
const analysisFor = (): VocalAnalysis => {
  const hop = 0.01;
  const classes: FrameClass[] = [];
  for (let f = 0; f < 300; f++) {
    const t = f * hop;
    classes.push(
      t < 0.2
        ? FRAME_SILENCE
        : t < 1.2
          ? FRAME_VOICED
          : t < 1.5
            ? FRAME_BREATH
            : t < 2.5
              ? FRAME_VOICED
              : FRAME_SILENCE,
    );
  }
  const phrases = [
    { start: 0.2, end: 1.2, levelDb: -20 },
    { start: 1.5, end: 2.5, levelDb: -28 },
  ];
  return {
    phrases,
    words: phrases,
    phraseMedianDb: -20,
    voicing: { hopSeconds: hop, classes, levelsDb: classes.map(() => -30) },
  } as unknown as VocalAnalysis;
};

describe('rider', () => {
  it('lifts the quiet phrase, never the pauses or the breath', () => {
    const a = analysisFor();
    const curve = rideCurve(a, { maxUpDb: 9, maxDownDb: 6 });
    const at = (t: number) => curve.gainsDb[Math.round(t / 0.01)]!;
    expect(at(2)).toBeGreaterThan(7);
    expect(at(0.7)).toBeCloseTo(0, 1);
    for (const [f, c] of a.voicing.classes.entries())
      if (c === FRAME_SILENCE || c === FRAME_BREATH) expect(curve.gainsDb[f]!).toBeLessThanOrEqual(0);
    const x = new Float32Array(3 * SR).fill(0.01);
    applyRide(x, curve, SR, 0, x.length);
    expect(20 * Math.log10(x[2 * SR]! / 0.01)).toBeGreaterThan(7);
    expect(x[Math.round(2.8 * SR)]).toBeLessThanOrEqual(0.01);
  });
});

describe('split-band cut', () => {
  it('leaves a signal under the threshold bit-exact and cuts only its band when over it', () => {
    const params = { centreHz: 6000, q: 1.5, thresholdDb: -30, slope: 0.75, maxCutDb: 8 };
    const quiet = Float32Array.from({ length: SR }, (_, i) => 0.01 * Math.sin((2 * Math.PI * 6000 * i) / SR));
    const q = Float32Array.from(quiet);
    new DynamicBand(SR, params).process(q, 0, q.length);
    expect(q).toEqual(quiet);
    // A loud 6 kHz tone over a 300 Hz one: the 6 kHz part comes down, the 300 Hz part stays.
    const low = sine(SR, 300, 0.3);
    const high = sine(SR, 6000, 0.3);
    const x = Float32Array.from(low, (v, i) => v + high[i]!);
    const band = new DynamicBand(SR, params);
    band.process(x, 0, x.length);
    const proj = (y: Float32Array, ref: Float32Array) => {
      let num = 0;
      let den = 0;
      for (let i = SR / 2; i < SR; i++) {
        num += y[i]! * ref[i]!;
        den += ref[i]! * ref[i]!;
      }
      return 20 * Math.log10(Math.abs(num / den));
    };
    console.log({ high: proj(x, high), low: proj(x, low), max: band.maxCutDb });
    expect(proj(x, high)).toBeLessThan(-6);
    expect(Math.abs(proj(x, low))).toBeLessThan(0.2);
  });
});

describe('space', () => {
  it('puts the delay on the tempo (and a slap without one), the returns ducked while the voice sings', () => {
    const target = vocalTargetFor('pop');
    const timed = spaceParamsFor(target, 120, -20, 1);
    expect(timed.delaySeconds).toBeCloseTo(0.75 * 0.5, 6);
    expect(spaceParamsFor(target, undefined, -20, 1).delaySeconds).toBe(SLAP_SECONDS);
    // An impulse: the first delay repeat lands on the left at the delay time.
    const fx = new VocalSpaceFx(SR, { ...timed, reverbWet: 0 }, 4096);
    const n = SR;
    const voice = new Float32Array(n);
    voice[0] = 1;
    const left = new Float32Array(n);
    const right = new Float32Array(n);
    fx.process(voice, left, right, 0, n);
    let peak = 0;
    for (let i = 1; i < n; i++) if (Math.abs(left[i]!) > Math.abs(left[peak]!)) peak = i;
    expect(peak).toBe(Math.round(timed.delaySeconds * SR));
    // While a loud voice sings, the returns are ducked.
    const loud = new VocalSpaceFx(SR, timed, 4096);
    const sung = sine(n, 220, 0.3);
    loud.process(sung, new Float32Array(n), new Float32Array(n), 0, n);
    expect(loud.maxDuckDb).toBeGreaterThan(6);
  });
});
