/**
 * The ffmpeg graphs the mastering benchmark times ours against (bench/audio-master.bench.ts):
 * - the spec chain (spec 9: highpass, one acompressor, two shelves, the presence peak, width, gain,
 *   alimiter): less work than the product's adaptive render, the reference the targets were set against;
 * - the equal-work graph (issue 28): what the product's render does, stage for stage, in ffmpeg's filters:
 *   an analysis pass over the input (ebur128 with true peak for loudness, LRA and peak; astats for peak,
 *   RMS and crest; aspectralstats for the spectrum), then highpass, the corrective EQ's sections at the
 *   plan's frequencies and gains, `acrossover` into the three bands with an `acompressor` each, their sum,
 *   the shelves and presence peak, width, gain, `alimiter`, and `ebur128=peak=true` on the output (ours
 *   measures its output's loudness and true peaks to solve the gain).
 */
import { masteringChainParams } from '../src/audio/dsp/mastering-processor';
import { MULTIBAND_CROSSOVER, multibandParamsFor } from '../src/audio/dsp/multiband-compressor';
import { TONE_EQ_GRID } from '../src/audio/dsp/tone-eq';
import { PRESETS, type PresetId, TRUE_PEAK_CEILING_DBTP } from '../src/shared/mastering';
import { RATE } from './audio-bench-common';

/** A threshold in dB as acompressor's and alimiter's linear value (their range: 2^-10..1). */
const lin = (db: number) => Math.min(1, Math.max(0.000976563, 10 ** (db / 20))).toFixed(6);
/** acompressor's knee is a linear factor (1..8). */
const knee = (db: number) => Math.min(8, Math.max(1, 10 ** (db / 20))).toFixed(6);

/** What the product's render planned (the harness returns it): the EQ's gains and the bands' levels. */
export interface RenderPlan {
  gainDb: number;
  toneEqDb: number[] | null;
  bandDynamics: { rmsDb: number; peakDb: number }[] | null;
}

const tail = (preset: PresetId, gainDb: number) => {
  const p = masteringChainParams(PRESETS[preset].settings, RATE);
  return [
    `lowshelf=f=200:g=${p.warmthDb}`,
    `highshelf=f=8000:g=${p.brightnessDb}`,
    `equalizer=f=3000:t=q:w=1:g=${p.presenceDb}`,
    `stereotools=slev=${p.stereoWidth / 50}`,
    `volume=${gainDb.toFixed(2)}dB`,
    `alimiter=limit=${lin(TRUE_PEAK_CEILING_DBTP)}:attack=5:release=50:level=0`,
  ];
};

/** The spec chain as one `-af` graph. */
export const specChain = (preset: PresetId, gainDb: number): string => {
  const p = masteringChainParams(PRESETS[preset].settings, RATE);
  const c = p.compressor;
  return [
    'highpass=f=30:p=2',
    `acompressor=threshold=${lin(c.thresholdDb)}:ratio=${c.ratio}:knee=${knee(c.kneeDb)}:attack=${c.attackMs}:release=${c.releaseMs}:makeup=1`,
    ...tail(preset, gainDb),
  ].join(',');
};

/** The equal-work analysis pass's `-af` graph (its figures are printed to stderr and discarded). */
export const EQUAL_WORK_ANALYSIS =
  'ebur128=peak=true,astats=measure_perchannel=none:measure_overall=Peak_level+RMS_level+Crest_factor,aspectralstats=win_size=4096';

/**
 * The equal-work chain as a `-filter_complex` graph with output label [out]. The bands' thresholds are
 * absolute in ffmpeg: each sits at the band's measured RMS plus the relative threshold ours computes.
 */
export const equalWorkChain = (preset: PresetId, plan: RenderPlan): string => {
  const settings = PRESETS[preset].settings;
  const eq = TONE_EQ_GRID.hz.map(
    (hz, j) => `equalizer=f=${hz}:t=q:w=${TONE_EQ_GRID.q}:g=${(plan.toneEqDb?.[j] ?? 0).toFixed(2)}`,
  );
  const bands = plan.bandDynamics ?? [
    { rmsDb: -24, peakDb: -6 },
    { rmsDb: -24, peakDb: -6 },
    { rmsDb: -24, peakDb: -6 },
  ];
  const params = multibandParamsFor(settings.compression, bands);
  const compressors = params.map(
    (c, b) =>
      `[b${b}]acompressor=threshold=${lin(bands[b]!.rmsDb + c.thresholdDb)}:ratio=${c.ratio}:knee=${knee(c.kneeDb)}:attack=${c.attackMs}:release=${c.releaseMs}:makeup=1[c${b}]`,
  );
  return [
    `[0:a]highpass=f=30:p=2,${eq.join(',')},acrossover=split=${MULTIBAND_CROSSOVER.lowHz} ${MULTIBAND_CROSSOVER.highHz}:order=4th[b0][b1][b2]`,
    ...compressors,
    `[c0][c1][c2]amix=inputs=3:normalize=0,${tail(preset, plan.gainDb).join(',')},ebur128=peak=true[out]`,
  ].join(';');
};
