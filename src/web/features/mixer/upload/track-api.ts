import type { SessionInput, SessionList, SessionSummary, SessionView } from '../../../../shared/api/sessions';
import type { MixArrangement, TrackKind, TrackView } from '../../../../shared/api/tracks';
import { apiJson, requestHeaders, throwIfNotOk } from '../../../lib/api-client';
import { AUTH_TOKEN_KEY, readStorage } from '../../../lib/storage';
import { xhrUpload } from '../../../lib/xhr-upload';

/**
 * POST /api/tracks as multipart (spec 7): audio, type, name, duration (sent as 0). The shell's api client
 * speaks JSON only, so this builds the same request (credentials, x-auth-token) with a FormData body, sent
 * by XMLHttpRequest for its progress events and cancellation.
 */
export const uploadTrack = async (
  file: Blob,
  fileName: string,
  type: TrackKind,
  name: string,
  options: {
    signal?: AbortSignal;
    onProgress?: (sent: number, total: number) => void;
    /** A mixed track's arrangement (issue 18: the mastering page renders its stems from it). */
    arrangement?: MixArrangement;
  } = {},
): Promise<{ id: number }> => {
  const form = new FormData();
  form.append('type', type);
  form.append('name', name);
  form.append('duration', '0');
  if (options.arrangement) form.append('arrangement', JSON.stringify(options.arrangement));
  form.append('audio', file, fileName);
  return (await xhrUpload('/api/tracks', form, {
    headers: requestHeaders(false, readStorage(AUTH_TOKEN_KEY)),
    ...options,
  })) as { id: number };
};

export const getTrack = (id: number) => apiJson<TrackView>('GET', `/api/tracks/${id}`);

/** The audio bytes of a saved track (its audioUrl is on our own origin). */
export const fetchTrackAudio = async (track: TrackView): Promise<Blob> => {
  const res = await fetch(track.audioUrl, {
    credentials: 'include',
    headers: requestHeaders(false, readStorage(AUTH_TOKEN_KEY)),
  });
  await throwIfNotOk(res);
  return res.blob();
};

/** The newest saved sessions (issue 30: the mixer offers more than the last one). */
export const recentSessions = async (limit: number): Promise<SessionSummary[]> =>
  (await apiJson<SessionList>('GET', `/api/sessions?limit=${limit}`)).sessions;

export const getSession = (id: number) => apiJson<SessionView>('GET', `/api/sessions/${id}`);

export const saveSession = (id: number | null, body: SessionInput) =>
  id === null
    ? apiJson<SessionView>('POST', '/api/sessions', body)
    : apiJson<SessionView>('PUT', `/api/sessions/${id}`, body);
