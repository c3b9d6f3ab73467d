/**
 * The adaptive master on signals with a known tonal error (issue 16 "What to show"): the RMS deviation
 * from the preset's intended curve (target tilt + the preset's own Brightness/Warmth/presence) before and
 * after, the spec chain alongside, and loudness/true peak still on target. The figures are printed so
 * the report can quote them.
 */
import { describe, expect, it } from 'vitest';
import { PRESET_IDS, PRESETS, type PresetId } from '../../shared/mastering';
import { genreCurveDb } from './genre-targets';
import { measureLoudness } from './loudness';
import { renderMaster } from './mastering-chain';
import { sectionedNoise, worstLiveDeviation } from './mastering-checks.test-helper';
import { musicLike, shapedNoise } from './test-signals';
import { MATCH_BANDS, targetCurveDb } from './tonal-target';
import { fitToneEq, TONE_EQ_HZ, toneEqResponseDb } from './tone-eq';
import { analyseTrack, THIRD_OCTAVE_CENTRES } from './track-analysis';

const RATE = 44100;
const immediate = () => Promise.resolve();

/** The genre these signals are mastered for (issue 28: the target is the genre's). */
const GENRE = 'pop';

/**
 * What the preset means the master to look like: the genre's target at the preset's tilt (in automatic
 * mode the EQ takes out the sliders' shelves and presence peak, decision 213).
 */
const intendedDb = (id: PresetId, hz: number): number =>
  genreCurveDb(GENRE, hz, PRESETS[id].toneTiltDbPerOctave);

/** RMS over the matched bands of (levels - intended), with the mean removed. */
const deviation = (levels: readonly number[], id: PresetId): number => {
  const d = MATCH_BANDS.map((k) => levels[k]! - intendedDb(id, THIRD_OCTAVE_CENTRES[k]!));
  const mean = d.reduce((s, v) => s + v, 0) / d.length;
  return Math.sqrt(d.reduce((s, v) => s + (v - mean) ** 2, 0) / d.length);
};

const master = async (source: Float32Array[], id: PresetId, adaptive: boolean) => {
  const channels = source.map((c) => c.slice());
  const report = await renderMaster(
    channels,
    RATE,
    {
      settings: PRESETS[id].settings,
      targetLufs: PRESETS[id].targetLufs,
      tone: adaptive ? { preset: id, genre: GENRE } : undefined,
    },
    { yieldFn: immediate },
  );
  return { channels, report, analysis: analyseTrack(channels, RATE) };
};

const SIGNALS = {
  'pink +6 dB/oct above 4 kHz': () =>
    shapedNoise({
      log2Frames: 20,
      shapeDb: (hz) => targetCurveDb(hz) + (hz > 4000 ? 6 * Math.log2(hz / 4000) : 0),
    }),
  'pink with a -8 dB bass shelf': () =>
    shapedNoise({
      log2Frames: 20,
      shapeDb: (hz) => targetCurveDb(hz) + (hz < 150 ? -8 : hz < 300 ? -8 * Math.log2(300 / hz) : 0),
    }),
  'mono-incompatible bass': () =>
    shapedNoise({ log2Frames: 20, stereo: 'antiphase-bass', shapeDb: (hz) => targetCurveDb(hz) }),
} as const;

describe('adaptive master: tone toward the target', { timeout: 240_000 }, () => {
  for (const [name, make] of Object.entries(SIGNALS)) {
    it(`${name}: closer to each preset's curve than the input and the spec chain; loudness and ceiling hold`, async () => {
      const source = make();
      const input = analyseTrack(source, RATE);
      const rows: string[] = [];
      for (const id of PRESET_IDS) {
        const spec = await master(source, id, false);
        const adaptive = await master(source, id, true);
        const before = deviation(input.midDb, id);
        const specAfter = deviation(spec.analysis.midDb, id);
        const after = deviation(adaptive.analysis.midDb, id);
        rows.push(
          `${id}: input ${before.toFixed(2)} dB, spec chain ${specAfter.toFixed(2)} dB, adaptive ${after.toFixed(2)} dB; ` +
            `low-end correlation ${input.lowEndCorrelation.toFixed(2)} -> ${adaptive.analysis.lowEndCorrelation.toFixed(2)}`,
        );
        const measured = measureLoudness(adaptive.channels, RATE);
        expect(Math.abs(measured.integratedLufs - PRESETS[id].targetLufs)).toBeLessThanOrEqual(0.5);
        expect(measured.truePeakDbtp).toBeLessThanOrEqual(-1);
        expect(adaptive.analysis.lowEndCorrelation).toBeGreaterThanOrEqual(0.9);
        if (name !== 'mono-incompatible bass') {
          // Inside the genre's range (Loud's tilt puts the +6 dB/oct signal there) the tone is left alone:
          // only the dynamics move it (measured 1.69 -> 2.00 dB at Loud).
          const inside = (adaptive.report.adaptive?.genre?.departure.confidence ?? 1) === 0;
          expect(after).toBeLessThan(before + (inside ? 0.5 : 0));
          // Issue 28 (decision 213): the correction goes only as far as the track leaves the genre's range,
          // so on the +6 dB/oct error (partly inside Pop's range) the spec chain's fixed shelves can land as
          // close (1.7-2.0 dB both); only the bass shelf, far outside, must beat it.
          if (name === 'pink with a -8 dB bass shelf') expect(after).toBeLessThan(specAfter);
        }
      }
      console.log(`[tone] ${name}\n  ${rows.join('\n  ')}`);
    });
  }

  it('material that already matches the curve: the corrective EQ moves no band by more than 0.5 dB', () => {
    for (const id of PRESET_IDS) {
      const tilt = PRESETS[id].toneTiltDbPerOctave;
      const source = shapedNoise({ log2Frames: 20, seed: 3, shapeDb: (hz) => targetCurveDb(hz, tilt) });
      const gains = fitToneEq(analyseTrack(source, RATE).midDb, RATE, PRESETS[id].toneMatch / 100, tilt);
      const grid = Array.from({ length: 64 }, (_, i) => 40 * 2 ** (i / 7));
      const worst = Math.max(...toneEqResponseDb(gains, grid, RATE).map(Math.abs));
      expect(worst).toBeLessThanOrEqual(0.5);
    }
  });

  it('the corrective EQ never exceeds +/-4 dB, whatever the error', () => {
    const wild = shapedNoise({
      log2Frames: 18,
      shapeDb: (hz) => 12 * Math.sin(Math.log2(hz)) - 6 * Math.log2(hz / 1000),
    });
    const gains = fitToneEq(analyseTrack(wild, RATE).midDb, RATE, 1);
    expect(gains).toHaveLength(TONE_EQ_HZ.length);
    const grid = Array.from({ length: 200 }, (_, i) => 20 * 2 ** (i / 20));
    expect(Math.max(...toneEqResponseDb(gains, grid, RATE).map(Math.abs))).toBeLessThanOrEqual(4 + 1e-9);
  });
});

describe('adaptive master: live path', { timeout: 120_000 }, () => {
  it('the streaming kernels with the plan (the worklet) give the offline adaptive samples', async () => {
    const source = musicLike({ seconds: 8, seed: 21 });
    const offline = source.map((c) => c.slice());
    const settings = PRESETS.balanced.settings;
    const report = await renderMaster(
      offline,
      RATE,
      { settings, targetLufs: -14, tone: { preset: 'balanced' } },
      { yieldFn: immediate },
    );
    expect(report.adaptive?.toneEqDb.some((g) => Math.abs(g) > 0.5)).toBe(true);
    // The worklet's path over the whole track gives the offline samples.
    expect(worstLiveDeviation(source, offline, RATE, settings, report.gainDb, report.adaptive)).toBeLessThan(
      1e-5,
    );
  });
});

describe('adaptive master: live plan', { timeout: 120_000 }, () => {
  it("the live plan on an excerpt, given the whole track's analysis, is the render's plan", async () => {
    const source = musicLike({ seconds: 40, seed: 8 });
    const whole = analyseTrack(source, RATE);
    const full = await renderMaster(
      source.map((c) => c.slice()),
      RATE,
      { settings: PRESETS.loud.settings, targetLufs: -9, tone: { preset: 'loud' }, planOnly: true },
      { yieldFn: immediate },
    );
    const excerpt = source.map((c) => c.slice(10 * RATE, 30 * RATE));
    const live = await renderMaster(
      excerpt,
      RATE,
      {
        settings: PRESETS.loud.settings,
        targetLufs: -9,
        tone: { preset: 'loud' },
        planOnly: true,
        analysis: whole,
      },
      { yieldFn: immediate },
    );
    expect(live.adaptive).toEqual(full.adaptive);
    // Without it, the excerpt's own analysis would plan a different EQ.
    const own = await renderMaster(
      source.map((c) => c.slice(10 * RATE, 30 * RATE)),
      RATE,
      { settings: PRESETS.loud.settings, targetLufs: -9, tone: { preset: 'loud' }, planOnly: true },
      { yieldFn: immediate },
    );
    expect(own.adaptive).not.toEqual(full.adaptive);
  });
});

describe('adaptive master: dynamics', { timeout: 240_000 }, () => {
  it('Balanced keeps at least 70 % of the input LRA (input <= 8 LU), whatever level the mix arrives at', async () => {
    const rows: string[] = [];
    // +8 dB: the loud sections peak near -1 dBFS, as a hot mix does.
    for (const gainDb of [-6, 0, 8]) {
      const source = sectionedNoise(RATE, gainDb);
      const input = measureLoudness(source, RATE, { truePeak: false }).loudnessRangeLu;
      expect(input).toBeLessThanOrEqual(8);
      const spec = await master(source, 'balanced', false);
      const adaptive = await master(source, 'balanced', true);
      const out = measureLoudness(adaptive.channels, RATE);
      const specLra = measureLoudness(spec.channels, RATE, { truePeak: false }).loudnessRangeLu;
      rows.push(
        `input ${gainDb >= 0 ? '+' : ''}${gainDb} dB: LRA ${input.toFixed(2)} -> spec chain ${specLra.toFixed(2)}, adaptive ${out.loudnessRangeLu.toFixed(2)} LU (${((100 * out.loudnessRangeLu) / input).toFixed(0)} %)`,
      );
      expect(out.loudnessRangeLu).toBeGreaterThanOrEqual(0.7 * input);
      expect(Math.abs(out.integratedLufs - PRESETS.balanced.targetLufs)).toBeLessThanOrEqual(0.5);
      expect(out.truePeakDbtp).toBeLessThanOrEqual(-1);
    }
    // Reported here; the rule for it is in lra-rule.test.ts (decision 116): the generated pop track's kicks
    // peak 19 dB over its loudness, so reaching -14 LUFS under -1 dBTP takes 7 dB of limiting, and the
    // limiter, not the compressor, sets its LRA.
    const pop = musicLike({ seconds: 64, seed: 1 });
    const popIn = measureLoudness(pop, RATE, { truePeak: false }).loudnessRangeLu;
    const popOut = measureLoudness((await master(pop, 'balanced', true)).channels, RATE, { truePeak: false });
    rows.push(`generated pop: LRA ${popIn.toFixed(2)} -> adaptive ${popOut.loudnessRangeLu.toFixed(2)} LU`);
    console.log(`[lra] Balanced\n  ${rows.join('\n  ')}`);
  });
});
