import { describe, expect, it } from 'vitest';
import { DEFAULT_CUSTOM_SETTINGS, manualTargetLufs, PRESET_IDS, PRESETS } from '../../shared/mastering';
import { measureBandLevels } from './band-levels';
import { measureLoudness } from './loudness';
import { MASTERING_STAGES, type MasteringProgress, renderMaster } from './mastering-chain';
import { worstLiveDeviation } from './mastering-checks.test-helper';
import { masteringChainParams, presenceGainDb, shelfGainDb } from './mastering-processor';
import { musicLike } from './test-signals';

/** The smallest positive normal single-precision float: below it (and above 0) floats are subnormal. */
const SMALLEST_NORMAL_F32 = 2 ** -126;

const RATE = 44100;
const immediate = () => Promise.resolve();

describe('chain parameters (spec 9)', () => {
  it('maps the sliders to the spec values', () => {
    expect(shelfGainDb(0)).toBe(-6);
    expect(shelfGainDb(50)).toBe(0);
    expect(shelfGainDb(100)).toBe(6);
    expect(presenceGainDb(60)).toBeCloseTo(2.4, 12);
    expect(presenceGainDb(100)).toBe(3);
    const p = masteringChainParams(PRESETS.balanced.settings, RATE);
    expect(p.compressor.thresholdDb).toBe(-24 + 0.2 * 45);
    expect(p.warmthDb).toBeCloseTo(-1.2, 12);
    expect(p.brightnessDb).toBeCloseTo(1.2, 12);
  });
});

describe('mastering render', () => {
  for (const id of PRESET_IDS) {
    it(`preset ${id}: ${PRESETS[id].targetLufs} LUFS +/-0.5, true peak <= -1 dBTP, no NaN, same length`, async () => {
      const source = musicLike({ seconds: 45, seed: 11 });
      const channels = source.map((c) => c.slice());
      const progress: MasteringProgress[] = [];
      const report = await renderMaster(
        channels,
        RATE,
        { settings: PRESETS[id].settings, targetLufs: PRESETS[id].targetLufs },
        { onProgress: (p) => progress.push(p), yieldFn: immediate },
      );
      expect(channels[0]!.length).toBe(source[0]!.length);
      expect(channels[1]!.length).toBe(source[1]!.length);
      let bad = 0;
      for (const ch of channels) for (let i = 0; i < ch.length; i++) if (!Number.isFinite(ch[i]!)) bad++;
      expect(bad).toBe(0);
      const measured = measureLoudness(channels, RATE);
      expect(Math.abs(measured.integratedLufs - PRESETS[id].targetLufs)).toBeLessThanOrEqual(0.5);
      expect(measured.truePeakDbtp).toBeLessThanOrEqual(-1);
      expect(Math.abs(report.predictedLufs - measured.integratedLufs)).toBeLessThan(0.1);
      // Progress passes the real stages in order and only moves forward.
      const stages = [...new Set(progress.map((p) => p.stage))];
      expect(stages).toEqual([...MASTERING_STAGES]);
      for (let i = 1; i < progress.length; i++)
        expect(progress[i]!.fraction).toBeGreaterThanOrEqual(progress[i - 1]!.fraction);
      expect(progress.at(-1)!.fraction).toBe(1);
    });
  }

  it('manual mode reaches the slider target (-20 + 12 x loudness/100)', async () => {
    const channels = musicLike({ seconds: 30, seed: 2 });
    const target = manualTargetLufs(DEFAULT_CUSTOM_SETTINGS.loudness);
    expect(target).toBeCloseTo(-12.8, 12);
    await renderMaster(
      channels,
      RATE,
      { settings: DEFAULT_CUSTOM_SETTINGS, targetLufs: target },
      { yieldFn: immediate },
    );
    const measured = measureLoudness(channels, RATE);
    expect(Math.abs(measured.integratedLufs - target)).toBeLessThanOrEqual(0.5);
    expect(measured.truePeakDbtp).toBeLessThanOrEqual(-1);
  });

  it('mono in, mono out; silence and digital silence after sound stay finite, with no subnormal floats', async () => {
    const mono = [musicLike({ seconds: 10, seed: 4 })[0]!];
    await renderMaster(
      mono,
      RATE,
      { settings: PRESETS.loud.settings, targetLufs: -9 },
      { yieldFn: immediate },
    );
    expect(mono).toHaveLength(1);
    expect(measureLoudness(mono, RATE).truePeakDbtp).toBeLessThanOrEqual(-1);

    const music = musicLike({ seconds: 5, seed: 4 });
    const tail = 60 * RATE;
    const withSilence = music.map((c) => {
      const out = new Float32Array(c.length + tail);
      out.set(c);
      return out;
    });
    await renderMaster(
      withSilence,
      RATE,
      { settings: PRESETS.loud.settings, targetLufs: -9 },
      { yieldFn: immediate },
    );
    let bad = 0;
    let subnormal = 0;
    for (const ch of withSilence)
      for (let i = 0; i < ch.length; i++) {
        const v = ch[i]!;
        if (!Number.isFinite(v)) bad++;
        else if (v !== 0 && Math.abs(v) < SMALLEST_NORMAL_F32) subnormal++;
      }
    expect(bad).toBe(0);
    // The filters' decaying tails are flushed to zero: no subnormal floats reach the output (they are what
    // makes a render of silence crawl; its speed is the benchmark's to measure, never a wall-clock test's).
    expect(subnormal).toBe(0);
    const silent = [new Float32Array(RATE), new Float32Array(RATE)];
    const report = await renderMaster(
      silent,
      RATE,
      { settings: PRESETS.clean.settings, targetLufs: -16 },
      { yieldFn: immediate },
    );
    expect(report.gainDb).toBe(0);
    expect(silent[0]!.every((v) => v === 0)).toBe(true);
  });

  it("takes the input's band levels measured at load instead of measuring them again, with the same samples", async () => {
    const source = musicLike({ seconds: 6, seed: 5 });
    const options = { settings: PRESETS.balanced.settings, targetLufs: -14 };
    const measured = source.map((c) => c.slice());
    const own = await renderMaster(measured, RATE, options, { yieldFn: immediate });
    const atLoad = measureBandLevels(source, RATE);
    expect(atLoad).toEqual(own.input.bands);
    // Marked, so the report shows it carries what it was given rather than a measurement of its own.
    const given = atLoad.map((b) => ({ ...b, levelDb: b.levelDb + 100 }));
    const handed = source.map((c) => c.slice());
    const report = await renderMaster(
      handed,
      RATE,
      { ...options, inputBands: given },
      { yieldFn: immediate },
    );
    expect(report.input.bands).toEqual(given);
    expect({ ...report, input: { ...report.input, bands: own.input.bands } }).toEqual(own);
    expect(handed.every((c, i) => c.every((v, k) => v === measured[i]![k]))).toBe(true);
  });

  it('stops at the next block when aborted', async () => {
    const channels = musicLike({ seconds: 20, seed: 3 });
    const controller = new AbortController();
    const seen: MasteringProgress[] = [];
    const run = renderMaster(
      channels,
      RATE,
      { settings: PRESETS.balanced.settings, targetLufs: -14 },
      {
        signal: controller.signal,
        onProgress: (p) => {
          seen.push(p);
          if (p.stage === 'processing' && p.fraction > 0.2) controller.abort();
        },
      },
    );
    await expect(run).rejects.toMatchObject({ name: 'AbortError' });
    expect(seen.some((p) => p.stage === 'limiting')).toBe(false);
  });

  it('the streaming kernels (live path) give the offline samples for the same gain', async () => {
    const source = musicLike({ seconds: 8, seed: 21 });
    const offline = source.map((c) => c.slice());
    const settings = PRESETS.loud.settings;
    const report = await renderMaster(offline, RATE, { settings, targetLufs: -9 }, { yieldFn: immediate });
    // The worklet's path over the whole track gives the offline samples.
    expect(worstLiveDeviation(source, offline, RATE, settings, report.gainDb)).toBeLessThan(1e-5);
  });
});
