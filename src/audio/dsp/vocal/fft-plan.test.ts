import { describe, expect, it } from 'vitest';
import { FftPlan } from './fft-plan';

/** The DFT by its definition, in natural order. */
const dft = (re: Float64Array, im: Float64Array, sign: number) => {
  const n = re.length;
  const outRe = new Float64Array(n);
  const outIm = new Float64Array(n);
  for (let k = 0; k < n; k++)
    for (let t = 0; t < n; t++) {
      const a = (sign * 2 * Math.PI * ((k * t) % n)) / n;
      outRe[k]! += re[t]! * Math.cos(a) - im[t]! * Math.sin(a);
      outIm[k]! += re[t]! * Math.sin(a) + im[t]! * Math.cos(a);
    }
  return [outRe, outIm] as const;
};

const random = (n: number, seed: number) => {
  let s = seed;
  return Float64Array.from({ length: n }, () => {
    s = (s * 16807) % 2147483647;
    return s / 2147483647 - 0.5;
  });
};

describe('FftPlan', () => {
  for (const size of [2, 4, 8, 16, 32, 64, 512, 1024, 2048]) {
    it(`size ${size}: forward matches the DFT, the scrambled forward is it in bit-reversed order, the inverse undoes it`, () => {
      const plan = new FftPlan(size);
      const xr = random(size, 7 + size);
      const xi = random(size, 11 + size);
      const [er, ei] = dft(xr, xi, -1);
      const tol = 1e-9 * size;
      const re = Float64Array.from(xr);
      const im = Float64Array.from(xi);
      plan.forward(re, im);
      for (let k = 0; k < size; k++) {
        expect(re[k]!).toBeCloseTo(er[k]!, 9);
        expect(Math.abs(im[k]! - ei[k]!)).toBeLessThan(tol);
      }
      const sr = Float64Array.from(xr);
      const si = Float64Array.from(xi);
      plan.forwardScrambled(sr, si);
      for (let k = 0; k < size; k++) {
        expect(Math.abs(sr[plan.rev[k]!]! - er[k]!)).toBeLessThan(tol);
        expect(Math.abs(si[plan.rev[k]!]! - ei[k]!)).toBeLessThan(tol);
      }
      plan.inverseScrambled(sr, si);
      for (let t = 0; t < size; t++) {
        expect(Math.abs(sr[t]! / size - xr[t]!)).toBeLessThan(1e-12);
        expect(Math.abs(si[t]! / size - xi[t]!)).toBeLessThan(1e-12);
      }
    });
  }

  it('the inverse alone is the conjugate-sign DFT', () => {
    const size = 64;
    const plan = new FftPlan(size);
    const xr = random(size, 3);
    const xi = random(size, 5);
    const [er, ei] = dft(xr, xi, 1);
    const sr = new Float64Array(size);
    const si = new Float64Array(size);
    for (let k = 0; k < size; k++) {
      sr[plan.rev[k]!] = xr[k]!;
      si[plan.rev[k]!] = xi[k]!;
    }
    plan.inverseScrambled(sr, si);
    for (let t = 0; t < size; t++) {
      expect(Math.abs(sr[t]! - er[t]!)).toBeLessThan(1e-10);
      expect(Math.abs(si[t]! - ei[t]!)).toBeLessThan(1e-10);
    }
  });
});
