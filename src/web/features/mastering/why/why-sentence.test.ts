import { describe, expect, it } from 'vitest';
import { whySentence } from './why-sentence';

const dyn = (maxDb: number) => ({
  maxDb,
  averageDb: maxDb / 3,
  averageActiveDb: maxDb / 2,
  activeShare: 0.4,
});
const bands = (changes: number[]) =>
  ['Sub Bass', 'Bass', 'Low Mids', 'Mids', 'High Mids', 'Presence', 'Brilliance'].map((name, i) => ({
    name,
    changeDb: changes[i] ?? 0,
  }));

describe('the "Why it sounds like this" sentence', () => {
  it('a squashed, brightened master', () => {
    expect(
      whySentence({
        compressor: dyn(4.12),
        limiter: dyn(2.3),
        bandChanges: bands([0, 0.4, -0.2, 0, 1.2, 2.5, 1.9]),
        offTargetLu: 0.1,
      }),
    ).toBe(
      'The compressor held the loudest moments down by up to 4.1 dB, the limiter shaved up to 2.3 dB off the sharpest peaks, the EQ brought the presence up 2.5 dB, and the master landed on its loudness target.',
    );
  });

  it('a darker master that fell short of its target', () => {
    expect(
      whySentence({
        compressor: dyn(1.5),
        limiter: dyn(6),
        bandChanges: bands([1.4, 0.3, 0, 0, -0.5, -2.2, -3.1]),
        offTargetLu: -1.26,
      }),
    ).toBe(
      'The compressor held the loudest moments down by up to 1.5 dB, the limiter shaved up to 6.0 dB off the sharpest peaks, the EQ brought the sub bass up 1.4 dB and took 3.1 dB off the brilliance, and the master landed 1.3 dB below its loudness target.',
    );
  });

  it('nothing to fix: compression off, limiter idle, tone kept', () => {
    expect(
      whySentence({
        compressor: null,
        limiter: dyn(0.1),
        bandChanges: bands([0.2, -0.3, Number.NaN, 0.1, 0, 0.5, -0.9]),
        offTargetLu: 0,
      }),
    ).toBe(
      'There was no compression, the limiter hardly had to catch a peak, the EQ kept its tone within a decibel, and the master landed on its loudness target.',
    );
  });
});
