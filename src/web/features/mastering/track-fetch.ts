/**
 * Loading a saved track from the mixer (spec 7: GET /api/tracks/{id}, then the bytes from its audioUrl),
 * with the spec's own failure texts.
 */
import { requestHeaders } from '../../lib/api-client';
import { AUTH_TOKEN_KEY, readStorage } from '../../lib/storage';
import { parseTrackId } from './mastering-rules';
import { fetchAudioFailed, fetchTrackFailed, INVALID_TRACK_ID, NO_AUDIO_URL } from './mastering-texts';

export class TrackFetchError extends Error {
  override name = 'TrackFetchError';
}

const init = (): RequestInit => ({
  credentials: 'include',
  headers: requestHeaders(false, readStorage(AUTH_TOKEN_KEY)),
});

export const fetchTrack = async (
  rawId: string,
  signal?: AbortSignal,
): Promise<{ name: string; bytes: ArrayBuffer }> => {
  const id = parseTrackId(rawId);
  if (id === null) throw new TrackFetchError(INVALID_TRACK_ID);
  const res = await fetch(`/api/tracks/${id}`, { ...init(), signal });
  if (!res.ok) throw new TrackFetchError(fetchTrackFailed(res.status, res.statusText));
  const track = (await res.json()) as { name?: string; audioUrl?: string | null };
  if (!track.audioUrl) throw new TrackFetchError(NO_AUDIO_URL);
  const audio = await fetch(track.audioUrl, { ...init(), signal });
  if (!audio.ok) throw new TrackFetchError(fetchAudioFailed(audio.status));
  return { name: track.name || `Track ${id}`, bytes: await audio.arrayBuffer() };
};
