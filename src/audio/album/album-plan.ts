/**
 * The album's loudness and tone plan (issue 31 item 2; decisions 280 and 281).
 *
 * Loudness (280): the loudest track of the record at the preset's target, every other one its distance under
 * it. The distance is the user's, or estimated from how dense each track is: its peak-to-loudness ratio over
 * the densest track's (the level each would have if all were limited alike to one ceiling, so a ballad sits
 * under the single and a track uploaded 8 dB too quiet is not planned 8 dB quieter). Capped at
 * ALBUM_SPREAD_LIMIT_LU.
 *
 * Tone (281): each track against the genre's curve (decision 213's deviation); the album's own balance is the
 * band-by-band median of those; a track is corrected toward that balance only as far as it departs from it
 * (decision 213's confidence ramp, with the album as the target), and the whole album moves toward the genre
 * as one track would (preset amount x genre strength x the album's confidence), the same move for all.
 */
import { GENRE_LABELS, type Genre } from '../../shared/genres';
import { PRESETS } from '../../shared/mastering';
import { adaptivePlanFor, chainDb, type ToneChoice } from '../dsp/adaptive-plan';
import {
  BROAD_LIMIT_DB,
  departureFrom,
  GENRE_OCTAVES_HZ,
  GENRE_TARGETS,
  genreCurve,
  genreRange,
  shapedDeviation,
  smoothOctave,
  suggestGenre,
} from '../dsp/genre-targets';
import { deviationFromCurve, MATCH_BANDS } from '../dsp/tonal-target';
import { bandResponseDb, TONE_EQ_GRID } from '../dsp/tone-eq';
import { THIRD_OCTAVE_CENTRES } from '../dsp/track-analysis';
import {
  ALBUM_MAX_TRACKS,
  ALBUM_MIN_TRACKS,
  type AlbumMasterJob,
  type AlbumPlan,
  type AlbumPlanInput,
  type AlbumTrackPlan,
} from './album-api';
import { median, tiltDb } from './album-figures';

/**
 * The largest distance under the loudest track, LU (decision 280): album playback on Spotify and Tidal keeps
 * any spread (one gain for the record), but a track played alone (shuffle, playlists) is lifted only while its
 * true peak stays under -1 dBTP on Spotify and never on Tidal, so a track further down stays that far down
 * beside other records.
 */
export const ALBUM_SPREAD_LIMIT_LU = 6;

/** A record's own range around its balance, shown as the departure's confidence: this share of the genre's. */
export const ALBUM_RANGE_SHARE = 0.5;
/** A track's broad departure from the album's balance up to this is left alone, dB (decision 281). */
export const ALBUM_TOLERANCE_DB = 1;

const broadPart = (deviation: readonly number[]) => smoothOctave(smoothOctave(smoothOctave(deviation)));
/** The level does not count (the loudness stage sets it): centred, then held to decision 213's broad limit. */
const centredWithinLimit = (values: readonly number[]) => {
  const used = MATCH_BANDS.map((k) => values[k]!).filter(Number.isFinite);
  const centre = used.length > 0 ? (Math.max(...used) + Math.min(...used)) / 2 : 0;
  return values.map((v) => Math.max(-BROAD_LIMIT_DB, Math.min(BROAD_LIMIT_DB, v - centre)));
};
const beyondTolerance = (values: readonly number[]) =>
  values.map((v) => (Number.isFinite(v) ? Math.sign(v) * Math.max(0, Math.abs(v) - ALBUM_TOLERANCE_DB) : v));

const nearestBand = (hz: number): number =>
  THIRD_OCTAVE_CENTRES.reduce(
    (best, fc, k) =>
      Math.abs(Math.log(fc / hz)) < Math.abs(Math.log(THIRD_OCTAVE_CENTRES[best]! / hz)) ? k : best,
    0,
  );
const OCTAVE_BANDS = GENRE_OCTAVES_HZ.map(nearestBand);
const atOctaves = (values: readonly number[]) => OCTAVE_BANDS.map((k) => values[k]!);

/** Per band, the median over tracks (NaN where no track has the band). */
const bandMedian = (rows: readonly (readonly number[])[]): number[] =>
  THIRD_OCTAVE_CENTRES.map((_, k) => median(rows.map((r) => r[k]!)));

/** Levels with their mean over the matched bands removed: the shape of a spectrum, not its level. */
const shapeOf = (levels: readonly number[]): number[] => {
  const used = MATCH_BANDS.map((k) => levels[k]!).filter(Number.isFinite);
  const mean = used.reduce((s, v) => s + v, 0) / Math.max(1, used.length);
  return levels.map((v) => v - mean);
};

const checkInput = (input: AlbumPlanInput) => {
  const n = input.tracks.length;
  if (n < ALBUM_MIN_TRACKS || n > ALBUM_MAX_TRACKS)
    throw new RangeError(`An album holds ${ALBUM_MIN_TRACKS} to ${ALBUM_MAX_TRACKS} tracks`);
  if (new Set(input.tracks.map((t) => t.id)).size !== n) throw new RangeError('Track ids must differ');
};

/** The genre the album's own balance suggests: the median shape of its tracks, at the median PLR. */
const albumGenre = (input: AlbumPlanInput, tilt: number) => {
  const shape = bandMedian(input.tracks.map((t) => shapeOf(t.analysis.midDb)));
  const plr = median(input.tracks.map((t) => t.analysis.plrDb));
  return suggestGenre(shape, plr, (g) => deviationFromCurve(shape, genreCurve(g, tilt)).deviation);
};

/** Distances under the loudest (decision 280): the user's where given, else the PLR estimate; capped. */
const distances = (input: AlbumPlanInput): { lu: number[]; fromUser: boolean[] } => {
  const plrs = input.tracks.map((t) => t.analysis.plrDb);
  const densest = Math.min(...plrs.filter(Number.isFinite));
  const cap = (v: number) => Math.min(ALBUM_SPREAD_LIMIT_LU, Math.max(0, v));
  const raw = input.tracks.map((t, i) =>
    t.distanceLu !== undefined && Number.isFinite(t.distanceLu)
      ? cap(t.distanceLu)
      : Number.isFinite(plrs[i]!)
        ? cap(plrs[i]! - densest)
        : // A silent track (no loudness, so no PLR) is the sparsest there is.
          ALBUM_SPREAD_LIMIT_LU,
  );
  // The loudest track sits at the target: distances count from the smallest.
  const least = Math.min(...raw);
  return { lu: raw.map((d) => d - least), fromUser: input.tracks.map((t) => t.distanceLu !== undefined) };
};

export const planAlbum = (input: AlbumPlanInput): AlbumPlan => {
  checkInput(input);
  const preset = PRESETS[input.preset];
  const tilt = preset.toneTiltDbPerOctave;
  const toneMatch = Math.min(100, Math.max(0, input.toneMatch ?? preset.toneMatch)) / 100;
  const genre: Genre = input.genre ?? albumGenre(input, tilt).genre;
  const curve = genreCurve(genre, tilt);
  const range = genreRange(genre);
  const albumRange = range.map((r) => r * ALBUM_RANGE_SHARE);

  // Tone: every track against the genre; the album's balance is their median; each track's departure from it.
  const deviations = input.tracks.map((t) => deviationFromCurve(t.analysis.midDb, curve).deviation);
  const balance = bandMedian(deviations);
  const albumDeparture = departureFrom(balance, range);
  const albumShare = toneMatch * GENRE_TARGETS[genre].strength * albumDeparture.confidence;
  const albumMove = shapedDeviation(balance, albumShare);

  const { lu, fromUser } = distances(input);
  const loudest = lu.indexOf(0);

  const tracks = input.tracks.map((t, i): AlbumTrackPlan => {
    const own = deviations[i]!.map((v, k) => v - balance[k]!);
    // Only where the track departs from the album's balance (decision 281): the broad part of its departure
    // (a shelf, a tilt: three octave smoothings, as decision 213 separates it) beyond ALBUM_TOLERANCE_DB;
    // narrow differences are the arrangement's and stay.
    const ownMove = centredWithinLimit(beyondTolerance(broadPart(own)));
    // For the page: decision 213's ramp against half the genre's range (one record is narrower than a genre).
    const departure = departureFrom(own, albumRange);
    const correctionDb = ownMove.map((v, k) => v + albumMove[k]!);
    const tone: ToneChoice = { preset: input.preset, genre, album: { correctionDb } };
    // What the render will do (the same plan function): the tone EQ plus the chain's fixed filters.
    const rate = t.analysis.sampleRate;
    const adaptive = adaptivePlanFor(t.analysis, 2, tone);
    const eq = bandResponseDb(adaptive.toneEqDb, THIRD_OCTAVE_CENTRES, rate, TONE_EQ_GRID);
    const fixed = chainDb(preset.settings, rate);
    const planned = t.analysis.midDb.map((v, k) => v + eq[k]! + fixed[k]!);
    return {
      id: t.id,
      inputLufs: t.analysis.integratedLufs,
      targetLufs: preset.targetLufs - lu[i]!,
      distanceLu: lu[i]!,
      distanceFrom: fromUser[i] ? 'user' : 'estimate',
      tone,
      tiltDb: tiltDb(t.analysis.midDb),
      plannedTiltDb: tiltDb(planned),
      towardAlbumDb: atOctaves(ownMove).map((v) => (Number.isFinite(v) ? -v : 0)),
      towardGenreDb: atOctaves(albumMove).map((v) => (Number.isFinite(v) ? -v : 0)),
      departureConfidence: departure.confidence,
    };
  });

  return {
    preset: input.preset,
    settings: preset.settings,
    genre,
    genreChosen: input.genre !== undefined,
    loudestId: input.tracks[loudest]!.id,
    targetLufs: preset.targetLufs,
    spreadLimitLu: ALBUM_SPREAD_LIMIT_LU,
    albumBalanceDb: atOctaves(balance).map((v) => (Number.isFinite(v) ? v : 0)),
    albumShare,
    tracks,
  };
};

/** The genre's label with how it was chosen, for the page ("Rock (suggested from the album)"). */
export const albumGenreLabel = (plan: AlbumPlan): string =>
  `${GENRE_LABELS[plan.genre]}${plan.genreChosen ? '' : ' (suggested from the album)'}`;

/** The settings, loudness target and tone the master render of track `index` takes. */
export const albumMasterJob = (plan: AlbumPlan, index: number): AlbumMasterJob => {
  const track = plan.tracks[index];
  if (!track) throw new RangeError(`The album has no track ${index + 1}`);
  return { settings: plan.settings, targetLufs: track.targetLufs, tone: track.tone };
};
