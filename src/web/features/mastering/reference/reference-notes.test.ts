import { describe, expect, it } from 'vitest';
import { THIRD_OCTAVE_CENTRES, type TrackAnalysis } from '../../../../audio/dsp/track-analysis';
import { referenceBandNote, referenceTargetNote } from './reference-notes';

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
