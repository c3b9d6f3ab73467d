/** The album's pure rules (issue 31): who may make one, how many tracks, moves, ISRC, and the price line. */
import type { PublicUser } from '../../../../shared/api/user';
import { PLANS } from '../../../../shared/plans';

import type { MasteringSettings } from '../mastering-constants';
import {
  ALBUM_MAX_TRACKS,
  ALBUM_MIN_TRACKS,
  type AlbumPlan,
  albumMasterJob,
  isValidIsrc,
} from './album-engine';

export const MIN_ALBUM_TRACKS = ALBUM_MIN_TRACKS;
export const MAX_ALBUM_TRACKS = ALBUM_MAX_TRACKS;
export const MAX_GAP_SECONDS = 10;
/** A crossfade's overlap of the two tracks (the sequence's equal-power fade). */
export const CROSSFADE_SECONDS = 3;

/** Issue 31: the album is for Pro and Unlimited (both paid plans). */
export const canMakeAlbum = (user: PublicUser | null): boolean =>
  user?.hasSubscription === true && user.subscriptionType !== null;

/** The plan named on the locked album (decision 222): the cheapest plan that has it. */
export const ALBUM_PLAN_NAME = PLANS.pro.name;

/** `items` with the item at `from` moved to `to` (both clamped); the same array when nothing moves. */
export const moveItem = <T>(items: readonly T[], from: number, to: number): readonly T[] => {
  const target = Math.max(0, Math.min(items.length - 1, to));
  if (from < 0 || from >= items.length || from === target) return items;
  const next = [...items];
  const [moved] = next.splice(from, 1);
  next.splice(target, 0, moved as T);
  return next;
};

/** An ISRC field is fine empty (the ISRC is optional) or as the CUE sheet's rule has it. */
export const isrcFieldOk = (raw: string): boolean => raw.trim() === '' || isValidIsrc(raw);

/** The track's title from a file name: no extension, underscores as spaces. */
export const titleFromFileName = (name: string): string =>
  name
    .replace(/\.[a-z0-9]{2,5}$/i, '')
    .replace(/_/g, ' ')
    .trim() || 'Untitled';

const count = (n: number, unit: string): string => `${n} ${unit}${n === 1 ? '' : 's'}`;

/**
 * What the download will cost (issue 31: one per track), in the balances spent: a plan's mastering
 * credits first, then crowns (spec 6).
 */
export const albumCostText = (
  tracks: number,
  user: Pick<PublicUser, 'masteringCredits' | 'crowns'> | null,
): string => {
  const credits = Math.min(tracks, Math.max(0, user?.masteringCredits ?? 0));
  const crowns = tracks - credits;
  if (crowns === 0) return count(credits, 'mastering credit');
  if (credits === 0) return count(crowns, 'crown');
  return `${count(credits, 'mastering credit')} and ${count(crowns, 'crown')}`;
};

/** Whether the balances pay for `tracks` masters. */
export const canPayFor = (tracks: number, user: Pick<PublicUser, 'masteringCredits' | 'crowns'> | null) =>
  (user?.masteringCredits ?? 0) + (user?.crowns ?? 0) >= tracks;

/** Seconds as m:ss (the track list and the playhead). */
export const clock = (seconds: number): string => {
  const s = Math.max(0, Math.floor(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
};

/**
 * What track `key` is rendered with: the album plan's loudness and tone for it (decision 280, 281) and the
 * preset's chain, or the track's own manual settings on Unlimited (the album's loudness plan still holds:
 * the Loudness slider drives the chain, the target stays the plan's). Null when the plan has no such track.
 */
export const albumTrackJob = (plan: AlbumPlan, key: string, manual: MasteringSettings | null) => {
  const index = plan.tracks.findIndex((t) => t.id === key);
  if (index < 0) return null;
  const job = albumMasterJob(plan, index);
  return { ...job, settings: manual ?? job.settings, index };
};

/** The five sliders of two settings are the same (a manual change not yet rendered differs). */
export const sameSliders = (a: MasteringSettings, b: MasteringSettings): boolean =>
  a.compression === b.compression &&
  a.brightness === b.brightness &&
  a.warmth === b.warmth &&
  a.stereoWidth === b.stereoWidth &&
  a.loudness === b.loudness;
