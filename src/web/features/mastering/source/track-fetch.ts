/**
 * Loading a saved track from the mixer (spec 7: GET /api/tracks/{id}, then the bytes from its audioUrl),
 * with the spec's own failure texts.
 */
import type { MixArrangement } from '../../../../shared/api/tracks';
import { requestHeaders } from '../../../lib/api-client';
import { AUTH_TOKEN_KEY, readStorage } from '../../../lib/storage';
import { parseTrackId } from '../mastering-rules';
import { fetchAudioFailed, fetchTrackFailed, INVALID_TRACK_ID, NO_AUDIO_URL } from '../mastering-texts';

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
): Promise<{ name: string; audio: Blob; arrangement: MixArrangement | null }> => {
  const id = parseTrackId(rawId);
  if (id === null) throw new TrackFetchError(INVALID_TRACK_ID);
  const res = await fetch(`/api/tracks/${id}`, { ...init(), signal });
  if (!res.ok) throw new TrackFetchError(fetchTrackFailed(res.status, res.statusText));
  const track = (await res.json()) as {
    name?: string;
    audioUrl?: string | null;
    arrangement?: MixArrangement | null;
  };
  if (!track.audioUrl) throw new TrackFetchError(NO_AUDIO_URL);
  return {
    name: track.name || `Track ${id}`,
    audio: await fetchTrackAudio(track.audioUrl, signal),
    // Issue 18: how the mixer made this mix (its stems can be rendered again); null for a single file.
    arrangement: track.arrangement ?? null,
  };
};

/**
 * The audio behind a track's audioUrl (our own origin, with the session), as a Blob: the decode worker reads
 * its bytes, not the page (decision 309).
 */
export const fetchTrackAudio = async (audioUrl: string, signal?: AbortSignal): Promise<Blob> => {
  const audio = await fetch(audioUrl, { ...init(), signal });
  if (!audio.ok) throw new TrackFetchError(fetchAudioFailed(audio.status));
  return audio.blob();
};

/** A saved track's view (name, audioUrl, arrangement) by its id. */
export const fetchTrackView = async (
  id: number,
  signal?: AbortSignal,
): Promise<{ name: string; audioUrl: string; arrangement: MixArrangement | null }> => {
  const res = await fetch(`/api/tracks/${id}`, { ...init(), signal });
  if (!res.ok) throw new TrackFetchError(fetchTrackFailed(res.status, res.statusText));
  return res.json() as Promise<{ name: string; audioUrl: string; arrangement: MixArrangement | null }>;
};
