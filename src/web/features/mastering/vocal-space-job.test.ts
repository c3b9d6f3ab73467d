import { describe, expect, it } from 'vitest';
import { SILENT_VOCAL_PROFILE } from '../../../audio/dsp/vocal-space';
import { formatVocalClarity, liveVocalSpace } from './vocal-space-job';

describe('vocal space on the page', () => {
  it("words the figure as the issue does: '+2.8 dB vocal clarity'", () => {
    expect(formatVocalClarity(2.84)).toBe('+2.8 dB vocal clarity');
    expect(formatVocalClarity(0)).toBe('+0.0 dB vocal clarity');
    expect(formatVocalClarity(-0.26)).toBe('-0.3 dB vocal clarity');
  });

  it('the live chain carves only with a profile and an amount above 0', () => {
    expect(liveVocalSpace(50, null)).toBeNull();
    expect(liveVocalSpace(0, SILENT_VOCAL_PROFILE)).toBeNull();
    expect(liveVocalSpace(40, SILENT_VOCAL_PROFILE)).toEqual({ amount: 40, profile: SILENT_VOCAL_PROFILE });
  });
});
