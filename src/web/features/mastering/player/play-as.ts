/**
 * What the B side of the A/B plays: the master, the master as a streaming platform plays it (its
 * normalisation gain, Spotify Loud's limiter), or the master after a lossy codec (decisions 125, 128).
 * Versions that need work (Spotify Loud, the codecs) are made once per master on first use and kept.
 */

import { runCodecPreview } from '../codec/codec-preview';
import { channelsOf } from '../engine/audio-decode';
import { toAudioBufferInSlices } from '../engine/chunked-copy';
import {
  CODEC_LABELS,
  type CodecPreviewReport,
  type LoudnessReport,
  PlatformClient,
  type PlatformId,
  type PreviewCodec,
  platformById,
  platformPlayback,
} from '../engine/engine-api';

export type PlayAs =
  | { kind: 'master' }
  | { kind: 'platform'; id: PlatformId }
  | { kind: 'codec'; codec: PreviewCodec };

export const PLAY_MASTER: PlayAs = { kind: 'master' };

/** The versions that are rendered before they can play. */
export type VariantKey = 'spotify-loud' | PreviewCodec;

export interface ReadyVariant {
  status: 'ready';
  buffer: AudioBuffer;
  lufs: number;
  truePeakDbtp: number;
  /** The codec preview's numbers (codecs only). */
  codec: CodecPreviewReport | null;
  bytes: number | null;
}

export type VariantState =
  | { status: 'working'; percent: number }
  | ReadyVariant
  | { status: 'unavailable'; message: string }
  | { status: 'failed'; message: string };

export const variantKeyOf = (choice: PlayAs): VariantKey | null =>
  choice.kind === 'codec'
    ? choice.codec
    : choice.kind === 'platform' && choice.id === 'spotify-loud'
      ? 'spotify-loud'
      : null;

export const playAsLabel = (choice: PlayAs): string =>
  choice.kind === 'master'
    ? 'Master'
    : choice.kind === 'platform'
      ? platformById(choice.id).name
      : CODEC_LABELS[choice.codec];

export const samePlayAs = (a: PlayAs, b: PlayAs): boolean =>
  variantKeyOf(a) === variantKeyOf(b) && JSON.stringify(a) === JSON.stringify(b);

let platforms: PlatformClient | null = null;
const platformClient = () => (platforms ??= new PlatformClient());

/** Renders one version of the master; `measured` is the master's own meter reading. */
export const renderVariant = async (
  key: VariantKey,
  master: AudioBuffer,
  measured: LoudnessReport,
  ceilingDbtp: number,
  signal: AbortSignal,
  onProgress: (fraction: number) => void,
): Promise<ReadyVariant> => {
  if (key === 'spotify-loud') {
    const row = platformPlayback(
      platformById('spotify-loud'),
      measured.integratedLufs,
      measured.truePeakDbtp,
    );
    const out = await platformClient().spotifyLoud(channelsOf(master), master.sampleRate, row.gainDb, {
      signal,
      onProgress,
    });
    return {
      status: 'ready',
      buffer: await toAudioBufferInSlices(out.channels, master.sampleRate),
      lufs: out.loudness.integratedLufs,
      truePeakDbtp: out.loudness.truePeakDbtp,
      codec: null,
      bytes: null,
    };
  }
  const preview = await runCodecPreview(key, master, measured, ceilingDbtp, signal, onProgress);
  return {
    status: 'ready',
    buffer: preview.buffer,
    lufs: preview.report.integratedLufs,
    truePeakDbtp: preview.report.truePeakDbtp,
    codec: preview.report,
    bytes: preview.bytes,
  };
};

/**
 * The gain the master itself is played with as `choice`: a platform's normalisation when its version needs no
 * render (Spotify Loud's rendered version and the codecs' already carry their level, so they play at 0 dB).
 */
export const platformGainDb = (choice: PlayAs, measured: LoudnessReport): number =>
  choice.kind === 'platform' && variantKeyOf(choice) === null
    ? platformPlayback(platformById(choice.id), measured.integratedLufs, measured.truePeakDbtp).gainDb
    : 0;
