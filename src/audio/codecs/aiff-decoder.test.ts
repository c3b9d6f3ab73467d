import { describe, expect, it } from 'vitest';
import { decodeAiff, isAiff } from './aiff-decoder';
import { runTool } from './codec-tools.test-helper';

/** A float WAV of known samples for ffmpeg to turn into AIFF variants. */
const floatWav = (channels: Float32Array[], rate: number): Uint8Array => {
  const frames = channels[0]!.length;
  const n = channels.length;
  const out = new DataView(new ArrayBuffer(44 + frames * n * 4));
  const text = (at: number, s: string) => {
    for (let i = 0; i < s.length; i++) out.setUint8(at + i, s.charCodeAt(i));
  };
  text(0, 'RIFF');
  out.setUint32(4, 36 + frames * n * 4, true);
  text(8, 'WAVEfmt ');
  out.setUint32(16, 16, true);
  out.setUint16(20, 3, true);
  out.setUint16(22, n, true);
  out.setUint32(24, rate, true);
  out.setUint32(28, rate * n * 4, true);
  out.setUint16(32, n * 4, true);
  out.setUint16(34, 32, true);
  text(36, 'data');
  out.setUint32(40, frames * n * 4, true);
  for (let i = 0; i < frames; i++)
    for (let c = 0; c < n; c++) out.setFloat32(44 + (i * n + c) * 4, channels[c]![i]!, true);
  return new Uint8Array(out.buffer);
};

/** ffmpeg's conversion of the float WAV to an AIFF flavour, and ffmpeg's own float decode of that AIFF. */
const viaFfmpeg = async (wav: Uint8Array, codec: string) => {
  // AIFF needs a seekable output (its sizes are written last): a file, not a pipe.
  const made = await runTool(
    wav,
    'wav',
    'ffmpeg',
    (input, output) => ['-v', 'error', '-i', input, '-c:a', codec, '-f', 'aiff', output],
    'aiff',
  );
  expect(made.status, made.stderr).toBe(0);
  const aiff = made.output!;
  const back = await runTool(aiff, 'aiff', 'ffmpeg', (input) => [
    '-v',
    'error',
    '-i',
    input,
    '-f',
    'f32le',
    '-',
  ]);
  expect(back.status, back.stderr).toBe(0);
  return { aiff, reference: new Float32Array(back.stdout.slice().buffer) };
};

const signal = (frames: number, c: number) =>
  Float32Array.from({ length: frames }, (_, i) => 0.9 * Math.sin((i * (c + 1)) / 17) * Math.cos(i / 1000));

describe('AIFF reader', () => {
  for (const [codec, bits, form] of [
    ['pcm_s8', 8, 'AIFF'],
    ['pcm_s16be', 16, 'AIFF'],
    ['pcm_s24be', 24, 'AIFF'],
    ['pcm_s32be', 32, 'AIFF'],
    ['pcm_s16le', 16, 'AIFC'], // AIFF-C 'sowt'
    ['pcm_f32be', 32, 'AIFC'], // AIFF-C 'fl32'
  ] as const) {
    it(`${form} ${codec}: same samples as ffmpeg's decoder, rate from the 80-bit extended field`, async () => {
      const frames = 9_001;
      const { aiff, reference } = await viaFfmpeg(
        floatWav([signal(frames, 0), signal(frames, 1)], 44_100),
        codec,
      );
      expect(new TextDecoder().decode(aiff.subarray(8, 12))).toBe(form);
      expect(isAiff(aiff)).toBe(true);
      const decoded = decodeAiff(aiff);
      expect(decoded).toMatchObject({ sampleRate: 44_100, channelCount: 2, bitsPerSample: bits, frames });
      let worst = 0;
      for (let i = 0; i < frames; i++)
        for (let c = 0; c < 2; c++)
          worst = Math.max(worst, Math.abs(decoded.channels[c]![i]! - reference[i * 2 + c]!));
      expect(worst).toBe(0);
    });
  }

  it('reads odd rates (48 kHz, 96 kHz, 22.05 kHz) from the extended float', async () => {
    for (const rate of [48_000, 96_000, 22_050]) {
      const { aiff } = await viaFfmpeg(floatWav([signal(100, 0)], rate), 'pcm_s16be');
      expect(decodeAiff(aiff).sampleRate).toBe(rate);
    }
  });

  it('refuses what is not AIFF or has no sound data', () => {
    expect(() => decodeAiff(new TextEncoder().encode('RIFF....WAVEfmt '))).toThrow('Not an AIFF file');
    const noSound = new Uint8Array([
      ...new TextEncoder().encode('FORM'),
      0,
      0,
      0,
      4,
      ...new TextEncoder().encode('AIFF'),
    ]);
    expect(() => decodeAiff(noSound)).toThrow('No COMM chunk');
  });
});
