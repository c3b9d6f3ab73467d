import { describe, expect, it } from 'vitest';
import { concatBytes, ffmpegS32, ffprobe } from './codec-tools.test-helper';
import { encodeWav, wavFileBytes, wavParts } from './wav-encoder';

/** 24-bit integers (every sign and magnitude band) and the floats a decoder makes of them. */
const int24 = (frames: number, seed: number): Int32Array => {
  const out = new Int32Array(frames);
  let x = seed;
  for (let i = 0; i < frames; i++) {
    x = (x * 1_103_515_245 + 12_345) >>> 0;
    out[i] = (x >>> 8) - 8_388_608;
  }
  out[0] = -8_388_608;
  out[1] = 8_388_607;
  return out;
};

describe('WAV encoder, 24-bit and 32-bit float', () => {
  it('24-bit PCM without dither: ffprobe sees s32 24-bit and ffmpeg decodes it bit-exactly', async () => {
    const ints = [int24(50_001, 1), int24(50_001, 2)];
    const file = concatBytes(
      encodeWav(
        ints.map((c) => Float32Array.from(c, (v) => v / 8_388_608)),
        96_000,
        {
          encoding: 'int24',
          dither: false,
          chunkFrames: 7_000,
        },
      ),
    );
    expect(file.length).toBe(wavFileBytes(50_001, 2, 'int24'));
    expect(await ffprobe(file, 'wav')).toMatchObject({
      codec: 'pcm_s24le',
      sampleRate: 96_000,
      channels: 2,
      bits: 24,
    });
    const decoded = await ffmpegS32(file, 'wav');
    let mismatches = 0;
    for (let i = 0; i < 50_001; i++)
      for (let c = 0; c < 2; c++) if (decoded[i * 2 + c]! / 256 !== ints[c]![i]) mismatches++;
    expect(mismatches).toBe(0);
  });

  it('24-bit PCM with TPDF dither: every sample within the dither range (±1 LSB + rounding), noise present', async () => {
    const input = Float32Array.from({ length: 20_000 }, (_, i) => 0.5 * Math.sin(i / 7) + 1e-9 * i);
    const file = concatBytes(encodeWav([input], 44_100, { encoding: 'int24', ditherSeed: 7 }));
    const decoded = await ffmpegS32(file, 'wav');
    let worst = 0;
    let changed = 0;
    for (let i = 0; i < input.length; i++) {
      const exact = input[i]! * 8_388_608;
      const err = decoded[i]! / 256 - exact;
      worst = Math.max(worst, Math.abs(err));
      if (decoded[i]! / 256 !== Math.round(exact)) changed++;
    }
    expect(worst).toBeLessThanOrEqual(1.5);
    expect(changed).toBeGreaterThan(input.length / 10);
  });

  it('32-bit float: ffprobe sees pcm_f32le and the samples come back exactly as the floats', async () => {
    const input = [
      Float32Array.from({ length: 30_001 }, (_, i) => Math.sin(i / 3) * 1.2),
      new Float32Array(30_001).fill(-0.25),
    ];
    const file = concatBytes(encodeWav(input, 48_000, { encoding: 'float32' }));
    expect(file.length).toBe(wavFileBytes(30_001, 2, 'float32'));
    expect(await ffprobe(file, 'wav')).toMatchObject({
      codec: 'pcm_f32le',
      sampleRate: 48_000,
      channels: 2,
      samples: 30_001,
    });
    const samples = new Float32Array(file.slice(58).buffer);
    let mismatches = 0;
    for (let i = 0; i < 30_001; i++)
      for (let c = 0; c < 2; c++) if (samples[i * 2 + c] !== input[c]![i]) mismatches++;
    expect(mismatches).toBe(0);
  });

  it('a 10-minute 48 kHz stereo export: 24-bit and float are allowed, the spec 16-bit WAV keeps its 100 MB cap', () => {
    const tenMinutes = [new Float32Array(48_000 * 600), new Float32Array(48_000 * 600)];
    expect(wavParts(tenMinutes, 48_000, { encoding: 'int24' }).next().value!.part.length).toBe(44);
    expect(wavParts(tenMinutes, 48_000, { encoding: 'float32' }).next().value!.part.length).toBe(58);
    expect(() => wavParts(tenMinutes, 48_000).next()).toThrow('Audio file too large for export');
  });
});
