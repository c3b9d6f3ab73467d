import { describe, expect, it } from 'vitest';
import { PRESETS, type PresetId } from '../../shared/mastering';
import { synthTrack } from '../synth-music';
import { BlockTruePeaks } from './block-true-peaks';
import { limitedLoudnessSlope } from './limited-slope';
import { LIMITER_BLOCK } from './limiter';
import { BlockAnalysis, integratedWithPlan, planLimiter } from './loudness-target';
import { loudnessStart, renderMaster } from './mastering-chain';
import { decodeWithFfmpeg, ffmpegAvailable } from './node-tools.test-helper';

const RATE = 44_100;
const REAL_MUSIC = '/usr/share/games/asc/music/frontiers.mp3';
const PRESET_IDS: PresetId[] = ['clean', 'balanced', 'loud'];

/**
 * The model's slope at the solve's first gain beside the real one: the integrated loudness of two real
 * limiter plans 0.05 dB apart (block true peaks, the preset's limiter), on the chain's processed signal.
 */
const slopes = async (source: Float32Array[], preset: PresetId) => {
  const channels = source.map((c) => c.slice());
  const options = {
    settings: PRESETS[preset].settings,
    targetLufs: PRESETS[preset].targetLufs,
    tone: { preset },
    planOnly: true,
  };
  await renderMaster(channels, RATE, options, { yieldFn: () => Promise.resolve() });
  const frames = channels[0]!.length;
  const analysis = new BlockAnalysis(RATE, channels.length, frames);
  analysis.push(channels, 0, frames);
  const start = loudnessStart(analysis.energy, frames, RATE, options);
  const peaks = new BlockTruePeaks(channels, analysis.sampleMax, start.threshold);
  const blocks = Math.ceil(frames / LIMITER_BLOCK);
  const at = (db: number) => {
    const g = 10 ** (db / 20);
    peaks.ensure(g);
    const plan = planLimiter(peaks.peaks, blocks, g, RATE, start.limiter);
    return { plan, lufs: integratedWithPlan(analysis.energy, frames, RATE, plan, g) };
  };
  const here = at(start.gainDb);
  const real = (at(start.gainDb + 0.05).lufs - here.lufs) / 0.05;
  const model = limitedLoudnessSlope(analysis.energy, here.plan.boundaryGains);
  // Where the solve's next try lands (LU from the target) stepping along the model, and along a slope of 1.
  const error = options.targetLufs - here.lufs;
  const landing = (slope: number) => at(start.gainDb + error / slope).lufs - options.targetLufs;
  return { real, model, error, newton: landing(model), unit: landing(1) };
};

/** The model's slope is near the real one, and its step lands nearer the target than a step of slope 1. */
const check = async (name: string, source: Float32Array[]) => {
  for (const preset of PRESET_IDS) {
    const r = await slopes(source, preset);
    console.log(
      `${name} ${preset}: slope real ${r.real.toFixed(3)}, model ${r.model.toFixed(3)}; first try ${r.error.toFixed(3)} LU short, next lands ${r.newton.toFixed(3)} (slope 1: ${r.unit.toFixed(3)})`,
    );
    expect(Math.abs(r.model - r.real)).toBeLessThan(0.08);
    if (Math.abs(r.error) >= 0.02) expect(Math.abs(r.newton)).toBeLessThan(Math.max(0.02, Math.abs(r.unit)));
  }
};

describe('limitedLoudnessSlope (decision 298)', () => {
  it('a free block rises fully, a held one not at all, a release tail by the share recovered', () => {
    const energy = new Float64Array([1, 1, 1, 1, 1]);
    expect(limitedLoudnessSlope(energy, new Float64Array([1, 1, 1, 1, 1, 1]))).toBe(1);
    // Block 0 free, blocks 1-3 reach or hold the peak (slope 0; a block counts its deeper boundary), block 4
    // half way back in nepers (slope 1/2).
    const peak = Math.exp(-1);
    const half = Math.exp(-0.5);
    const gains = new Float64Array([1, 1, peak, peak, half, 1]);
    const w = (a: number, c: number) => a * a + a * c + c * c;
    const all = w(1, 1) + w(1, peak) + w(peak, peak) + w(peak, half) + w(half, 1);
    expect(limitedLoudnessSlope(energy, gains)).toBeCloseTo((w(1, 1) + 0.5 * w(half, 1)) / all, 12);
    expect(limitedLoudnessSlope(new Float64Array(5), gains)).toBe(1);
  });

  it.each(['pop', 'club', 'acoustic'] as const)(
    'is near the slope of two real limiter plans on generated %s music, every preset',
    async (style) => check(style, synthTrack(style, 30, RATE)),
    60_000,
  );

  it('is near the slope of two real limiter plans on real music (asc-music), every preset', async () => {
    if (!(await ffmpegAvailable())) return console.warn('SKIPPED: ffmpeg is not installed');
    const decoded = await decodeWithFfmpeg(REAL_MUSIC, RATE);
    if (!decoded) return console.warn(`SKIPPED: ${REAL_MUSIC} is not installed`);
    await check(
      'asc-music frontiers',
      decoded.map((c) => c.slice(30 * RATE, 75 * RATE)),
    );
  }, 60_000);
});
