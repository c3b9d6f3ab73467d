/**
 * The codec preview (decision 128): the master encoded as a listener's service would carry it, decoded back,
 * and measured by the engine's meter, so the panel can show the true peak after the codec and the A/B can
 * play what the codec left.
 *
 * - MP3 320: the download's own encoder (LAME in the encode worker, the same file the MP3 download is),
 *   decoded by the browser's decodeAudioData at the master's rate.
 * - AAC 256: WebCodecs (`AudioEncoder` with `mp4a.40.2`) where the browser offers it, decoded by
 *   `AudioDecoder`; where it does not (Chromium builds without a platform AAC encoder), it says so.
 */

import { encoderClient } from '../download/download-flow';
import { channelsOf } from '../engine/audio-decode';
import { copyChannels, toAudioBufferInSlices } from '../engine/chunked-copy';
import {
  type CodecPreviewReport,
  codecPreviewReport,
  type LoudnessReport,
  type PreviewCodec,
} from '../engine/engine-api';
import { meterClient } from '../engine/master-job';

export interface CodecPreview {
  buffer: AudioBuffer;
  report: CodecPreviewReport;
  /** Size of the encoded file, bytes. */
  bytes: number;
}

export class CodecUnavailableError extends Error {
  override name = 'CodecUnavailableError';
}

const AAC_CONFIG = (sampleRate: number, numberOfChannels: number): AudioEncoderConfig => ({
  codec: 'mp4a.40.2',
  sampleRate,
  numberOfChannels,
  bitrate: 256_000,
});

/** Whether this browser can encode AAC 256 at this rate and channel count (WebCodecs needs a secure page). */
export const aacAvailable = async (sampleRate: number, channels: number): Promise<boolean> => {
  if (typeof AudioEncoder === 'undefined' || typeof AudioDecoder === 'undefined') return false;
  try {
    const support = await AudioEncoder.isConfigSupported(AAC_CONFIG(sampleRate, channels));
    return support.supported === true;
  } catch {
    return false;
  }
};

const decodeMp3 = async (blob: Blob, sampleRate: number, channels: number): Promise<AudioBuffer> => {
  // A context at the master's rate: decodeAudioData resamples to its context's rate otherwise.
  const ctx = new OfflineAudioContext(channels, 1, sampleRate);
  return ctx.decodeAudioData(await blob.arrayBuffer());
};

/** AAC through WebCodecs and back; the decoder's priming samples are dropped so the A/B stays in sync. */
const aacRoundTrip = async (channels: Float32Array[], sampleRate: number, signal: AbortSignal) => {
  const frames = channels[0]!.length;
  const count = channels.length;
  const chunks: EncodedAudioChunk[] = [];
  let decoderConfig: AudioDecoderConfig | undefined;
  let failure: unknown = null;
  const encoder = new AudioEncoder({
    output: (chunk, metadata) => {
      chunks.push(chunk);
      decoderConfig ??= metadata?.decoderConfig;
    },
    error: (e) => {
      failure = e;
    },
  });
  encoder.configure(AAC_CONFIG(sampleRate, count));
  const STEP = 4096;
  for (let start = 0; start < frames; start += STEP) {
    signal.throwIfAborted();
    const n = Math.min(STEP, frames - start);
    const planar = new Float32Array(n * count);
    for (let c = 0; c < count; c++) planar.set(channels[c]!.subarray(start, start + n), c * n);
    const data = new AudioData({
      format: 'f32-planar',
      sampleRate,
      numberOfFrames: n,
      numberOfChannels: count,
      timestamp: Math.round((start / sampleRate) * 1e6),
      data: planar,
    });
    encoder.encode(data);
    data.close();
    // Let the encoder drain now and then so memory does not pile up.
    if (encoder.encodeQueueSize > 16) await new Promise((r) => setTimeout(r, 0));
  }
  await encoder.flush();
  encoder.close();
  if (failure) throw failure;
  if (!decoderConfig) throw new CodecUnavailableError('The AAC encoder gave no decoder configuration');
  const out = Array.from({ length: count }, () => new Float32Array(frames + 8192));
  let written = 0;
  const decoder = new AudioDecoder({
    output: (data) => {
      const n = Math.min(data.numberOfFrames, out[0]!.length - written);
      for (let c = 0; c < count; c++)
        data.copyTo(out[c]!.subarray(written, written + n), {
          planeIndex: c,
          format: 'f32-planar',
          frameCount: n,
        });
      written += n;
      data.close();
    },
    error: (e) => {
      failure = e;
    },
  });
  decoder.configure(decoderConfig);
  for (const chunk of chunks) decoder.decode(chunk);
  await decoder.flush();
  decoder.close();
  if (failure) throw failure;
  const priming = Math.max(0, written - frames);
  const bytes = chunks.reduce((n, c) => n + c.byteLength, 0);
  return { channels: out.map((o) => o.slice(priming, priming + frames)), bytes };
};

/** Encodes the master with `codec`, decodes it back and measures it against the master's own reading. */
export const runCodecPreview = async (
  codec: PreviewCodec,
  master: AudioBuffer,
  measured: Pick<LoudnessReport, 'truePeakDbtp' | 'integratedLufs'>,
  ceilingDbtp: number,
  signal: AbortSignal,
  onProgress: (fraction: number) => void,
): Promise<CodecPreview> => {
  const rate = master.sampleRate;
  const count = master.numberOfChannels;
  let decoded: Float32Array[];
  let bytes: number;
  if (codec === 'mp3-320') {
    const copies = await copyChannels(channelsOf(master), signal);
    const blob = await encoderClient().mp3(copies, rate, {
      bitrate: 320,
      sameLoudness: true,
      transfer: true,
      signal,
      onProgress: (f) => onProgress(0.7 * f),
    });
    bytes = blob.size;
    const buffer = await decodeMp3(blob, rate, count);
    decoded = channelsOf(buffer);
  } else {
    if (!(await aacAvailable(rate, count)))
      throw new CodecUnavailableError('This browser offers no AAC encoder (WebCodecs mp4a.40.2)');
    const trip = await aacRoundTrip(channelsOf(master), rate, signal);
    onProgress(0.7);
    decoded = trip.channels;
    bytes = trip.bytes;
  }
  signal.throwIfAborted();
  const work = await copyChannels(decoded, signal);
  const meter = await meterClient().measure(work, rate, {
    transfer: true,
    signal,
    onProgress: (f) => onProgress(0.7 + 0.3 * f),
  });
  const buffer = await toAudioBufferInSlices(meter.channels, rate);
  return { buffer, bytes, report: codecPreviewReport(codec, measured, meter.loudness, ceilingDbtp) };
};
