/**
 * Genre targets (issue 28, decisions 212-214): per genre, a tonal target (the base curve of tonal-target.ts
 * shaped by a bass shelf, a mid bump and a change of the slope above 1 kHz), the range around it that a
 * finished mix of that genre occupies, the correction strength, and a dynamics profile (how much of the
 * band crest the multiband compressor leaves alone).
 *
 * Sources (decision 212): the base curve's eleven produced tracks and the Debian game-music tracks measured
 * here (asc-music, hyperrogue-music), and the long-term average spectra of commercial recordings published
 * by Pestana et al. (AES 135, 2013: more low end in hip-hop and electronic music, brighter rock, the roughly
 * -4.5 dB/octave slope of mastered music) and Elowsson & Friberg (AES 2017: the slope above 1 kHz varies
 * with the level of the percussion; acoustic and classical recordings fall faster). The offsets below are
 * this project's reading of those, not figures copied from them.
 */
import { GENRE_LABELS, GENRES, type Genre } from '../../shared/genres';
import { deviationFromCurve, MATCH_BANDS, targetCurveDb } from './tonal-target';
import { THIRD_OCTAVE_CENTRES, type TrackAnalysis } from './track-analysis';

export interface GenreTarget {
  /**
   * The genre's shape against the base curve at the octave centres GENRE_OCTAVES_HZ (63 Hz-16 kHz), dB;
   * linear in log frequency between them. Only the shape counts (the level is removed in the match).
   */
  offsetsDb: readonly number[];
  /** Half-width of the range a finished mix of the genre sits in, dB (half as wide again at both ends). */
  rangeDb: number;
  /** How much of the preset's correction this genre takes (1: all). */
  strength: number;
  /**
   * Dynamics profile: the multiband compressor's thresholds are scaled by this share of each band's crest
   * (above 1: gentler, for dynamic genres; below: denser).
   */
  crestScale: number;
}

export const GENRE_OCTAVES_HZ: readonly number[] = [63, 125, 250, 500, 1000, 2000, 4000, 8000, 16000];

/**
 * Hip-hop and EDM: the most sub-bass and the "smile" (scooped 500 Hz-1 kHz, bright top) of electronic
 * production; rock: forward upper mids and top; acoustic and jazz/classical: less sub-bass, a body at
 * 250 Hz-1 kHz and a top that falls faster (decision 212, with the measured tracks).
 */
export const GENRE_TARGETS: Readonly<Record<Genre, GenreTarget>> = {
  hiphop: { offsetsDb: [4, 3, 0.5, -1.5, -2, -1.5, -0.5, 0, 0], rangeDb: 3, strength: 1, crestScale: 0.9 },
  pop: { offsetsDb: [1.5, 1.5, 0, -1, -1.5, -0.5, 1, 1.5, 1.5], rangeDb: 3, strength: 1, crestScale: 1 },
  rnb: { offsetsDb: [2.5, 2.5, 0.5, -1, -1.5, -1, 0, 0, -0.5], rangeDb: 3, strength: 1, crestScale: 1 },
  rock: { offsetsDb: [0, 1, 0.5, -1, -2, 0, 2, 2.5, 2], rangeDb: 3, strength: 1, crestScale: 1 },
  edm: { offsetsDb: [3.5, 2, -0.5, -3.5, -4.5, -2, 2, 4, 4], rangeDb: 3, strength: 1, crestScale: 0.9 },
  acoustic: {
    offsetsDb: [-2.5, 0, 1, 1, 0.5, 0, -0.5, -1, -1.5],
    rangeDb: 3.5,
    strength: 0.9,
    crestScale: 1.15,
  },
  jazz: {
    offsetsDb: [-1.5, 2, 1.5, 1, 1.5, 0.5, -1.5, -2, -3],
    rangeDb: 3.5,
    strength: 0.9,
    crestScale: 1.3,
  },
};

/** The genre's target level at `hz`, dB re the base curve's 1 kHz (preset tilt added around 1 kHz). */
export const genreCurveDb = (genre: Genre, hz: number, tiltDbPerOctave = 0): number => {
  const o = GENRE_TARGETS[genre].offsetsDb;
  const x = Math.min(o.length - 1, Math.max(0, Math.log2(hz / GENRE_OCTAVES_HZ[0]!)));
  const i = Math.min(o.length - 2, Math.floor(x));
  const offset = o[i]! + (o[i + 1]! - o[i]!) * (x - i);
  return targetCurveDb(hz, tiltDbPerOctave) + offset;
};

/** The genre's curve on the 1/3-octave grid. */
export const genreCurve = (genre: Genre, tiltDbPerOctave = 0): number[] =>
  THIRD_OCTAVE_CENTRES.map((fc) => genreCurveDb(genre, fc, tiltDbPerOctave));

/** Half-width of the genre's range per 1/3-octave band: half as wide again under 63 Hz and above 8 kHz. */
export const genreRange = (genre: Genre): number[] =>
  THIRD_OCTAVE_CENTRES.map((fc) => GENRE_TARGETS[genre].rangeDb * (fc < 63 || fc > 8000 ? 1.5 : 1));

/** Smooths over about one octave (1/3-octave neighbours weighted 1, 2, 1), skipping NaN bands. */
export const smoothOctave = (values: readonly number[]): number[] =>
  values.map((v, k) => {
    if (!Number.isFinite(v)) return Number.NaN;
    let sum = 0;
    let weight = 0;
    for (let d = -1; d <= 1; d++) {
      const u = values[k + d];
      if (u === undefined || !Number.isFinite(u)) continue;
      const w = d === 0 ? 2 : 1;
      sum += w * u;
      weight += w;
    }
    return sum / weight;
  });

export interface Departure {
  /** RMS over the matched bands of how far the (octave-smoothed) deviation lies outside the range, dB. */
  outsideDb: number;
  /**
   * 0..1: how much of that lies in broad, one-signed regions (a shelf or a tilt) rather than in scattered
   * bands — a dull or harsh take departs consistently; a mix with character wanders.
   */
  consistency: number;
  /** 0..1: the share of the preset's correction applied (0 inside the range, 1 clearly outside). */
  confidence: number;
}

/** Where confidence starts and where it is full: outside-the-range RMS times consistency, dB. */
export const CONFIDENCE_FROM_DB = 0.4;
export const CONFIDENCE_FULL_DB = 1.3;

/** How far and how consistently a deviation (deviationFromCurve against the genre's curve) leaves the range. */
export const departureFrom = (deviation: readonly number[], range: readonly number[]): Departure => {
  const smooth = smoothOctave(deviation);
  const outside = smooth.map((d, k) =>
    Number.isFinite(d) ? Math.sign(d) * Math.max(0, Math.abs(d) - range[k]!) : Number.NaN,
  );
  const used = MATCH_BANDS.filter((k) => Number.isFinite(outside[k]!));
  if (used.length === 0) return { outsideDb: 0, consistency: 0, confidence: 0 };
  const energy = (values: readonly number[]) => used.reduce((s, k) => s + values[k]! ** 2, 0);
  const total = energy(outside);
  const outsideDb = Math.sqrt(total / used.length);
  // Two more octave smoothings keep a shelf or a tilt and cancel a band-to-band zigzag.
  const broad = smoothOctave(smoothOctave(outside));
  const consistency = total > 0 ? Math.min(1, energy(broad) / total) : 0;
  const score = outsideDb * consistency;
  const confidence = Math.min(
    1,
    Math.max(0, (score - CONFIDENCE_FROM_DB) / (CONFIDENCE_FULL_DB - CONFIDENCE_FROM_DB)),
  );
  return { outsideDb, consistency, confidence };
};

/** Broad moves (shelves, tilts) may go this far; what is left band by band, only NARROW_LIMIT_DB. */
export const BROAD_LIMIT_DB = 8;
export const NARROW_LIMIT_DB = 3;

/**
 * The correction as a "deviation" for fitEqToDeviation at amount 1: `share` of the smoothed deviation, its
 * broad part (two more octave smoothings) limited to +/-8 dB and the rest to +/-3 dB.
 */
export const shapedDeviation = (deviation: readonly number[], share: number): number[] => {
  const smooth = smoothOctave(deviation);
  const broad = smoothOctave(smoothOctave(smooth));
  // The level does not count (the loudness stage sets it): the broad move is centred before its limit, so
  // a tilt may reach +/-8 dB at both ends.
  const used = MATCH_BANDS.map((k) => share * broad[k]!).filter(Number.isFinite);
  const centre = used.length > 0 ? (Math.max(...used) + Math.min(...used)) / 2 : 0;
  const clamp = (v: number, limit: number) => Math.max(-limit, Math.min(limit, v));
  return smooth.map((d, k) =>
    Number.isFinite(d)
      ? clamp(share * broad[k]! - centre, BROAD_LIMIT_DB) + clamp(share * (d - broad[k]!), NARROW_LIMIT_DB)
      : Number.NaN,
  );
};

/** "sounds like": the genre whose range the track leaves least, with the figures that decided it. */
export interface TrackGenreSuggestion {
  genre: Genre;
  /** Outside-the-range RMS of each genre, dB, in GENRES order. */
  outsideDb: number[];
  /** Bass (63-125 Hz) minus mids (500 Hz-2 kHz) of the track, dB. */
  bassOverMidsDb: number;
  /** Slope above 1 kHz of the track, dB per octave (1-10 kHz, least squares). */
  highSlopeDbPerOctave: number;
  /** The reason, in words. */
  because: string;
}

const bandMean = (levels: readonly number[], lo: number, hi: number): number => {
  const ks = THIRD_OCTAVE_CENTRES.flatMap((fc, k) =>
    fc >= lo && fc <= hi && Number.isFinite(levels[k]!) ? [k] : [],
  );
  return ks.reduce((s, k) => s + levels[k]!, 0) / Math.max(1, ks.length);
};

const highSlope = (levels: readonly number[]): number => {
  const pts = THIRD_OCTAVE_CENTRES.flatMap((fc, k) =>
    fc >= 1000 && fc <= 10000 && Number.isFinite(levels[k]!) ? [[Math.log2(fc / 1000), levels[k]!]] : [],
  ) as [number, number][];
  if (pts.length < 2) return 0;
  const mx = pts.reduce((s, p) => s + p[0], 0) / pts.length;
  const my = pts.reduce((s, p) => s + p[1], 0) / pts.length;
  const sxy = pts.reduce((s, p) => s + (p[0] - mx) * (p[1] - my), 0);
  const sxx = pts.reduce((s, p) => s + (p[0] - mx) ** 2, 0);
  return sxy / sxx;
};

const fmt = (v: number) => `${v >= 0 ? '+' : '−'}${Math.abs(v).toFixed(1)}`;

/** Above this PLR a mix is dynamic, under DENSE_PLR_DB dense: the suggestion leans by LEAN_DB. */
export const DYNAMIC_PLR_DB = 16;
export const DENSE_PLR_DB = 10;
const LEAN_DB = 0.5;

/** dB taken off a genre's outside-the-range figure when the mix's density suits its dynamics profile. */
export const genreLeanDb = (genre: Genre, plrDb: number): number => {
  const dynamic = GENRE_TARGETS[genre].crestScale > 1;
  const dense = GENRE_TARGETS[genre].crestScale < 1;
  if (plrDb > DYNAMIC_PLR_DB) return dynamic ? -LEAN_DB : 0;
  if (plrDb < DENSE_PLR_DB) return dense ? -LEAN_DB : 0;
  return 0;
};

/**
 * The genre suggested from the analysis: the smallest outside-the-range RMS, where a dynamic mix (PLR over
 * 16 dB) leans to the dynamic genres and a dense one (under 10 dB) to the dense ones by 0.5 dB.
 */
export const suggestGenre = (
  midDb: readonly number[],
  plrDb: number,
  deviationFor: (genre: Genre) => number[],
): TrackGenreSuggestion => {
  const outsideDb = GENRES.map((g) => departureFrom(deviationFor(g), genreRange(g)).outsideDb);
  const lean = (g: Genre) => genreLeanDb(g, plrDb);
  let best = 0;
  GENRES.forEach((g, i) => {
    if (outsideDb[i]! + lean(g) < outsideDb[best]! + lean(GENRES[best]!)) best = i;
  });
  const genre = GENRES[best]!;
  const bassOverMidsDb = bandMean(midDb, 63, 125) - bandMean(midDb, 500, 2000);
  const highSlopeDbPerOctave = highSlope(midDb);
  const because =
    `bass ${fmt(bassOverMidsDb)} dB over the mids, top ${fmt(highSlopeDbPerOctave)} dB/octave, ` +
    `PLR ${plrDb.toFixed(1)} dB: closest to the ${GENRE_LABELS[genre]} range ` +
    `(${outsideDb[best]!.toFixed(1)} dB outside it)`;
  return { genre, outsideDb, bassOverMidsDb, highSlopeDbPerOctave, because };
};

/**
 * The suggested genre of a track or a beat (decision 305): the one suggester of the product. The mastering
 * page asks it about the track it masters, the mixer about the beat (genre-suggest.ts words its reasons), so
 * the same audio gets the same genre on both pages; its answer is also the target the least correction
 * reaches, which the mastering page's "do no harm" depends on.
 */
export const suggestGenreFor = (analysis: TrackAnalysis, tiltDbPerOctave = 0): TrackGenreSuggestion =>
  suggestGenre(
    analysis.midDb,
    analysis.plrDb,
    (g) => deviationFromCurve(analysis.midDb, genreCurve(g, tiltDbPerOctave)).deviation,
  );
