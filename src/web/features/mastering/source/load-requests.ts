/** Where a source comes from: a dropped file, a track saved by the mixer (?trackId), or a demo track. */
import type { MixArrangement } from '../../../../shared/api/tracks';
import { decodeAudio } from '../engine/audio-decode';
import { fetchAudioFailed, NOTICES, type Notice } from '../mastering-texts';
import { fetchTrack } from './track-fetch';

export interface LoadRequest {
  /** Shown while loading. */
  label: string;
  /**
   * The audio (a file or a fetched Blob: the page never reads its bytes), and for a mixer mix its
   * arrangement (issue 18: its versions).
   */
  read: (signal: AbortSignal) => Promise<{
    name: string;
    audio: Blob;
    arrangement?: MixArrangement | null;
    /** The saved track's id (issue 29: a download's spend names it); absent for a file or a demo. */
    trackId?: number;
  }>;
  success: (name: string) => Notice;
  failure: (message?: string) => Notice;
}

export const fileRequest = (file: File): LoadRequest => ({
  label: file.name,
  read: async () => ({ name: file.name, audio: file }),
  success: NOTICES.audioLoaded,
  failure: NOTICES.loadAudioError,
});

export const trackRequest = (rawId: string): LoadRequest => ({
  label: 'track',
  // fetchTrack refuses anything but a positive whole number, so the id read back is the one fetched.
  read: async (signal) => ({ ...(await fetchTrack(rawId, signal)), trackId: Number(rawId) }),
  success: NOTICES.trackLoaded,
  failure: NOTICES.loadTrackError,
});

export const urlRequest = (name: string, url: string): LoadRequest => ({
  label: name,
  read: async (signal) => {
    const res = await fetch(url, { signal });
    if (!res.ok) throw new Error(fetchAudioFailed(res.status));
    return { name, audio: await res.blob() };
  },
  success: NOTICES.audioLoaded,
  failure: NOTICES.loadAudioError,
});

/** The audio as a playable AudioBuffer; an unreadable or undecodable file reads as 'Failed to load audio file'. */
export const decodeRequest = async (request: LoadRequest, signal: AbortSignal) => {
  const { name, audio, arrangement, trackId } = await request.read(signal);
  const buffer = await decodeAudio(audio, signal);
  return { name, buffer, arrangement: arrangement ?? null, trackId: trackId ?? null };
};
