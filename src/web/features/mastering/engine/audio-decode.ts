/**
 * Decoding a user's file or a fetched track at its own sample rate: decodeAudioData resamples to its
 * context's rate (slow, and it changes the audio). The page loads through the mixer's reader (decision 309):
 * the WAV decode worker reads the bytes and decodes the WAV files it can, every other file is decoded by
 * decodeAudioData at the rate read from its first bytes (44.1 kHz when unknown), and the AudioBuffer is filled
 * slice by slice. Reading a 10-minute WAV on the page was one main-thread task of 119-153 ms.
 */
import { readAndDecode } from '../../../lib/read-and-decode';

/** `audio` as an AudioBuffer; any failure (unreadable, undecodable, cancelled) reads as the spec's text. */
export const decodeAudio = async (audio: Blob, signal?: AbortSignal): Promise<AudioBuffer> => {
  const decode = readAndDecode(audio, 44_100);
  const cancel = () => decode.cancel();
  signal?.addEventListener('abort', cancel);
  try {
    return await decode.audio;
  } catch {
    throw new Error('Failed to load audio file');
  } finally {
    signal?.removeEventListener('abort', cancel);
  }
};

export const channelsOf = (buffer: AudioBuffer): Float32Array[] =>
  Array.from({ length: buffer.numberOfChannels }, (_, c) => buffer.getChannelData(c));

/** An AudioBuffer holding `channels` (copied: an AudioBuffer owns its memory). */
export const toAudioBuffer = (channels: Float32Array[], sampleRate: number): AudioBuffer => {
  const buffer = new AudioBuffer({
    length: channels[0]?.length ?? 1,
    numberOfChannels: Math.max(1, channels.length),
    sampleRate,
  });
  for (const [c, data] of channels.entries()) buffer.copyToChannel(data as Float32Array<ArrayBuffer>, c);
  return buffer;
};
