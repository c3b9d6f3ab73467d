/**
 * The side-by-side analysis of an album's tracks (issue 31 item 1), with the outliers marked: a track is an
 * outlier in a figure when it lies further than `OUTLIER_FROM` from the median of the OTHER tracks (with two
 * tracks, each is measured against the other, so both are marked when they disagree).
 */
import type { AlbumFigure, AlbumOverview, AlbumTrackFigures, AlbumTrackInput } from './album-api';
import { lowEndDb, median, tiltDb } from './album-figures';

/**
 * How far from the others counts as departing: loudness 4 LU (beyond a ballad's usual distance under the
 * single); LRA 4 LU; tilt and low end 3 dB (decision 212's genre range is +/-3 dB per band: a track outside
 * the album's by more than that sounds like another record).
 */
export const OUTLIER_FROM: Readonly<Record<AlbumFigure, number>> = {
  loudness: 4,
  lra: 4,
  tilt: 3,
  lowEnd: 3,
};

const FIGURES: readonly AlbumFigure[] = ['loudness', 'lra', 'tilt', 'lowEnd'];

export const albumOverview = (tracks: readonly AlbumTrackInput[]): AlbumOverview => {
  const rows = tracks.map(({ id, analysis }) => ({
    id,
    loudnessLufs: analysis.integratedLufs,
    lraLu: analysis.loudnessRangeLu,
    tiltDb: tiltDb(analysis.midDb),
    lowEndDb: lowEndDb(analysis.midDb),
    lowEndCorrelation: analysis.lowEndCorrelation,
  }));
  const value = (r: (typeof rows)[number], f: AlbumFigure): number =>
    f === 'loudness' ? r.loudnessLufs : f === 'lra' ? r.lraLu : f === 'tilt' ? r.tiltDb : r.lowEndDb;
  const withOutliers: AlbumTrackFigures[] = rows.map((row, i) => ({
    ...row,
    outliers: FIGURES.filter((f) => {
      const others = rows.filter((_, j) => j !== i).map((r) => value(r, f));
      const m = median(others);
      const v = value(row, f);
      return Number.isFinite(m) && Number.isFinite(v) && Math.abs(v - m) > OUTLIER_FROM[f];
    }),
  }));
  const medianOf = (f: AlbumFigure) => median(rows.map((r) => value(r, f)));
  return {
    tracks: withOutliers,
    median: {
      loudness: medianOf('loudness'),
      lra: medianOf('lra'),
      tilt: medianOf('tilt'),
      lowEnd: medianOf('lowEnd'),
    },
    outlierFrom: { ...OUTLIER_FROM },
  };
};
