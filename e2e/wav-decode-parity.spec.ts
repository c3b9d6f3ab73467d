import { expect, test } from '@playwright/test';
import { decodeWav, readWavLayout } from '../src/audio/codecs/wav-decoder';
import { wavFile } from '../src/audio/codecs/wav-file.test-helper';
import { workerDecodableWav } from '../src/audio/workers/wav-decode-handlers';

/**
 * The mixer reads the WAV files workerDecodableWav takes with our own reader in a worker (issue 26) instead
 * of decodeAudioData: this holds Chromium's decodeAudioData (at the file's own rate, as the mixer asks it)
 * and our reader to the very same bits, sample by sample, for every layout the worker takes. The files are
 * random sample bytes with each format's extremes written in front; the float files add -0, subnormals and
 * values beyond ±1.
 */
const LAYOUTS = [
  { format: 1, bits: 16, channels: 1, extensible: false, rate: 44_100 },
  { format: 1, bits: 16, channels: 2, extensible: true, rate: 48_000 },
  { format: 1, bits: 24, channels: 2, extensible: false, rate: 96_000 },
  { format: 1, bits: 24, channels: 6, extensible: true, rate: 48_000 },
  { format: 1, bits: 32, channels: 2, extensible: false, rate: 44_100 },
  { format: 1, bits: 32, channels: 1, extensible: true, rate: 22_050 },
  { format: 3, bits: 32, channels: 2, extensible: false, rate: 48_000 },
  { format: 3, bits: 32, channels: 8, extensible: true, rate: 192_000 },
];
const FRAMES = 40_001;

/** Each format's extremes (and for floats the awkward values) in the first frames of every channel. */
const withEdges = (file: ArrayBuffer, format: number, bits: number): Uint8Array => {
  const bytes = new Uint8Array(file);
  const view = new DataView(file);
  const { data, channelCount, blockAlign } = readWavLayout(bytes);
  const floats = [0, -0, 1, -1, 1.5, -3, 2 ** -149, -(2 ** -130), 1e-40, 3.4e38, 0.1];
  const ints = [-(2 ** (bits - 1)), 2 ** (bits - 1) - 1, 0, -1, 1, 2 ** (bits - 2), -(2 ** (bits - 2)) - 1];
  const values = format === 3 ? floats : ints;
  for (const [f, v] of values.entries()) {
    for (let c = 0; c < channelCount; c++) {
      const at = data.offset + f * blockAlign + (c * bits) / 8;
      if (format === 3) view.setFloat32(at, v, true);
      else if (bits === 16) view.setInt16(at, v, true);
      else if (bits === 32) view.setInt32(at, v, true);
      else {
        view.setUint8(at, v & 0xff);
        view.setUint8(at + 1, (v >> 8) & 0xff);
        view.setUint8(at + 2, (v >> 16) & 0xff);
      }
    }
  }
  return bytes;
};

for (const layout of LAYOUTS) {
  const name = `${layout.bits}-bit ${layout.format === 3 ? 'float' : 'integer'}, ${layout.channels} ch, ${layout.rate} Hz${layout.extensible ? ', WAVE_FORMAT_EXTENSIBLE' : ''}`;
  test(`our WAV reader gives decodeAudioData's very samples: ${name}`, async ({ page }) => {
    const bytes = withEdges(wavFile({ ...layout, frames: FRAMES }), layout.format, layout.bits);
    expect(workerDecodableWav(bytes)).toBe(layout.rate);
    const ours = decodeWav(bytes, { int16: false, chromium: true });
    const chrome = await page.evaluate(
      async ({ base64, rate }) => {
        const file = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
        const ctx = new OfflineAudioContext({ numberOfChannels: 1, length: 1, sampleRate: rate });
        const buffer = await ctx.decodeAudioData(file.buffer);
        const channels = Array.from({ length: buffer.numberOfChannels }, (_, c) => {
          const data = new Uint8Array(buffer.getChannelData(c).buffer);
          let text = '';
          for (let i = 0; i < data.length; i += 8192)
            text += String.fromCharCode(...data.subarray(i, i + 8192));
          return btoa(text);
        });
        return { rate: buffer.sampleRate, length: buffer.length, channels };
      },
      { base64: Buffer.from(bytes).toString('base64'), rate: layout.rate },
    );
    expect(chrome.rate).toBe(ours.sampleRate);
    expect(chrome.length).toBe(FRAMES);
    expect(chrome.channels.length).toBe(layout.channels);
    for (const [c, text] of chrome.channels.entries()) {
      // Bit patterns, not values: -0 against 0 and every subnormal count.
      const theirs = new Uint32Array(new Uint8Array(Buffer.from(text, 'base64')).buffer);
      const mine = new Uint32Array(ours.channels[c]!.buffer);
      const differing = mine.findIndex((bits, i) => bits !== theirs[i]);
      const at = Math.max(0, differing);
      const detail = `channel ${c}: first differing sample (ours ${ours.channels[c]![at]}, Chromium's ${new Float32Array(theirs.buffer)[at]})`;
      expect(differing, detail).toBe(-1);
      expect(theirs.length).toBe(mine.length);
    }
  });
}
