/**
 * Issue 18: a mixer mix's stems on the mastering page. A mix saved by the mixer carries its arrangement
 * (source tracks, clips in samples, style, output volume); this loads both source tracks, decodes them at
 * their own rate as the mixer did, and renders the mixdown again in the mix worker with its two buses,
 * which sum to the mix (the mixer's output limiter gain is applied to both). One place for the versions
 * and for anything else that needs the stems (the "Vocal space" control).
 */
import { MixClient, type MixProgress, type MixStems } from '../../../../audio';
import type { MixArrangement } from '../../../../shared/api/tracks';
import { channelsOf, decodeAudio } from '../engine/audio-decode';
import { fetchTrackAudio, fetchTrackView } from './track-fetch';

export interface LoadedStems extends MixStems {
  sampleRate: number;
  /** The mixdown rendered again (= vocals + instrumental): the Main of the versions. */
  mix: Float32Array[];
}

export interface StemsProgress {
  /** 'fetching' the two sources, 'decoding' them, 'mixing' in the worker. */
  phase: 'fetching' | 'decoding' | 'mixing';
  /** 0..1 overall. */
  fraction: number;
}

/** Loads a mix's sources and renders its stems; rejects (with the reason) when a source is gone. */
export const loadMixStems = async (
  arrangement: MixArrangement,
  options: { signal?: AbortSignal; onProgress?: (p: StemsProgress) => void } = {},
): Promise<LoadedStems> => {
  const { signal, onProgress } = options;
  onProgress?.({ phase: 'fetching', fraction: 0 });
  const ids = [arrangement.vocalTrackId, arrangement.instrumentalTrackId];
  const audio = await Promise.all(
    ids.map(async (id) => fetchTrackAudio((await fetchTrackView(id, signal)).audioUrl, signal)),
  );
  onProgress?.({ phase: 'decoding', fraction: 0.15 });
  const [vocals, instrumental] = await Promise.all(audio.map((a) => decodeAudio(a, signal)));
  signal?.throwIfAborted();
  onProgress?.({ phase: 'mixing', fraction: 0.3 });
  const client = new MixClient();
  try {
    await client.setSource('vocals', channelsOf(vocals!), vocals!.sampleRate);
    await client.setSource('instrumental', channelsOf(instrumental!), instrumental!.sampleRate);
    const timeline = {
      clips: arrangement.clips,
      sampleRate: arrangement.sampleRate,
      length: arrangement.length,
      // The tempo the mix's delay was timed to (issue 27): the stems must sum to that mix.
      ...(arrangement.songFacts ? { tempoBpm: arrangement.songFacts.tempoBpm } : {}),
    };
    // The genre too (issue 26): a mix made through the adaptive vocal chain only sums from stems made the same way.
    const settings = {
      vocalShare: arrangement.vocalShare,
      outputVolume: arrangement.outputVolume,
      ...(arrangement.genre ? { genre: arrangement.genre } : {}),
      ...(arrangement.genre && arrangement.vocalChain ? { vocalChain: arrangement.vocalChain } : {}),
      pitch: arrangement.pitch,
    };
    const rendered = await client.stems(timeline, settings, {
      signal,
      onProgress: (p: MixProgress) => onProgress?.({ phase: 'mixing', fraction: 0.3 + 0.7 * p.overall }),
    });
    return { ...rendered.stems, sampleRate: rendered.sampleRate, mix: rendered.channels };
  } finally {
    client.dispose();
  }
};
