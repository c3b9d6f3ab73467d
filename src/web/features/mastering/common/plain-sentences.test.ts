import { describe, expect, it } from 'vitest';
import type { LoudnessReport } from '../../../../audio/dsp/loudness';
import type { TrackAnalysis } from '../../../../audio/dsp/track-analysis';
import { analysisSentence, loudnessSentence, punchWords } from './plain-sentences';

const report = (lufs: number, peak: number) =>
  ({ integratedLufs: lufs, truePeakDbtp: peak }) as LoudnessReport;

describe('plain sentences', () => {
  it('says how loud the track is, then what the master did', () => {
    expect(loudnessSentence(report(-19.24, -0.5), null)).toBe(
      'Your track plays at −19.2 LUFS and peaks at −0.5 dBTP; master it to compare.',
    );
    expect(loudnessSentence(report(-19.2, -0.5), report(-14, -1.1))).toBe(
      'The master is turned up 5.2 dB, to −14.0 LUFS, with its peaks at −1.1 dBTP.',
    );
    expect(loudnessSentence(report(-8, 0.3), report(-9, -1))).toMatch(/^The master is turned down 1\.0 dB/);
    expect(loudnessSentence(report(-14.2, -1), report(-14, -1))).toMatch(/kept at about the same loudness/);
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
