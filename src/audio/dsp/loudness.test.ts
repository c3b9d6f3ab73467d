import { describe, expect, it } from 'vitest';
import { kWeighting, LoudnessMeter, measureLoudness } from './loudness';
import { ffmpegAvailable, ffmpegEbur128 } from './node-tools.test-helper';
import { musicLike, sine, sineSequence } from './test-signals';
import { measureTruePeakDb } from './true-peak';

const RATE = 48000;

describe('K-weighting', () => {
  it('reproduces the BS.1770 48 kHz coefficients', () => {
    const k = kWeighting(48000);
    const expected = {
      shelf: [1.53512485958697, -2.69169618940638, 1.19839281085285, -1.69065929318241, 0.73248077421585],
      highpass: [1, -2, 1, -1.99004745483398, 0.99007225036621],
    };
    for (const [i, v] of k.shelf.entries()) expect(v).toBeCloseTo(expected.shelf[i]!, 9);
    for (const [i, v] of k.highpass.entries()) expect(v).toBeCloseTo(expected.highpass[i]!, 9);
  });
});

describe('EBU Tech 3341 conformance (generated signals)', () => {
  for (const rate of [48000, 44100]) {
    it(`1 kHz stereo sine at -23 dBFS for 20 s reads -23.0 M, S and I (${rate} Hz)`, () => {
      const meter = new LoudnessMeter(rate, 2);
      meter.push(sine(rate, 20, 1000, -23));
      expect(meter.momentary()).toBeCloseTo(-23, 1);
      expect(meter.shortTerm()).toBeCloseTo(-23, 1);
      expect(Math.abs(meter.momentary() + 23)).toBeLessThanOrEqual(0.1);
      expect(Math.abs(meter.shortTerm() + 23)).toBeLessThanOrEqual(0.1);
      // Every momentary and short-term value of a steady tone reads the same.
      for (let k = 3; k < meter.subBlockCount; k++)
        expect(Math.abs(meter.momentary(k) + 23)).toBeLessThanOrEqual(0.1);
      for (let k = 29; k < meter.subBlockCount; k++)
        expect(Math.abs(meter.shortTerm(k) + 23)).toBeLessThanOrEqual(0.1);
      expect(Math.abs(meter.integrated() + 23)).toBeLessThanOrEqual(0.1);
    });
  }

  it('1 kHz stereo sine at -33 dBFS reads -33.0', () => {
    const meter = new LoudnessMeter(RATE, 2);
    meter.push(sine(RATE, 20, 1000, -33));
    expect(Math.abs(meter.momentary() + 33)).toBeLessThanOrEqual(0.1);
    expect(Math.abs(meter.shortTerm() + 33)).toBeLessThanOrEqual(0.1);
    expect(Math.abs(meter.integrated() + 33)).toBeLessThanOrEqual(0.1);
  });

  const gated: [string, [number, number][]][] = [
    [
      '-36/-23/-36 dBFS (10/60/10 s)',
      [
        [-36, 10],
        [-23, 60],
        [-36, 10],
      ],
    ],
    [
      '-72/-36/-23/-36/-72 dBFS (10/10/60/10/10 s)',
      [
        [-72, 10],
        [-36, 10],
        [-23, 60],
        [-36, 10],
        [-72, 10],
      ],
    ],
    [
      '-26/-20/-26 dBFS (20/20.1/20 s)',
      [
        [-26, 20],
        [-20, 20.1],
        [-26, 20],
      ],
    ],
  ];
  for (const [name, segments] of gated) {
    it(`gated sequence ${name} integrates to -23.0`, () => {
      const report = measureLoudness(sineSequence(RATE, segments), RATE, { truePeak: false });
      expect(Math.abs(report.integratedLufs + 23)).toBeLessThanOrEqual(0.1);
    });
  }

  it('loudness range of the Tech 3342 style -20/-30 sequence is 10 LU', () => {
    const report = measureLoudness(
      sineSequence(RATE, [
        [-20, 20],
        [-30, 20],
      ]),
      RATE,
      { truePeak: false },
    );
    expect(Math.abs(report.loudnessRangeLu - 10)).toBeLessThanOrEqual(0.1);
  });

  it('pushing in render quanta gives the same result as pushing at once', () => {
    const signal = musicLike({ seconds: 12, sampleRate: 44100 });
    const whole = measureLoudness(signal, 44100);
    const meter = new LoudnessMeter(44100, 2);
    for (let i = 0; i < signal[0]!.length; i += 128)
      meter.push(signal, i, Math.min(signal[0]!.length, i + 128));
    const pieces = meter.report();
    expect(pieces.integratedLufs).toBeCloseTo(whole.integratedLufs, 9);
    expect(pieces.truePeakDbtp).toBeCloseTo(whole.truePeakDbtp, 9);
    expect(pieces.loudnessRangeLu).toBeCloseTo(whole.loudnessRangeLu, 9);
  });
});

describe('stereo and weighted fast paths', () => {
  const left = musicLike({ seconds: 6, sampleRate: 44_100, seed: 2 })[0]!;
  const right = musicLike({ seconds: 6, sampleRate: 44_100, seed: 5 })[1]!;

  it('two channels in one loop give each 100 ms block exactly the sum of the two channels measured alone', () => {
    const stereo = new LoudnessMeter(44_100, 2, { truePeak: false });
    const l = new LoudnessMeter(44_100, 1, { truePeak: false });
    const r = new LoudnessMeter(44_100, 1, { truePeak: false });
    // Pushed at once, each sub-block is one span: its sum is exactly left + right, as the per-channel loop gave.
    stereo.push([left, right]);
    l.push([left]);
    r.push([right]);
    expect(stereo.subBlockCount).toBe(60);
    for (let k = 0; k < stereo.subBlockCount; k++)
      expect(stereo.windowSum(k, 1).sum).toBe(l.windowSum(k, 1).sum + r.windowSum(k, 1).sum);
  });

  it('one channel of weight 2 measures exactly what the same samples on both sides measure', () => {
    const weighted = new LoudnessMeter(44_100, 1, { truePeak: false, weights: [2] });
    const twin = new LoudnessMeter(44_100, 2, { truePeak: false });
    weighted.push([left]);
    twin.push([left, left]);
    expect(weighted.integrated()).toBe(twin.integrated());
    expect(weighted.loudnessRange()).toBe(twin.loudnessRange());
    const plain = new LoudnessMeter(44_100, 1, { truePeak: false });
    plain.push([left]);
    expect(weighted.integrated() - plain.integrated()).toBeCloseTo(10 * Math.log10(2), 6);
  });
});

describe('true peak', () => {
  // A quarter-rate sine at 45 degrees: every sample sits at 0.707 of the peak, the true peak lies between.
  for (const rate of [48000, 44100]) {
    it(`fs/4 sine at 45 degrees reads its analytic peak within +0.2/-0.4 dB (${rate} Hz)`, () => {
      const signal = sine(rate, 1, rate / 4, -6, 2, Math.PI / 4);
      const analytic = -6;
      let samplePeak = 0;
      for (const v of signal[0]!) samplePeak = Math.max(samplePeak, Math.abs(v));
      expect(20 * Math.log10(samplePeak)).toBeCloseTo(-9.01, 1); // the samples alone miss 3 dB
      const tp = measureTruePeakDb(signal);
      expect(tp - analytic).toBeLessThanOrEqual(0.2);
      expect(tp - analytic).toBeGreaterThanOrEqual(-0.4);
    });
  }

  it('a 997 Hz sine reads its amplitude; a lone full-scale sample reads 0 dBTP (never less than the samples)', () => {
    expect(measureTruePeakDb(sine(RATE, 1, 997, -3))).toBeCloseTo(-3, 1);
    const impulse = new Float32Array(100);
    impulse[50] = 1;
    expect(measureTruePeakDb([impulse])).toBeCloseTo(0, 6);
  });
});

describe('against ffmpeg ebur128', () => {
  it('music-like material: integrated, range and true peak agree', async () => {
    if (!(await ffmpegAvailable())) {
      console.warn('SKIPPED: ffmpeg is not installed; the comparison with ffmpeg ebur128 did not run');
      return;
    }
    const signal = musicLike({ seconds: 60, sampleRate: 44100, seed: 7 });
    const ours = measureLoudness(signal, 44100);
    const theirs = await ffmpegEbur128(signal, 44100);
    // ffmpeg prints one decimal: allow its rounding on top of the 0.1 LU agreement.
    expect(Math.abs(ours.integratedLufs - theirs.integrated)).toBeLessThanOrEqual(0.15);
    expect(Math.abs(ours.loudnessRangeLu - theirs.range)).toBeLessThanOrEqual(0.25);
    expect(Math.abs(ours.truePeakDbtp - theirs.truePeak)).toBeLessThanOrEqual(0.3);
  });
});
