/** Where a source comes from: a dropped file, a track saved by the mixer (?trackId), or a demo track. */
import type { MixArrangement } from '../../../../shared/api/tracks';
import { decodeAudio } from '../engine/audio-decode';
import { fetchAudioFailed, NOTICES, type Notice } from '../mastering-texts';
import { fetchTrack } from './track-fetch';

export interface LoadRequest {
  /** Shown while loading. */
  label: string;
  /** The bytes, and for a mixer mix its arrangement (issue 18: its versions). */
  read: (
    signal: AbortSignal,
  ) => Promise<{ name: string; bytes: ArrayBuffer; arrangement?: MixArrangement | null }>;
  success: (name: string) => Notice;
  failure: (message?: string) => Notice;
}

export const fileRequest = (file: File): LoadRequest => ({
  label: file.name,
  read: async () => ({ name: file.name, bytes: await file.arrayBuffer() }),
  success: NOTICES.audioLoaded,
  failure: NOTICES.loadAudioError,
});

export const trackRequest = (rawId: string): LoadRequest => ({
  label: 'track',
  read: (signal) => fetchTrack(rawId, signal),
  success: NOTICES.trackLoaded,
  failure: NOTICES.loadTrackError,
});

export const urlRequest = (name: string, url: string): LoadRequest => ({
  label: name,
  read: async (signal) => {
    const res = await fetch(url, { signal });
    if (!res.ok) throw new Error(fetchAudioFailed(res.status));
    return { name, bytes: await res.arrayBuffer() };
  },
  success: NOTICES.audioLoaded,
  failure: NOTICES.loadAudioError,
});

/** Bytes to a playable AudioBuffer; an undecodable file reads as the spec's 'Failed to load audio file'. */
export const decodeRequest = async (request: LoadRequest, signal: AbortSignal) => {
  const { name, bytes, arrangement } = await request.read(signal);
  const buffer = await decodeAudio(bytes).catch(() => {
    throw new Error('Failed to load audio file');
  });
  return { name, buffer, arrangement: arrangement ?? null };
};
