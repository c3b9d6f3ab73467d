/**
 * The album's loudness and tone plan (issue 31 item 2, decision 280). Being built: the interface commit
 * carries the signatures only.
 */
import type { AlbumMasterJob, AlbumPlan, AlbumPlanInput } from './album-api';

export const planAlbum = (_input: AlbumPlanInput): AlbumPlan => {
  throw new Error('planAlbum: not built yet (interface commit; implementation follows on branch albumcore)');
};

/** The settings, loudness target and tone the master render of track `index` takes. */
export const albumMasterJob = (plan: AlbumPlan, index: number): AlbumMasterJob => {
  const track = plan.tracks[index];
  if (!track) throw new RangeError(`The album has no track ${index + 1}`);
  return { settings: plan.settings, targetLufs: track.targetLufs, tone: track.tone };
};
