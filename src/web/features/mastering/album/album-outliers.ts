/**
 * The outliers of the album's side-by-side analysis in words ("8 dB quieter than the rest"): which figures
 * depart is the engine's call (albumOverview); this says by how much and which way.
 */
import { type AlbumFigure, type AlbumOverview, type AlbumTrackFigures, median } from './album-engine';

export const FIGURE_VALUE: Record<AlbumFigure, (f: AlbumTrackFigures) => number> = {
  loudness: (f) => f.loudnessLufs,
  lra: (f) => f.lraLu,
  tilt: (f) => f.tiltDb,
  lowEnd: (f) => f.lowEndDb,
};

const WORDS: Record<AlbumFigure, { unit: string; more: string; less: string }> = {
  loudness: { unit: 'dB', more: 'louder', less: 'quieter' },
  lra: { unit: 'LU', more: 'more dynamic', less: 'less dynamic' },
  tilt: { unit: 'dB', more: 'brighter', less: 'duller' },
  lowEnd: { unit: 'dB', more: 'more bass', less: 'less bass' },
};

export interface OutlierWords {
  figure: AlbumFigure;
  words: string;
}

/**
 * Each outlier of a track as "{n} {unit} {side} than the rest", against the median of the other tracks
 * (what the overview marks it by).
 */
export const outlierWords = (track: AlbumTrackFigures, overview: AlbumOverview): OutlierWords[] =>
  track.outliers.map((figure) => {
    const others = overview.tracks.filter((t) => t.id !== track.id).map(FIGURE_VALUE[figure]);
    const difference = FIGURE_VALUE[figure](track) - median(others);
    const w = WORDS[figure];
    const amount = Math.round(Math.abs(difference));
    return {
      figure,
      words: `${amount} ${w.unit} ${difference >= 0 ? w.more : w.less} than the rest`,
    };
  });
