/**
 * The adaptive part of the chain, as plain data: computed once from the track's analysis (in the worker)
 * and handed to the MasteringProcessor in the render and, by a port message, in the live worklet, so both
 * run the same filters (decision 112).
 */
import type { Genre } from '../../shared/genres';
import {
  DEFAULT_CUSTOM_SETTINGS,
  type MasteringSettings,
  PRESETS,
  type PresetId,
} from '../../shared/mastering';
import { biquadResponseDb, designBiquad } from './biquad';
import {
  BROAD_LIMIT_DB,
  type Departure,
  departureFrom,
  GENRE_TARGETS,
  genreCurve,
  genreRange,
  NARROW_LIMIT_DB,
  shapedDeviation,
  smoothOctave,
  suggestGenreFor,
  type TrackGenreSuggestion,
} from './genre-targets';
import { masteringChainParams } from './mastering-processor';
import type { BandDynamics } from './multiband-compressor';
import { referenceBandwidth, withoutEmptyBands } from './reference-bandwidth';
import { rangeSafeShare } from './section-balance';
import { deviationFromCurve } from './tonal-target';
import {
  bandAverageDb,
  bandResponseDb,
  type EqGrid,
  fitEqToDeviation,
  octaveMovesDb,
  REFERENCE_EQ_GRID,
  REFERENCE_EQ_LIMIT_DB,
  TONE_EQ_GRID,
} from './tone-eq';
import type { TrackAnalysis } from './track-analysis';
import { THIRD_OCTAVE_CENTRES } from './track-analysis';

/**
 * Crossover of the side high-pass. Above the 120 Hz the mono check measures: a 4th-order Linkwitz-Riley
 * is only -6 dB at its corner, so at 160 Hz the side under 120 Hz is ~15 dB down or more and the low
 * band's correlation stays >= 0.9 even for uncorrelated (wide) bass.
 */
export const SIDE_HIGHPASS_HZ = 160;
/** Low-end correlation under which the bass counts as out of phase (uncorrelated bass reads about 0). */
export const OUT_OF_PHASE_BELOW = -0.3;
/** Reference mastering matches the side from here up; below, the mono bass rules (decision 112). */
export const SIDE_MATCH_FROM_HZ = 200;

export interface AdaptivePlan {
  /** Gains of the corrective EQ sections at eqGrid's frequencies, dB. */
  toneEqDb: number[];
  /** Reference mastering: gains of an EQ on the side only (same grid), on top of toneEqDb; null otherwise. */
  sideEqDb: number[] | null;
  /** Where the sections sit: the octave grid for the curve match, 1/3 octave for a reference. */
  eqGrid: EqGrid;
  /** Side content below this frequency is removed (Linkwitz-Riley high-pass on the side); 0: off. */
  bassMonoHz: number;
  /**
   * The low end is mostly out of phase (correlation < -0.3): its bass lives in the side and would vanish in
   * mono, so the side's low band is moved into the mid instead of being dropped.
   */
  bassFromSide: boolean;
  /**
   * The multiband compressor's bands as measured (their crest factors set its thresholds with the
   * Compression slider, so a slider move needs no new plan); null: the spec's single-band compressor.
   */
  bandDynamics: BandDynamics[] | null;
  /** What the EQ matched: the preset's target curve or a reference track. */
  matched: 'curve' | 'reference';
  /** The amount (0..1) and tilt the EQ was fitted with, for display. */
  toneMatch: number;
  tiltDbPerOctave: number;
  /** The genre target the curve match used (issue 28); null for reference mastering. */
  genre: GenrePlan | null;
}

/** What the genre-aware match decided, for the "why" panel (decision 213). */
export interface GenrePlan {
  genre: Genre;
  /** True when the genre was chosen (by the user or the mix's arrangement); false: suggested here. */
  chosen: boolean;
  suggestion: TrackGenreSuggestion;
  departure: Departure;
  /** The share of the deviation corrected: preset amount x genre strength x confidence, 0..1. */
  share: number;
  /** Per octave band (63 Hz-16 kHz): the track against the genre's curve, the range and the EQ's move, dB. */
  bands: { hz: number; trackDb: number; rangeDb: number; moveDb: number }[];
}

export interface ToneChoice {
  /** 0..100 %; default the preset's. In reference mastering: how much of the reference's tone to take. */
  toneMatch?: number;
  preset: PresetId;
  /** The genre whose target the curve match aims at; absent: the one the analysis suggests. */
  genre?: Genre;
  /**
   * Reference mastering (manual mode): match this track's mid and side spectra instead of the target
   * curve (decision 114). Its loudness is the caller's target.
   */
  reference?: TrackAnalysis;
  /**
   * Issue 31, a track of an album (album-plan.ts, decision 281): the correction the album plan decided for
   * this track, on the 1/3-octave grid (THIRD_OCTAVE_CENTRES; positive where the track should come down,
   * NaN where nothing is fitted), already shaped and shared. It replaces the track's own departure from the
   * genre; the chain's fixed filters and the range rule (decision 218) still apply.
   */
  album?: { correctionDb: number[] };
}

/** The chain's fixed filters at neutral sliders (high-pass 30 Hz, presence at brightness 50) per band. */
const neutralChainDb = (rate: number): number[] =>
  chainDb({ ...DEFAULT_CUSTOM_SETTINGS, brightness: 50, warmth: 50 }, rate);

/** The chain's fixed filters (high-pass, shelves, presence peak) at these settings, per 1/3-octave band. */
export const chainDb = (settings: MasteringSettings, rate: number): number[] => {
  const p = masteringChainParams(settings, rate);
  const filters = [p.highpass, p.lowShelf, p.highShelf, p.peaking];
  return bandAverageDb(
    (f) => f.map((hz) => filters.reduce((s, c) => s + biquadResponseDb(c, hz, rate), 0)),
    THIRD_OCTAVE_CENTRES,
  );
};

/**
 * The side's mono-bass high-pass per band, from 200 Hz up, where the side is matched; below, the bass is
 * kept mono on purpose and is not boosted back.
 */
const sideHighpassDb = (rate: number): number[] => {
  const hp = designBiquad({ kind: 'highpass', frequency: SIDE_HIGHPASS_HZ, q: Math.SQRT1_2 }, rate);
  const db = bandAverageDb((f) => f.map((hz) => 2 * biquadResponseDb(hp, hz, rate)), THIRD_OCTAVE_CENTRES);
  return db.map((v, k) => (THIRD_OCTAVE_CENTRES[k]! >= SIDE_MATCH_FROM_HZ ? v : 0));
};

export const adaptivePlanFor = (
  analysis: TrackAnalysis,
  channels: number,
  choice: ToneChoice,
): AdaptivePlan => {
  const preset = PRESETS[choice.preset];
  const toneMatch = Math.min(100, Math.max(0, choice.toneMatch ?? preset.toneMatch)) / 100;
  const tilt = preset.toneTiltDbPerOctave;
  const reference = choice.reference;
  const rate = analysis.sampleRate;
  let toneEqDb: number[];
  let sideEqDb: number[] | null = null;
  let genre: { plan: GenrePlan; toneEqDb: number[] } | null = null;
  if (reference) {
    // Mid toward the reference's mid; the side toward the reference's side, measured against the mid's
    // level offset (so width is matched too) and fitted on top of what the mid EQ already does to it.
    // The fit counts what the chain does at its neutral slider positions (30 Hz high-pass, the spec's
    // presence peak, the side's mono-bass high-pass), so 100 % lands on the reference and a slider moved
    // from 50 moves the tone from there, as with the curve match (decision 115).
    const grid = REFERENCE_EQ_GRID;
    const neutral = neutralChainDb(rate);
    // A band-limited (lossy) reference's empty top bands are left out, not copied (decision 243).
    const bandwidth = referenceBandwidth(reference.midDb);
    const mid = deviationFromCurve(analysis.midDb, withoutEmptyBands(reference.midDb, bandwidth));
    const midAlready = neutral.map((v) => v * toneMatch);
    toneEqDb = fitEqToDeviation(mid.deviation, rate, toneMatch, midAlready, REFERENCE_EQ_LIMIT_DB, grid);
    if (channels === 2 && reference.sideDb.some(Number.isFinite)) {
      const refSide = withoutEmptyBands(reference.sideDb, bandwidth);
      const side = deviationFromCurve(analysis.sideDb, refSide, mid.offset);
      const eq = bandResponseDb(toneEqDb, THIRD_OCTAVE_CENTRES, rate, grid);
      const mono = sideHighpassDb(rate);
      const already = eq.map((v, k) => v + (neutral[k]! + mono[k]!) * toneMatch);
      sideEqDb = fitEqToDeviation(side.deviation, rate, toneMatch, already, REFERENCE_EQ_LIMIT_DB, grid);
    }
  } else {
    genre = genrePlanFor(analysis, choice, toneMatch, tilt);
    toneEqDb = genre.toneEqDb;
  }
  const scale = genre ? GENRE_TARGETS[genre.plan.genre].crestScale : 1;
  return {
    toneEqDb,
    sideEqDb,
    eqGrid: reference ? REFERENCE_EQ_GRID : TONE_EQ_GRID,
    bassMonoHz: channels === 2 ? SIDE_HIGHPASS_HZ : 0,
    bassFromSide: channels === 2 && analysis.lowEndCorrelation < OUT_OF_PHASE_BELOW,
    // The genre's dynamics profile: the thresholds sit at crestScale x the measured crest (decision 214).
    bandDynamics:
      analysis.bandDynamics?.map((b) => ({
        rmsDb: b.rmsDb,
        peakDb: b.rmsDb + (b.peakDb - b.rmsDb) * scale,
      })) ?? null,
    matched: reference ? 'reference' : 'curve',
    toneMatch,
    tiltDbPerOctave: tilt,
    genre: genre?.plan ?? null,
  };
};

/** Octave centres the "why" panel lists. */
const OCTAVES = [63, 125, 250, 500, 1000, 2000, 4000, 8000, 16000];

/**
 * The curve match toward the genre's target (decision 213): the correction is `share` of the deviation,
 * where the share grows with how far and how consistently the track leaves the genre's range (a finished
 * mix inside it is left alone), broad moves up to +/-8 dB, narrow ones +/-3 dB.
 */
/** Share of the sections' loudness range a genre's tone correction must keep (the LRA rule keeps 70 %). */
const RANGE_KEPT = 0.78;

const genrePlanFor = (
  analysis: TrackAnalysis,
  choice: ToneChoice,
  toneMatch: number,
  tilt: number,
): { plan: GenrePlan; toneEqDb: number[] } => {
  const deviationFor = (g: Genre) => deviationFromCurve(analysis.midDb, genreCurve(g, tilt)).deviation;
  // The suggestion does not depend on the preset: one "sounds like" for the track.
  const suggestion = suggestGenreFor(analysis);
  const genre = choice.genre ?? suggestion.genre;
  const deviation = deviationFor(genre);
  const range = genreRange(genre);
  const departure = departureFrom(deviation, range);
  // An album's track takes the correction its album plan decided, whole (the plan applied the shares).
  const album = choice.album?.correctionDb;
  const share = album ? 1 : toneMatch * GENRE_TARGETS[genre].strength * departure.confidence;
  const rate = analysis.sampleRate;
  // Do no harm: the EQ also takes out what the chain's fixed filters (presence peak, shelves) would add at
  // the preset's settings (in manual mode at neutral sliders, so a slider still moves the tone from there),
  // so a mix inside its range comes out with its own tone (decision 213).
  const settings =
    choice.toneMatch === undefined
      ? PRESETS[choice.preset].settings
      : { ...DEFAULT_CUSTOM_SETTINGS, brightness: 50, warmth: 50 };
  const already = chainDb(settings, rate);
  const fitAt = (s: number) =>
    fitEqToDeviation(
      album ? album.map((v) => v * s) : shapedDeviation(deviation, s),
      rate,
      1,
      already,
      BROAD_LIMIT_DB + NARROW_LIMIT_DB,
    );
  // The LRA rule (decision 116) before the tone: a correction that would narrow the sections' loudness range
  // below RANGE_KEPT of the track's own is taken only as far as it keeps that (decision 218).
  const safe = rangeSafeShare(
    analysis.sectionOctavesDb ?? [],
    (s) => octaveMovesDb(fitAt(share * s), TONE_EQ_GRID, rate),
    RANGE_KEPT,
  );
  const toneEqDb = fitAt(share * safe);
  const moves = octaveMovesDb(toneEqDb, TONE_EQ_GRID, rate);
  const smooth = smoothOctave(deviation);
  const nearest = (hz: number) =>
    THIRD_OCTAVE_CENTRES.reduce(
      (best, fc, k) =>
        Math.abs(Math.log(fc / hz)) < Math.abs(Math.log(THIRD_OCTAVE_CENTRES[best]! / hz)) ? k : best,
      0,
    );
  const bands = OCTAVES.map((hz, i) => {
    const k = nearest(hz);
    return { hz, trackDb: smooth[k]!, rangeDb: range[k]!, moveDb: moves[i]! };
  });
  return {
    plan: { genre, chosen: choice.genre !== undefined, suggestion, departure, share: share * safe, bands },
    toneEqDb,
  };
};

/** The genre the analysis suggests ("sounds like"): the one core both pages use (decision 305). */
export { suggestGenreFor };
