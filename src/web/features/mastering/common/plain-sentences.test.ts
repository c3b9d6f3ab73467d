import { describe, expect, it } from 'vitest';
import type { LoudnessReport } from '../../../../audio/dsp/loudness';
import type { TrackAnalysis } from '../../../../audio/dsp/track-analysis';
import { analysisSentence, loudnessSentence, punchWords } from './plain-sentences';

const report = (lufs: number, peak: number) =>
  ({ integratedLufs: lufs, truePeakDbtp: peak }) as LoudnessReport;

describe('plain sentences', () => {
  it('says how loud the track is, then what the master did', () => {
    expect(loudnessSentence(report(-19.24, -0.5), null)).toBe(
      'Your track plays at −19.2 LUFS (loudness as streaming services measure it) and its peaks stay 0.5 dB under the clipping point; master it to compare.',
    );
    // Quiet, turned up.
    expect(loudnessSentence(report(-19.2, -0.5), report(-14, -1.1))).toBe(
      'The master is turned up 5.2 dB, to −14.0 LUFS (loudness as streaming services measure it), and its peaks stay 1.1 dB under the clipping point.',
    );
    // Loud and clipping, turned down.
    expect(loudnessSentence(report(-8, 0.3), null)).toMatch(/its peaks go 0\.3 dB over the clipping point/);
    expect(loudnessSentence(report(-8, 0.3), report(-9, -1))).toMatch(/^The master is turned down 1\.0 dB/);
    // Nothing to change.
    expect(loudnessSentence(report(-14.2, -1), report(-14, 0))).toMatch(
      /kept at about the same loudness.*its peaks touch the clipping point\.$/,
    );
    expect(loudnessSentence(report(Number.NEGATIVE_INFINITY, Number.NEGATIVE_INFINITY), null)).toBe(
      'Your track is silent: there is no loudness to measure.',
    );
  });

  it('puts punch, bass and the loudest part in words', () => {
    expect(punchWords(16)).toBe('plenty of punch');
    expect(punchWords(7)).toMatch(/already loud/);
    const track = {
      plrDb: 11,
      lowEndCorrelation: 0.95,
      loudest: { startSeconds: 83, seconds: 30 },
    } as TrackAnalysis;
    expect(analysisSentence(track)).toBe(
      'Your track has a healthy amount of punch, its bass is centred, and its loudest part starts at 1:23.',
    );
  });
});
