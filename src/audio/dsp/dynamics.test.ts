import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Compressor, compressorParamsFor } from './compressor';
import { LIMITER_BLOCK, LimiterGainComputer, limitOffline, TruePeakLimiter } from './limiter';
import { applyStereoWidth } from './stereo-width';
import { musicLike, sine } from './test-signals';
import { measureTruePeakDb } from './true-peak';

const RATE = 44100;
const rms = (data: Float32Array, from = 0, to = data.length) => {
  let s = 0;
  for (let i = from; i < to; i++) s += data[i]! * data[i]!;
  return Math.sqrt(s / (to - from));
};

describe('compressor', () => {
  it('follows its static curve on a steady tone above threshold', () => {
    const params = compressorParamsFor(50); // threshold -14 dB, ratio 2.5
    expect(params.thresholdDb).toBe(-14);
    expect(params.ratio).toBe(2.5);
    const signal = sine(RATE, 2, 1000, -4);
    const reference = signal[0]!.slice();
    const comp = new Compressor(RATE, params);
    comp.process(signal, 0, signal[0]!.length);
    // Peak detector sits at the tone's peak (-4 dB), 10 dB over: (1/2.5 - 1) * 10 = -6 dB.
    const gainDb = 20 * Math.log10(rms(signal[0]!, RATE) / rms(reference, RATE));
    // The 10 ms peak detector settles slightly under the crest of a sine, so allow a fraction of a dB less.
    expect(gainDb).toBeLessThan(-5);
    expect(gainDb).toBeGreaterThan(comp.gainDbFor(-4) - 0.2);
    expect(signal[1]).toEqual(signal[0]); // linked: one gain for both channels
  });

  it('leaves a tone below the knee alone and is bypassed at 0', () => {
    const quiet = sine(RATE, 1, 440, -30);
    const ref = quiet[0]!.slice();
    new Compressor(RATE, compressorParamsFor(50)).process(quiet, 0, RATE);
    expect(Math.abs(20 * Math.log10(rms(quiet[0]!) / rms(ref)))).toBeLessThan(0.01);
    const loud = sine(RATE, 1, 440, 0);
    const copy = loud[0]!.slice();
    const off = new Compressor(RATE, compressorParamsFor(0));
    expect(off.bypassed).toBe(true);
    off.process(loud, 0, RATE);
    expect(loud[0]).toEqual(copy);
  });

  it('gives the same samples whatever the block size', () => {
    const a = musicLike({ seconds: 3, seed: 3 });
    const b = a.map((c) => c.slice());
    new Compressor(RATE, compressorParamsFor(75)).process(a, 0, a[0]!.length);
    const comp = new Compressor(RATE, compressorParamsFor(75));
    for (let i = 0; i < b[0]!.length; i += 128) comp.process(b, i, Math.min(b[0]!.length, i + 128));
    let worst = 0;
    for (let i = 0; i < a[0]!.length; i++) worst = Math.max(worst, Math.abs(a[0]![i]! - b[0]![i]!));
    expect(worst).toBe(0);
  });
});

describe('stereo width', () => {
  it('width 50 is bit-transparent', () => {
    const signal = musicLike({ seconds: 2, seed: 5 });
    const copy = signal.map((c) => c.slice());
    applyStereoWidth(signal, 50);
    for (let c = 0; c < 2; c++) {
      const a = new Uint32Array(signal[c]!.buffer);
      const b = new Uint32Array(copy[c]!.buffer);
      let diff = 0;
      for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) diff++;
      expect(diff).toBe(0);
    }
  });

  it('mono stays mono: one channel is untouched, equal channels stay equal at any width', () => {
    const mono = sine(RATE, 0.5, 300, -6, 1);
    const monoCopy = mono[0]!.slice();
    applyStereoWidth(mono, 100);
    expect(mono[0]).toEqual(monoCopy);
    for (const width of [0, 25, 65, 100]) {
      const dual = sine(RATE, 0.5, 300, -6, 2);
      applyStereoWidth(dual, width);
      let diff = 0;
      for (let i = 0; i < dual[0]!.length; i++) if (dual[0]![i] !== dual[1]![i]) diff++;
      expect(diff).toBe(0);
    }
  });

  it('scales the side signal by width/50', () => {
    const left = Float32Array.from([1, 0.5, -0.25]);
    const right = Float32Array.from([0, 0.5, 0.25]);
    applyStereoWidth([left, right], 100);
    expect(Array.from(left)).toEqual([1.5, 0.5, -0.5]);
    expect(Array.from(right)).toEqual([-0.5, 0.5, 0.5]);
    const l0 = Float32Array.from([1]);
    const r0 = Float32Array.from([0]);
    applyStereoWidth([l0, r0], 0);
    expect([l0[0], r0[0]]).toEqual([0.5, 0.5]);
  });
});

describe('true-peak limiter', () => {
  it('is delay-compensated offline: a signal under the ceiling comes out unchanged, same length', () => {
    const signal = sine(RATE, 1, 1000, -12);
    const copy = signal.map((c) => c.slice());
    limitOffline(signal, RATE);
    expect(signal[0]!.length).toBe(copy[0]!.length);
    let worst = 0;
    for (let i = 0; i < copy[0]!.length; i++)
      worst = Math.max(worst, Math.abs(signal[0]![i]! - copy[0]![i]!));
    expect(worst).toBe(0);
  });

  it('as a stream, output is the input delayed by its latency', () => {
    const limiter = new TruePeakLimiter(RATE, 1);
    const input = sine(RATE, 0.1, 440, -20, 1)[0]!;
    const output = new Float32Array(input.length);
    for (let i = 0; i < input.length; i += 128)
      limiter.process([input], [output], i, Math.min(input.length, i + 128));
    expect(limiter.latency).toBeGreaterThan(LIMITER_BLOCK);
    for (let i = limiter.latency; i < input.length; i++) expect(output[i]).toBe(input[i - limiter.latency]);
  });

  it('holds loud music under -1 dBTP', () => {
    const signal = musicLike({ seconds: 20, seed: 9, gainDb: 12 });
    expect(measureTruePeakDb(signal)).toBeGreaterThan(8);
    limitOffline(signal, RATE);
    expect(measureTruePeakDb(signal)).toBeLessThanOrEqual(-1);
    let bad = 0;
    for (const ch of signal) for (let i = 0; i < ch.length; i++) if (!Number.isFinite(ch[i]!)) bad++;
    expect(bad).toBe(0);
  });

  // Random stereo material built from segments of noise, tones, square waves and clicks at levels up to
  // +30 dBFS: the limiter's output true peak never exceeds the ceiling.
  const segment = fc.record({
    kind: fc.constantFrom('noise', 'sine', 'square', 'clicks', 'silence'),
    frames: fc.integer({ min: 1, max: 3000 }),
    levelDb: fc.double({ min: -40, max: 30, noNaN: true }),
    frequency: fc.double({ min: 20, max: 21000, noNaN: true }),
    seed: fc.integer({ min: 1, max: 2 ** 31 - 1 }),
    stereo: fc.double({ min: -1, max: 1, noNaN: true }),
  });
  it('never lets a true peak over the ceiling (property)', () => {
    fc.assert(
      fc.property(
        fc.array(segment, { minLength: 1, maxLength: 12 }),
        fc.integer({ min: 0, max: 2 }),
        (segments, g) => {
          const total = segments.reduce((n, s) => n + s.frames, 0);
          const left = new Float32Array(total);
          const right = new Float32Array(total);
          let offset = 0;
          for (const s of segments) {
            const a = 10 ** (s.levelDb / 20);
            let state = s.seed;
            for (let i = 0; i < s.frames; i++) {
              let v = 0;
              if (s.kind === 'noise') {
                state = (state * 1103515245 + 12345) & 0x7fffffff;
                v = (state / 0x3fffffff - 1) * a;
              } else if (s.kind === 'sine') v = a * Math.sin((2 * Math.PI * s.frequency * i) / RATE);
              else if (s.kind === 'square')
                v = Math.sin((2 * Math.PI * s.frequency * i) / RATE) >= 0 ? a : -a;
              else if (s.kind === 'clicks') v = i % 97 === 0 ? a : i % 97 === 1 ? -a : 0;
              left[offset + i] = v;
              right[offset + i] = v * s.stereo;
            }
            offset += s.frames;
          }
          limitOffline([left, right], RATE, [1, 2, 8][g]!);
          const tp = measureTruePeakDb([left, right]);
          return tp <= -1;
        },
      ),
      { numRuns: 150, seed: 20261121 },
    );
  });

  it('does not slow down on silence after sound (denormal-safe)', () => {
    const n = RATE * 20;
    const burst = new Float32Array(n);
    for (let i = 0; i < RATE; i++) burst[i] = Math.sin(i * 0.1);
    const noise = new Float32Array(n);
    for (let i = 0; i < n; i++) noise[i] = Math.sin(i * 0.37) * 0.5;
    const time = (data: Float32Array) => {
      const channels = [data.slice(), data.slice()];
      const t = performance.now();
      limitOffline(channels, RATE, 4);
      new Compressor(RATE, compressorParamsFor(75)).process(channels, 0, n);
      return performance.now() - t;
    };
    time(noise); // warm up the JIT
    // The fastest of three runs each: a neighbour taking the CPU lengthens a run, never shortens one, so the
    // minima compare the code, not the machine's load. Denormals make silence many times slower, not 2x.
    const fastest = (data: Float32Array) => Math.min(time(data), time(data), time(data));
    const tSilence = fastest(burst);
    const tSignal = fastest(noise);
    expect(tSilence).toBeLessThan(tSignal * 2);
  });
});

describe('limiter gain computer', () => {
  // The hold is the smallest requirement over the last hold + 1 blocks; the computer keeps it in a monotonic
  // queue. Drive it with block peaks whose requirement is known and compare with a plain scan of the window.
  it('holds the smallest requirement of exactly the last hold + 1 blocks', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.constant(0), fc.double({ min: 0, max: 4, noNaN: true })), {
          minLength: 1,
          maxLength: 300,
        }),
        (peaks) => {
          // Release 1e-9 ms: the envelope follows the hold at once, and average 1 block leaves it unsmoothed.
          const options = { releaseMs: 1e-9, lookaheadMs: 0.01 };
          const computer = new LimiterGainComputer(44100, options);
          const window = computer.hold + 1;
          const needs = peaks.map((p) => (p > computer.threshold ? computer.threshold / p : 1));
          peaks.forEach((p, b) => {
            const held = Math.min(1, ...needs.slice(Math.max(0, b - window + 1), b + 1));
            expect(computer.push(p)).toBeCloseTo(held, 12);
          });
        },
      ),
    );
  });
});
