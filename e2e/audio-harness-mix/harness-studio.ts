/**
 * The studio export formats through the real encoder worker (WAV 24-bit and float, FLAC, the resampler),
 * driven by audio-codec-studio.spec.ts: files come back base64-encoded so the spec can check them with
 * ffprobe and ffmpeg.
 */
import { measureSweep, renderSweep, sweep } from '../../src/audio/dsp/resample-sweep.test-helper';
import type { EncoderClient } from '../../src/audio/workers/encode-client';
import { intNoise, musicLike } from './harness-signals';

const base64 = async (blob: Blob): Promise<string> => {
  const bytes = new Uint8Array(await blob.arrayBuffer());
  let text = '';
  for (let i = 0; i < bytes.length; i += 0x8000)
    text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(text);
};

const copies = (channels: Float32Array[]) => channels.map((c) => c.slice());

export const studioHarness = (encoder: EncoderClient) => ({
  /** Every studio format of `seconds` of music-like stereo, at the source rate or resampled to `outputRate`. */
  async exports(seconds: number, sampleRate: number, outputRate: number) {
    const input = musicLike(seconds, sampleRate, 2);
    const channels =
      outputRate === sampleRate ? input : await encoder.resample(copies(input), sampleRate, outputRate);
    const files: Record<string, Blob> = {
      source: await encoder.wav(copies(input), sampleRate, { encoding: 'float32' }),
      wav16: await encoder.wav(copies(channels), outputRate, { dither: true }),
      wav24: await encoder.wav(copies(channels), outputRate, { encoding: 'int24', dither: true }),
      wav32f: await encoder.wav(copies(channels), outputRate, { encoding: 'float32' }),
      flac16: await encoder.flac(copies(channels), outputRate, { bits: 16, dither: true }),
      flac24: await encoder.flac(copies(channels), outputRate, { bits: 24, dither: true }),
    };
    const out: Record<string, { type: string; data: string }> = {};
    for (const [name, blob] of Object.entries(files))
      out[name] = { type: blob.type, data: await base64(blob) };
    return out;
  },

  /** A swept sine through the worker's resampler: residual and alias levels in dB (see resample.test.ts). */
  async resampleSweep(from: number, to: number, top: number) {
    const s = sweep(20, top, 3);
    const [out] = await encoder.resample([renderSweep(s, from, 3)], from, to);
    return { length: out!.length, ...measureSweep(out!, to, s, 200) };
  },

  /** A 10-minute 48 kHz stereo 24-bit WAV through the worker (over the spec's 100 MB cap for 16-bit). */
  async tenMinuteWav24() {
    const frames = 48_000 * 600;
    const channels = [0, 1].map((c) => {
      const out = new Float32Array(frames);
      for (let i = 0; i < frames; i++) out[i] = 0.5 * Math.sin((i * (c + 1)) / 30);
      return out;
    });
    const started = performance.now();
    const blob = await encoder.wav(channels, 48_000, { encoding: 'int24', transfer: true });
    const ms = performance.now() - started;
    const head = new DataView(await blob.slice(0, 44).arrayBuffer());
    return {
      type: blob.type,
      size: blob.size,
      ms,
      bits: head.getUint16(34, true),
      rate: head.getUint32(24, true),
      dataBytes: head.getUint32(40, true),
    };
  },

  /** FLAC of known integers without dither; Chromium's own decoder must give them back exactly. */
  async flacRoundTrip(frames: number, sampleRate: number, bits: 16 | 24) {
    const ints = [intNoise(frames, bits, 3), intNoise(frames, bits, 4)];
    const scale = 2 ** (bits - 1);
    const blob = await encoder.flac(
      ints.map((c) => Float32Array.from(c, (v) => v / scale)),
      sampleRate,
      { bits, dither: false },
    );
    const data = await base64(blob);
    const ctx = new OfflineAudioContext(1, 1, sampleRate);
    const audio = await ctx.decodeAudioData(await blob.arrayBuffer());
    let chromiumMismatches = 0;
    for (let c = 0; c < 2; c++) {
      const decoded = audio.getChannelData(c);
      for (let i = 0; i < frames; i++) {
        const v = decoded[i]!;
        // Chromium scales 16-bit samples asymmetrically (positive / 32767), 24-bit ones by 2^23.
        const back = bits === 16 && v > 0 ? v * (scale - 1) : v * scale;
        if (Math.round(back) !== ints[c]![i]) chromiumMismatches++;
      }
    }
    return { type: blob.type, data, length: audio.length, sampleRate: audio.sampleRate, chromiumMismatches };
  },
});
