import type { Genre } from '../../shared/genres';
import type { GenreSuggestion } from '../dsp/genre-suggest';
import type { VocalAnalysis } from '../dsp/vocal/analyse-vocal';

/**
 * The listening worker's protocol (issue 26): what the mixer learns from each track when it loads. Progress is
 * the fraction done, 0..1. Channels are transferred in (the loader sends copies).
 */
export interface ListenApi {
  /** The beat's features and the genre they suggest (the mix-style step's "Suggested"). */
  beat: {
    request: { channels: Float32Array[]; sampleRate: number; tempoBpm: number | null };
    response: GenreSuggestion;
    progress: number;
  };
  /** The vocal take: noise, breaths, sibilance, phrases, balance against the genre's target, peaks. */
  vocal: {
    request: { channels: Float32Array[]; sampleRate: number; genre: Genre };
    response: VocalAnalysis;
    progress: number;
  };
}
