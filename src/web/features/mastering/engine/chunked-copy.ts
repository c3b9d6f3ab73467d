/**
 * The mastering page's copies of whole tracks, made in slices of 2M samples with event-loop turns between
 * them (see audio/sliced-copy).
 */
import { copyChannelsInSlices, fillAudioBufferInSlices } from '../../../../audio/sliced-copy';

const SLICE = 1 << 21;

export const copyChannels = (
  channels: readonly Float32Array[],
  signal?: AbortSignal,
): Promise<Float32Array[]> => copyChannelsInSlices(channels, SLICE, signal);

/** An AudioBuffer filled from `channels` slice by slice. */
export const toAudioBufferInSlices = async (
  channels: readonly Float32Array[],
  sampleRate: number,
): Promise<AudioBuffer> =>
  fillAudioBufferInSlices(
    new AudioBuffer({
      length: channels[0]?.length ?? 1,
      numberOfChannels: Math.max(1, channels.length),
      sampleRate,
    }),
    channels,
    SLICE,
  );
