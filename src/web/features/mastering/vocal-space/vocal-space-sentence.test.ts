import { describe, expect, it } from 'vitest';
import { vocalSpaceSentence } from './vocal-space-sentence';

describe('the Vocal space sentence', () => {
  it('a carve that is heard', () => {
    expect(vocalSpaceSentence(2.14, -3)).toBe(
      'The beat now steps back where your vocal sings, so the vocal stands out 2.1 dB more clearly.',
    );
  });
  it('a vocal already above the beat: little to do', () => {
    expect(vocalSpaceSentence(0.2, 4)).toMatch(
      /^The vocal already stood above the beat .*\(0\.2 dB clearer\)\.$/,
    );
  });
  it('a buried vocal the amount barely helps: try more', () => {
    expect(vocalSpaceSentence(0.3, -6)).toMatch(/try a higher amount\.$/);
  });
});
