import { describe, expect, it } from 'vitest';
import { decodeWav } from '../codecs/wav-decoder';
import { wavFile } from '../codecs/wav-file.test-helper';
import { inProcessWorker } from './in-process-worker.test-helper';
import { WavDecodeClient } from './wav-decode-client';
import { createWavDecodeHandlers, workerDecodableWav } from './wav-decode-handlers';
import type { WavDecodeApi } from './wav-decode-protocol';

const factory = inProcessWorker<WavDecodeApi>(createWavDecodeHandlers);

describe('the WAV decode worker', () => {
  it.each([
    { format: 1, bits: 16, channels: 2, extensible: false },
    { format: 1, bits: 24, channels: 1, extensible: false },
    { format: 1, bits: 32, channels: 6, extensible: true },
    { format: 3, bits: 32, channels: 2, extensible: false },
    { format: 1, bits: 24, channels: 2, extensible: true },
  ])(
    'decodes $bits-bit format $format, $channels channels (extensible: $extensible) as decodeWav does',
    async (o) => {
      const file = wavFile({ ...o, frames: 3001 });
      const expected = decodeWav(file.slice(0), { chromium: true });
      const client = new WavDecodeClient(factory);
      const heard: string[] = [];
      const result = await client.decode(new Blob([file]), { onRead: () => heard.push('read') });
      expect(heard).toEqual(['read']); // the bytes were read in the worker, before the result
      expect(result.kind).toBe('decoded');
      if (result.kind !== 'decoded') return;
      expect(result.sampleRate).toBe(48_000);
      expect(result.channels).toEqual(expected.channels);
      client.dispose();
    },
  );

  it.each([
    ['8-bit', { format: 1, bits: 8, channels: 2, frames: 100 }],
    ['64-bit float', { format: 3, bits: 64, channels: 2, frames: 100 }],
    ['no frames', { format: 1, bits: 16, channels: 2, frames: 0 }],
    ['an unsupported rate', { format: 1, bits: 16, channels: 2, frames: 100, rate: 2_000 }],
    ['33 channels', { format: 1, bits: 16, channels: 33, frames: 100 }],
    ['a compressed format', { format: 2, bits: 16, channels: 2, frames: 100 }],
  ])('hands back the bytes of %s, unread, for decodeAudioData', async (_, o) => {
    const file = wavFile(o);
    const copy = new Uint8Array(file.slice(0));
    const client = new WavDecodeClient(factory);
    const result = await client.decode(new Blob([file]));
    expect(result.kind).toBe('refused');
    if (result.kind === 'refused') expect(new Uint8Array(result.bytes)).toEqual(copy);
    client.dispose();
  });

  it('reads the rate of the files it takes and refuses what is not a complete WAV', () => {
    const file = new Uint8Array(wavFile({ format: 1, bits: 16, channels: 2, frames: 10, rate: 44_100 }));
    expect(workerDecodableWav(file)).toBe(44_100);
    expect(workerDecodableWav(file.subarray(0, 30))).toBeNull();
    expect(workerDecodableWav(new TextEncoder().encode('ID3 not a wav file at all'))).toBeNull();
  });

  it('scales 16-bit samples as Chromium does and refuses EXTENSIBLE files of another sub-format GUID and repeated data chunks', async () => {
    const file = wavFile({ format: 1, bits: 16, channels: 1, frames: 4 });
    const view = new DataView(file);
    [-32768, 32767, 1, -1].forEach((v, f) => {
      view.setInt16(44 + 2 * f, v, true);
    });
    const [samples] = decodeWav(file, { chromium: true }).channels;
    expect([...samples!]).toEqual([-1, 1, Math.fround(1 / 32767), -1 / 32768]);
    const odd = new Uint8Array(wavFile({ format: 1, bits: 16, channels: 2, frames: 8, extensible: true }));
    expect(workerDecodableWav(odd)).toBe(48_000);
    odd[12 + 8 + 39] = 0x72; // the GUID's last byte
    expect(workerDecodableWav(odd)).toBeNull();
    const plain = new Uint8Array(wavFile({ format: 1, bits: 16, channels: 1, frames: 4 }));
    const twoData = new Uint8Array(plain.length + 12);
    twoData.set(plain);
    twoData.set(plain.subarray(36, 48), plain.length); // a second data chunk of 4 frames
    expect(workerDecodableWav(plain)).toBe(48_000);
    expect(workerDecodableWav(twoData)).toBeNull();
  });

  it('hands back a WAV whose rate is not in the head decodeUserAudio reads the rate from', async () => {
    // A 140 KB chunk before 'fmt ': our reader finds the rate, sniffSampleRate (the first 128 KB) does not,
    // so decodeAudioData would decode at the fallback rate: the file is refused, and its bytes come back.
    const plain = new Uint8Array(wavFile({ format: 1, bits: 16, channels: 1, frames: 50 }));
    const junk = new Uint8Array(8 + 140_000);
    junk.set(new TextEncoder().encode('junk'));
    new DataView(junk.buffer).setUint32(4, 140_000, true);
    const file = new Uint8Array(plain.length + junk.length);
    file.set(plain.subarray(0, 12));
    file.set(junk, 12);
    file.set(plain.subarray(12), 12 + junk.length);
    new DataView(file.buffer).setUint32(4, file.length - 8, true);
    expect(workerDecodableWav(file)).toBe(48_000);
    const result = await new WavDecodeClient(factory).decode(new Blob([file]));
    expect(result.kind).toBe('refused');
    if (result.kind === 'refused') expect(new Uint8Array(result.bytes)).toEqual(file);
  });

  it('says a file the browser cannot read is unreadable, before any progress', async () => {
    const heard: string[] = [];
    const gone = { arrayBuffer: () => Promise.reject(new DOMException('gone', 'NotReadableError')) };
    const result = await createWavDecodeHandlers().decode(
      { file: gone as unknown as Blob },
      {
        signal: new AbortController().signal,
        progress: (p) => heard.push(p),
        hold: () => undefined,
      },
    );
    expect(result).toEqual({ kind: 'unreadable' });
    expect(heard).toEqual([]);
  });
});
