/**
 * The section balance's octave powers (decision 218) come from one fused pass per octave and channel pair;
 * they must be, bit for bit, what one BiquadCascade pass per channel and octave followed by a sum of squares
 * gave (the plan's LRA foresight, and so every adaptive master, depends on them).
 */
import { describe, expect, it } from 'vitest';
import { BiquadCascade, designBiquad } from './biquad';
import { SECTION_OCTAVES_HZ, sectionOctavesDb } from './section-balance';
import { musicLike } from './test-signals';

/** The straightforward form: filter a copy of each channel per octave, then sum the squares per block. */
const reference = (channels: readonly Float32Array[], sampleRate: number): number[][] => {
  const n = channels[0]?.length ?? 0;
  const block = Math.round(sampleRate);
  const blocks = Math.floor(n / block);
  if (blocks === 0) return [];
  const rows = Array.from({ length: blocks }, () => SECTION_OCTAVES_HZ.map(() => 0));
  const band = new Float32Array(n);
  for (const channel of channels) {
    SECTION_OCTAVES_HZ.forEach((hz, o) => {
      if (hz >= sampleRate / 2.2) return;
      const filter = new BiquadCascade(1, 1);
      filter.setSection(0, designBiquad({ kind: 'bandpass', frequency: hz, q: Math.SQRT2 }, sampleRate));
      band.set(channel);
      filter.process(band, 0);
      for (let b = 0; b < blocks; b++) {
        let sum = 0;
        for (let i = b * block; i < (b + 1) * block; i++) sum += band[i]! * band[i]!;
        rows[b]![o]! += sum / block;
      }
    });
  }
  return rows.map((row) => row.map((p) => (p > 0 ? 10 * Math.log10(p) : -Infinity)));
};

describe('section octave powers', () => {
  it('equal the per-channel filter-then-sum form exactly: stereo, mono, three channels, 32 kHz', () => {
    const stereo = musicLike({ seconds: 12.5, seed: 5 });
    const cases: [Float32Array[], number][] = [
      [stereo, 44100],
      [[stereo[0]!], 44100],
      [[stereo[0]!, stereo[1]!, stereo[0]!.map((v, i) => v - stereo[1]![i]!)], 44100],
      [musicLike({ seconds: 7.3, seed: 6, sampleRate: 32000 }), 32000],
    ];
    for (const [channels, rate] of cases) {
      const t0 = performance.now();
      const fused = sectionOctavesDb(channels, rate);
      const t1 = performance.now();
      const plain = reference(channels, rate);
      const t2 = performance.now();
      console.log(
        `[sections] ${channels.length} ch at ${rate} Hz: fused ${(t1 - t0).toFixed(0)} ms, per channel ${(t2 - t1).toFixed(0)} ms`,
      );
      expect(fused.length).toBeGreaterThan(0);
      expect(fused).toEqual(plain);
    }
  });
});
