/** What the WebAssembly kernels' tests share: their test signal, and the kernels switched back on after each. */
import { afterEach } from 'vitest';
import { setWasmKernels } from './simd-kernels';

/** Tests switch the kernels off to run the JavaScript twin; each test after starts with them on again. */
export const restoreWasmKernelsAfterEach = (): void => {
  afterEach(() => {
    setWasmKernels(true);
  });
};

/**
 * Noise at `loud` with near-silent (1e-30) and silent stretches, in 20,000-frame cycles: the filters' tails
 * reach the state's flush, as they do between a song's sections.
 */
export const stretchedNoise = (frames: number, seed: number, loud: number): Float32Array => {
  let s = seed;
  return Float32Array.from({ length: frames }, (_, i) => {
    s = (s * 1103515245 + 12345) >>> 0;
    return (s / 2 ** 31 - 1) * (i % 20000 < 9000 ? loud : i % 20000 < 15000 ? 1e-30 : 0);
  });
};
