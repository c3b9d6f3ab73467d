/**
 * Why a track of the album sounds as it does, in sentences: where the plan set its loudness (the loudest
 * at the preset's target, the others their distance below it), the tone correction toward the album's own
 * balance and the genre, and what the render did (gain, limiting). The single page's why panel reads the
 * single store; these are the same facts for one track of the record.
 */
import { GENRE_LABELS } from '../../../../shared/genres';
import type { MasteringReport } from '../engine/engine-api';
import type { AlbumPlan } from './album-engine';

type TrackPlan = AlbumPlan['tracks'][number];

const db = (v: number) => `${v >= 0 ? '+' : '−'}${Math.abs(v).toFixed(1)} dB`;
const largest = (moves: number[]) => moves.reduce((m, v) => (Math.abs(v) > Math.abs(m) ? v : m), 0);

export const whyOfTrack = (plan: AlbumPlan, track: TrackPlan, report: MasteringReport): string[] => {
  const lines: string[] = [];
  lines.push(
    track.id === plan.loudestId
      ? `The album's loudest song: mastered to the preset's target, ${plan.targetLufs.toFixed(1)} LUFS.`
      : `${track.distanceLu.toFixed(1)} LU under the album's loudest song (${track.distanceFrom === 'user' ? 'your choice' : 'its own distance as recorded'}): ${track.targetLufs.toFixed(1)} LUFS.`,
  );
  const toAlbum = largest(track.towardAlbumDb);
  if (Math.abs(toAlbum) >= 0.5) {
    lines.push(
      `Tone: it departs from the album's balance, so it is corrected toward it (largest move ${db(toAlbum)}); tilt ${track.tiltDb.toFixed(1)} dB planned to ${track.plannedTiltDb.toFixed(1)} dB.`,
    );
  } else {
    lines.push("Tone: it sits in the album's own balance; only the album's common move is applied.");
  }
  const toGenre = largest(track.towardGenreDb);
  if (Math.abs(toGenre) >= 0.5)
    lines.push(
      `The whole album moves toward ${GENRE_LABELS[plan.genre]} (${plan.genreChosen ? 'chosen' : 'suggested by the album'}; largest move ${db(toGenre)}).`,
    );
  lines.push(
    `Loudness stage ${db(report.gainDb)}, limiter at most ${Math.abs(report.limiterMinGainDb).toFixed(1)} dB of reduction.`,
  );
  return lines;
};
