import { describe, expect, it } from 'vitest';
import { designResampler, resampleChannel, resampledLength } from './resample';
import { measureSweep, renderSweep, sweep } from './resample-sweep.test-helper';

const linear = (input: Float32Array, inRate: number, outRate: number) =>
  Float32Array.from({ length: resampledLength(input.length, inRate, outRate) }, (_, j) => {
    const pos = (j * inRate) / outRate;
    const i = Math.floor(pos);
    const f = pos - i;
    return (input[i] ?? 0) * (1 - f) + (input[i + 1] ?? 0) * f;
  });

describe('resampler (polyphase windowed sinc)', () => {
  it('48 → 44.1 kHz, swept sine 20 Hz → 23.9 kHz: aliases and passband error ≥ 90 dB down', () => {
    const s = sweep(20, 23_900, 3);
    const input = renderSweep(s, 48_000, 3);
    const out = resampleChannel(input, 48_000, 44_100);
    expect(out.length).toBe(132_300);
    const m = measureSweep(out, 44_100, s, 200);
    expect(m.stopBlocks).toBeGreaterThan(5);
    expect(m.stopbandDb).toBeLessThanOrEqual(-90);
    expect(m.passbandDb).toBeLessThanOrEqual(-90);
    // The measurement does catch aliasing: linear interpolation fails it by far.
    expect(measureSweep(linear(input, 48_000, 44_100), 44_100, s, 200).stopbandDb).toBeGreaterThan(-40);
  });

  it('44.1 → 48 kHz, swept sine 20 Hz → 22 kHz: images and passband error ≥ 90 dB down', () => {
    const s = sweep(20, 22_000, 3);
    const input = renderSweep(s, 44_100, 3);
    const out = resampleChannel(input, 44_100, 48_000);
    expect(out.length).toBe(144_000);
    const m = measureSweep(out, 48_000, s, 200);
    expect(m.passbandDb).toBeLessThanOrEqual(-90);
    expect(measureSweep(linear(input, 44_100, 48_000), 48_000, s, 200).passbandDb).toBeGreaterThan(-60);
  });

  it('96 → 48 kHz and 22.05 → 48 kHz keep the passband within 90 dB', () => {
    for (const [from, to] of [
      [96_000, 48_000],
      [22_050, 48_000],
    ] as const) {
      const s = sweep(20, Math.min(19_000, from * 0.43), 2);
      const out = resampleChannel(renderSweep(s, from, 2), from, to);
      expect(out.length).toBe(to * 2);
      expect(measureSweep(out, to, s, 400).passbandDb).toBeLessThanOrEqual(-90);
    }
  });

  it('an odd rate pair (37 800 → 44 100, interpolated phase table) stays clean too', () => {
    expect(designResampler(37_800, 44_100).phases).toBe(7);
    const d = designResampler(44_100, 47_999);
    expect(d.phases).toBe(1024);
    const s = sweep(20, 19_000, 1);
    const out = resampleChannel(renderSweep(s, 44_100, 1), 44_100, 47_999, d);
    expect(measureSweep(out, 47_999, s, 400).passbandDb).toBeLessThanOrEqual(-90);
  });
});
