/**
 * The song-facts analysis of a beat (decisions 190–193): features, tempo, beat grid, key. One pass, with
 * progress and a hook between blocks so a worker can yield and cancel.
 */
import type { SongFacts } from '../../model/song-facts';
import { beatGrid } from './beats';
import { chromagram, decimateMono, onsetEnvelopes } from './features';
import { estimateKey } from './key';
import { estimateTempo } from './tempo';

export interface SongFactsAnalysis {
  facts: SongFacts;
  /** Tracked beats (seconds), for tests and the decision records. */
  beats: number[];
  /** The key the profiles alone preferred, when the bass and cadences chose its relative instead. */
  relativeOf?: SongFacts['key'];
  /** Tempo before the grid fit refined it. */
  coarseBpm: number;
}

export const analyzeSongFacts = async (
  channels: readonly Float32Array[],
  sampleRate: number,
  onProgress: (fraction: number) => Promise<void> = async () => {},
): Promise<SongFactsAnalysis> => {
  const mono = decimateMono(channels, sampleRate);
  await onProgress(0.1);
  const env = await onsetEnvelopes(mono, (f) => onProgress(0.1 + 0.4 * f));
  await onProgress(0.5);
  const chroma = await chromagram(mono, (f) => onProgress(0.5 + 0.3 * f));
  await onProgress(0.8);
  const tempo = estimateTempo(env);
  const grid = beatGrid(env, chroma, tempo.bpm);
  await onProgress(0.9);
  const key = estimateKey(chroma, {
    downbeatSeconds: grid.downbeatSeconds,
    barSeconds: (60 / grid.bpm) * grid.beatsPerBar,
  });
  await onProgress(1);
  return {
    facts: {
      tempoBpm: Math.round(grid.bpm * 100) / 100,
      tempoConfidence: Math.round(tempo.confidence * (0.5 + 0.5 * grid.gridFit) * 100) / 100,
      key: key.key,
      keyConfidence: Math.round(key.confidence * 100) / 100,
      downbeatSeconds: Math.round(grid.downbeatSeconds * 10000) / 10000,
      beatsPerBar: grid.beatsPerBar,
    },
    beats: grid.beats,
    ...(key.relativeOf ? { relativeOf: key.relativeOf } : {}),
    coarseBpm: tempo.bpm,
  };
};
