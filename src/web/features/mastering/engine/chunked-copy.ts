/**
 * The mastering page's copies of whole tracks, made in slices of 2M samples with event-loop turns between
 * them (see audio/sliced-copy).
 */
import {
  copyChannelsInSlices,
  fillAudioBufferInSlices,
  touchAudioBufferInSlices,
} from '../../../../audio/sliced-copy';

const SLICE = 1 << 21;

export const copyChannels = (
  channels: readonly Float32Array[],
  signal?: AbortSignal,
): Promise<Float32Array[]> => copyChannelsInSlices(channels, SLICE, signal);

const audioBufferFor = (channels: number, frames: number, sampleRate: number) =>
  new AudioBuffer({ length: Math.max(1, frames), numberOfChannels: Math.max(1, channels), sampleRate });

/**
 * An AudioBuffer filled from `channels` slice by slice: `target` when it has their shape (see
 * `touchedAudioBuffer`), else a new one.
 */
export const toAudioBufferInSlices = async (
  channels: readonly Float32Array[],
  sampleRate: number,
  target?: AudioBuffer | null,
): Promise<AudioBuffer> => {
  const frames = channels[0]?.length ?? 1;
  const fits =
    target?.length === frames &&
    target.numberOfChannels === channels.length &&
    target.sampleRate === sampleRate;
  const buffer = fits ? target : audioBufferFor(channels.length, frames, sampleRate);
  return fillAudioBufferInSlices(buffer, channels, SLICE);
};

/** A new AudioBuffer of this shape with every sample written once, for a result still being rendered. */
export const touchedAudioBuffer = async (
  channels: number,
  frames: number,
  sampleRate: number,
  signal?: AbortSignal,
): Promise<AudioBuffer> => {
  const buffer = audioBufferFor(channels, frames, sampleRate);
  await touchAudioBufferInSlices(buffer, SLICE, signal);
  return buffer;
};
