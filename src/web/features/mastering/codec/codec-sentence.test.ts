import { describe, expect, it } from 'vitest';
import { codecPreviewReport } from '../engine/engine-api';
import { codecSentence } from './codec-sentence';

const mp3 = (peak: number, lufs: number) => ({
  label: 'MP3 320 kbps',
  report: codecPreviewReport(
    'mp3-320',
    { truePeakDbtp: -1.2, integratedLufs: -14 },
    {
      truePeakDbtp: peak,
      integratedLufs: lufs,
    } as never,
    -1,
  ),
});

describe('the Codec preview sentence', () => {
  it('before any encode: says what to do', () => {
    expect(codecSentence([], -1)).toMatch(/^Streaming services send a compressed copy .* encode one below/);
  });

  it('peaks that stay under the ceiling: it will not distort', () => {
    expect(codecSentence([mp3(-1.05, -14.02)], -1)).toBe(
      'As MP3 320 kbps its peaks rise 0.15 dB and stay under the −1 dB ceiling, so it will not distort.',
    );
  });

  it('peaks pushed over the ceiling, and a loudness change worth naming', () => {
    expect(codecSentence([mp3(-0.4, -13.5)], -1)).toBe(
      'As MP3 320 kbps its peaks rise 0.80 dB and go over the −1 dB ceiling, so it may distort slightly (and it plays 0.5 dB louder).',
    );
  });
});
