import { describe, expect, it } from 'vitest';
import { THIRD_OCTAVE_CENTRES, type TrackAnalysis } from '../../../../audio/dsp/track-analysis';
import { referenceBandNote, referenceSentence, referenceTargetNote } from './reference-notes';

// A -3 dB/octave spectrum, optionally empty from `cutHz` up.
const track = (cutHz = Infinity) =>
  ({
    midDb: THIRD_OCTAVE_CENTRES.map((hz) => (hz > cutHz ? -120 : -20 - 3 * Math.log2(hz / 100))),
  }) as unknown as TrackAnalysis;

describe('reference notes', () => {
  it('names the loudness and the target it replaces', () => {
    expect(referenceTargetNote(-17.62, "Preset's own")).toBe(
      "Master to -17.6 LUFS, the reference's loudness: it replaces the Loudness target (Preset's own) while a reference is loaded",
    );
  });

  it('says when a band-limited reference is left out above its cut-off, and when a lossy one is fine', () => {
    expect(referenceBandNote('ref.mp3', track(11_000))).toMatch(
      /^This MP3 reference has nothing above about 11 kHz .* left out of the tone match/,
    );
    expect(referenceBandNote('ref.wav', track(8_000))).toMatch(
      /^This reference has nothing above about 8\.9 kHz/,
    );
    expect(referenceBandNote('ref.ogg', track())).toMatch(/lossy OGG file; .* all bands are matched/);
    expect(referenceBandNote('ref.wav', track())).toBeNull();
    // A cut above the matched range (16 kHz) changes nothing in the match: no band note for a WAV.
    expect(referenceBandNote('ref.flac', track(16_500))).toBeNull();
  });
});

// A track of `lufs` whose spectrum tilts by `slope` dB per octave (negative: darker).
const tilted = (lufs: number, slope: number) => ({
  integratedLufs: lufs,
  midDb: THIRD_OCTAVE_CENTRES.map((hz) => -20 + slope * Math.log2(hz / 100)),
});

describe('the reference sentence', () => {
  it('a louder, brighter reference', () => {
    expect(referenceSentence(tilted(-9, -2), tilted(-14.2, -3), 70)).toBe(
      'Your reference is 5.2 dB louder than your track and brighter; the master takes its loudness and 70 % of its tone.',
    );
  });
  it('a quieter, darker reference', () => {
    expect(referenceSentence(tilted(-18, -4.5), tilted(-12, -3), 40)).toBe(
      'Your reference is 6.0 dB quieter than your track and darker; the master takes its loudness and 40 % of its tone.',
    );
  });
  it('a reference like the track: nothing to change', () => {
    expect(referenceSentence(tilted(-14.1, -3), tilted(-14, -3.1), 85)).toBe(
      'Your reference is about as loud as your track with a similar tone; the master takes its loudness and 85 % of its tone.',
    );
  });
});
