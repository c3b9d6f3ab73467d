import { describe, expect, it } from 'vitest';
import { decodeTake } from './genre-takes.test-helper';
import { applyPlannedGain } from './mastering-chain';
import { musicLike } from './test-signals';

/** The final gain frame by frame, as it was written before decision 293 (the reference). */
const perFrame = (data: Float32Array, gains: Float64Array, g: number, start: number, end: number) => {
  for (let m = start; m < end; m++) {
    const block = m >> 4;
    const g0 = gains[block]!;
    data[m] = data[m]! * g * (g0 + (gains[block + 1]! - g0) * ((m & 15) * 0.0625));
  }
};

describe('applyPlannedGain', () => {
  it('gives the frame-by-frame samples exactly, over ranges cut anywhere', async () => {
    const real = await decodeTake('/usr/share/games/asc/music/time_to_strike.mp3', 44100, '', 30, 10);
    const signals = [...musicLike({ seconds: 5, sampleRate: 44100, seed: 9 }), ...(real ?? [])];
    for (const x of signals) {
      const blocks = Math.ceil(x.length / 16);
      const gains = Float64Array.from(
        { length: blocks + 1 },
        (_, b) => 0.3 + 0.7 * Math.abs(Math.cos(b * 0.0137)),
      );
      for (const [g, cuts] of [
        [1, [0, x.length]],
        [1.9, [0, 7, 16, 17, 4099, 4100, x.length - 3, x.length]],
      ] as const) {
        const got = x.slice();
        const want = x.slice();
        for (let k = 0; k + 1 < cuts.length; k++) {
          applyPlannedGain(got, gains, g, cuts[k]!, cuts[k + 1]!);
          perFrame(want, gains, g, cuts[k]!, cuts[k + 1]!);
        }
        const a = new Uint32Array(got.buffer);
        const b = new Uint32Array(want.buffer);
        let differing = 0;
        for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) differing++;
        expect(differing).toBe(0);
      }
    }
  });
});
