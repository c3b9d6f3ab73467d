import { describe, expect, it } from 'vitest';
import { PRESETS } from '../../shared/mastering';
import { Compressor, compressorParamsFor } from './compressor';
import { ChainStats, DynamicsStats, summariseGains } from './dynamics-stats';
import { renderMaster } from './mastering-chain';
import { MasteringProcessor } from './mastering-processor';
import { musicLike, sine } from './test-signals';

const RATE = 44_100;
const immediate = () => Promise.resolve();

describe('dynamics statistics', () => {
  it("records the compressor's static curve: a 0 dBFS sine at compression 100 is reduced by 3 dB", () => {
    // Threshold -24 + 0.2 * 100 = -4 dB, ratio 4:1, knee 6 dB: at the sine's peak 4 dB over -> -3 dB. The peak
    // detector (10 ms attack, 150 ms release) rides up to 2 dB under the peak of a 1 kHz sine.
    const compressor = new Compressor(RATE, compressorParamsFor(100));
    const stats = new DynamicsStats();
    compressor.stats = stats;
    compressor.process(sine(RATE, 2, 1000, 0), 0, 2 * RATE);
    const s = stats.summary();
    expect(s.maxDb).toBeGreaterThan(-compressor.gainDbFor(-2));
    expect(s.maxDb).toBeLessThanOrEqual(-compressor.gainDbFor(0));
    expect(s.averageActiveDb).toBeLessThanOrEqual(s.maxDb);
    // Active from the first few ms of attack on: nearly the whole time.
    expect(s.activeShare).toBeGreaterThan(0.98);
    expect(stats.points).toBe(Math.ceil((2 * RATE) / 16));
  });

  it('sees no reduction under the threshold', () => {
    const compressor = new Compressor(RATE, compressorParamsFor(100));
    const stats = new DynamicsStats();
    compressor.stats = stats;
    compressor.process(sine(RATE, 1, 1000, -20), 0, RATE);
    expect(stats.summary()).toEqual({ maxDb: 0, averageDb: 0, averageActiveDb: 0, activeShare: 0 });
  });

  it('changes nothing in the output: the chain with statistics gives the same samples as without', () => {
    const source = musicLike({ seconds: 4, sampleRate: RATE, gainDb: 7 });
    const run = (stats: ChainStats | null) => {
      const channels = source.map((c) => c.slice());
      const processor = new MasteringProcessor(RATE, 2, PRESETS.loud.settings);
      processor.attachStats(stats);
      for (let s = 0; s < channels[0]!.length; s += 4096)
        processor.process(channels, s, Math.min(channels[0]!.length, s + 4096));
      return channels;
    };
    const stats = new ChainStats();
    const withStats = run(stats);
    const without = run(null);
    expect(stats.compressor.points).toBeGreaterThan(0);
    expect(withStats[0]).toEqual(without[0]);
    expect(withStats[1]).toEqual(without[1]);
  });

  it('summarises linear gains: 1, 0.5 (-6.02 dB), 1, 1', () => {
    const s = summariseGains([1, 0.5, 1, 1]);
    expect(s.maxDb).toBeCloseTo(6.0206, 3);
    expect(s.averageDb).toBeCloseTo(6.0206 / 4, 3);
    expect(s.activeShare).toBe(0.25);
  });

  it("comes back with a render: the limiter's deepest reduction is the plan's, the compressor worked", async () => {
    // musicLike peaks near -8 dBFS; +7 dB brings its peaks over the Loud preset's -9 dB threshold.
    const channels = musicLike({ seconds: 12, sampleRate: RATE, gainDb: 7 });
    const report = await renderMaster(
      channels,
      RATE,
      { settings: PRESETS.loud.settings, targetLufs: PRESETS.loud.targetLufs },
      { yieldFn: immediate },
    );
    const { compressor, limiter, bands } = report.dynamics;
    expect(bands).toBeNull();
    expect(compressor).not.toBeNull();
    expect(compressor!.activeShare).toBeGreaterThan(0);
    expect(compressor!.maxDb).toBeGreaterThanOrEqual(compressor!.averageActiveDb);
    expect(limiter.maxDb).toBeCloseTo(-report.limiterMinGainDb, 6);
    // Loud's peak compressor ahead of the limiter (decision 265) is reported on its own.
    expect(report.dynamics.peakCompressor!.maxDb).toBeCloseTo(-report.peakCompressorMinGainDb, 6);
    expect(report.dynamics.peakCompressor!.activeShare).toBeGreaterThan(0);
    expect(limiter.activeShare).toBeGreaterThan(0);
    expect(limiter.activeShare).toBeLessThanOrEqual(1);
  });

  it('reports the three bands when the adaptive chain compresses per band, and nothing at compression 0', async () => {
    const source = musicLike({ seconds: 8, sampleRate: RATE });
    const adaptive = await renderMaster(
      source.map((c) => c.slice()),
      RATE,
      { settings: PRESETS.balanced.settings, targetLufs: -14, tone: { preset: 'balanced' } },
      { yieldFn: immediate },
    );
    expect(adaptive.dynamics.bands?.length ?? 0).toBe(adaptive.adaptive?.bandDynamics ? 3 : 0);
    const none = await renderMaster(
      source.map((c) => c.slice()),
      RATE,
      { settings: { ...PRESETS.balanced.settings, compression: 0 }, targetLufs: -14 },
      { yieldFn: immediate },
    );
    expect(none.dynamics.compressor).toBeNull();
    expect(none.dynamics.bands).toBeNull();
  });
});
