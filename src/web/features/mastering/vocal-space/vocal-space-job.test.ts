import { describe, expect, it } from 'vitest';
import { SILENT_VOCAL_PROFILE } from '../../../../audio/dsp/vocal-space';
import type { LoadedStems } from '../source/mix-stems';
import { formatVocalClarity, liveVocalSpace, stemsWithBeat } from './vocal-space-job';

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

  it('stems with a carved beat keep the mix equal to vocals + instrumental', async () => {
    const ramp = (k: number) => Float32Array.from({ length: 5000 }, (_, i) => Math.sin(i * k) * 0.1);
    const stems: LoadedStems = {
      sampleRate: 44_100,
      vocals: [ramp(0.01), ramp(0.02)],
      instrumental: [ramp(0.03), ramp(0.04)],
      mix: [ramp(0.05), ramp(0.06)],
    };
    const beat: [Float32Array, Float32Array] = [ramp(0.07), ramp(0.08)];
    const out = await stemsWithBeat(stems, beat, new AbortController().signal);
    expect(out.instrumental).toBe(beat);
    expect(out.vocals).toBe(stems.vocals);
    for (let c = 0; c < 2; c++)
      expect(out.mix[c]).toEqual(Float32Array.from(beat[c]!, (x, i) => x + stems.vocals[c]![i]!));
  });
});
