/**
 * The limiter's two stages (decision 265): the peak compressor before the brickwall never lets a true peak
 * over the ceiling, changes nothing where it is off (Clean, Balanced), and takes the bulk of the work off
 * the brickwall on peaky material at Loud.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PRESETS, TRUE_PEAK_CEILING_DBTP } from '../../shared/mastering';
import { LimiterGainComputer, limiterLatency, limitOffline, TruePeakLimiter } from './limiter';
import { planLimiter } from './loudness-target';
import { limiterOptionsFor, masteringLatency } from './mastering-chain';
import { StagedLimiterComputer } from './staged-limiter';
import { musicLike } from './test-signals';
import { measureTruePeakDb } from './true-peak';

const RATE = 44100;
const LOUD = limiterOptionsFor(TRUE_PEAK_CEILING_DBTP, PRESETS.loud.settings);

describe('staged limiter (peak compressor, then brickwall)', () => {
  it('is the plain limiter, gain for gain, where the preset has no peak compressor', () => {
    for (const id of ['clean', 'balanced'] as const) {
      const options = limiterOptionsFor(TRUE_PEAK_CEILING_DBTP, PRESETS[id].settings);
      // Named at 1:1 (the live chain's latency is the same for every preset), so it changes no gain.
      expect(options.peakCompressor?.ratio).toBe(1);
      const staged = new StagedLimiterComputer(RATE, options);
      const plain = new LimiterGainComputer(RATE, options);
      expect(staged.delay).toBe(plain.average);
      let state = 7;
      for (let b = 0; b < 20_000; b++) {
        state = (state * 1103515245 + 12345) & 0x7fffffff;
        const peak = (state / 0x7fffffff) * 3;
        expect(staged.push(peak)).toBe(plain.push(peak));
      }
    }
  });

  it('Loud has one, 4:1 from 2 dB over the ceiling; the stream latency is the same for every preset', () => {
    expect(LOUD.peakCompressor).toEqual({ thresholdDb: 2, ratio: 4, kneeDb: 6, releaseMs: 15 });
    const latencies = [0, 30, 65, 75, 85, 100].map((loudness) =>
      limiterLatency(RATE, limiterOptionsFor(TRUE_PEAK_CEILING_DBTP, { ...PRESETS.loud.settings, loudness })),
    );
    expect(new Set(latencies).size).toBe(1);
    expect(masteringLatency(RATE)).toBe(latencies[0]);
    expect(new TruePeakLimiter(RATE, 2, limiterOptionsFor(TRUE_PEAK_CEILING_DBTP)).latency).toBe(
      latencies[0],
    );
  });

  it('never lets a true peak over the ceiling at Loud (property: music, clicks and tones up to +24 dB)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1000 }),
        fc.double({ min: -12, max: 24, noNaN: true }),
        fc.constantFrom('music', 'clicks', 'tone'),
        (seed, gainDb, kind) => {
          const channels = musicLike({ seconds: 2, seed, gainDb });
          const a = 10 ** (gainDb / 20);
          if (kind !== 'music')
            for (const ch of channels)
              for (let i = 0; i < ch.length; i++)
                ch[i] =
                  kind === 'clicks'
                    ? ch[i]! + (i % (200 + seed) === 0 ? a : 0)
                    : ch[i]! * 0.5 + a * 0.5 * Math.sin((2 * Math.PI * (40 + seed * 17) * i) / RATE);
          limitOffline(channels, RATE, 1, LOUD);
          return measureTruePeakDb(channels) <= TRUE_PEAK_CEILING_DBTP;
        },
      ),
      { numRuns: 40, seed: 20261127 },
    );
  });

  it('takes the bulk off the brickwall on peaky music: the brickwall under 6 dB, the total as deep as before', () => {
    // Block true peaks of generated pop raised 16 dB: its kicks need about 14 dB off to meet the ceiling.
    const channels = musicLike({ seconds: 20, seed: 3, gainDb: 16 });
    const peaks = new Float64Array(Math.ceil(channels[0]!.length / 16));
    for (let b = 0; b < peaks.length; b++) {
      let m = 0;
      for (const ch of channels)
        for (let i = b * 16; i < Math.min(ch.length, b * 16 + 16); i++) m = Math.max(m, Math.abs(ch[i]!));
      peaks[b] = m;
    }
    const alone = planLimiter(peaks, peaks.length, 1, RATE, { ...LOUD, peakCompressor: undefined });
    const staged = planLimiter(peaks, peaks.length, 1, RATE, LOUD);
    expect(alone.minGainDb).toBeLessThan(-10);
    expect(staged.minGainDb).toBeGreaterThan(-6);
    expect(staged.compressorMinGainDb!).toBeLessThan(-6);
    // Together they still bring the deepest peak down at least as far as the limiter alone had to.
    const deepest = (g: Float64Array) => 20 * Math.log10(Math.min(...g));
    expect(deepest(staged.boundaryGains)).toBeLessThanOrEqual(alone.minGainDb + 0.5);
  });
});
