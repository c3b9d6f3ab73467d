/**
 * How fast the integrated loudness after the limiter rises per dB of input gain, read off one limiter plan
 * (decision 298). The loudness solve steps toward its target along this slope (a Newton step): with a slope of
 * 1 for its first step it fell short wherever the limiter worked (0.2 LU at Balanced, 0.9 LU at Loud on
 * generated music) and needed a third or fourth try, each a limiter plan and new block true peaks.
 *
 * Per 16-frame block, from the plan's gain reduction r (in nepers, >= 0) and the reduction R0 of the peak that
 * caused it: a block held at a peak (r = R0, and every block of the attack before it) does not rise with the
 * input; a free block (r = 0) rises fully; a block in the release after a peak rises by 1 - r / R0, since the
 * release falls exponentially in dB from the peak's reduction, so deepening the peak by d deepens the tail
 * by d * r / R0. Weighted by each block's output energy. Against the slope of two real plans 0.05 dB apart
 * (limited-slope.test.ts): within 0.035 on generated pop, club and acoustic tracks at every preset and on
 * asc-music's 'frontiers' at Clean and Balanced, 0.076 under it at Loud (whose peak compressor releases on
 * its own); the step it gives landed within 0.03 LU of the target at Clean and Balanced everywhere, and
 * 0.1-0.2 LU short at Loud where a slope of 1 fell 0.2-0.9 LU short.
 */
export const limitedLoudnessSlope = (energy: Float64Array, boundaryGains: Float64Array): number => {
  let all = 0;
  let rising = 0;
  let peakReduction = 0;
  let previous = 0;
  const blocks = Math.min(energy.length, boundaryGains.length - 1);
  for (let b = 0; b < blocks; b++) {
    const a = boundaryGains[b]!;
    const c = boundaryGains[b + 1]!;
    const output = energy[b]! * (a * a + a * c + c * c);
    all += output;
    const least = Math.min(a, c);
    if (least >= 1) {
      previous = 0;
      rising += output;
      continue;
    }
    const r = -Math.log(least);
    if (r > previous) peakReduction = r;
    previous = r;
    rising += output * (1 - r / peakReduction);
  }
  return all > 0 ? rising / all : 1;
};
