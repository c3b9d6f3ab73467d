import { describe, expect, it } from 'vitest';
import { TEXT } from './mastering-texts';

describe('TEXT.rateSource', () => {
  it('writes every sample rate Web Audio can hold (3 to 768 kHz) as toLocaleString("en-US") does', () => {
    let differ = 0;
    for (let rate = 3000; rate <= 768_000; rate++)
      if (TEXT.rateSource(rate) !== `Source (${(rate / 1000).toLocaleString('en-US')} kHz)`) differ++;
    expect(differ).toBe(0);
    expect(TEXT.rateSource(44_100)).toBe('Source (44.1 kHz)');
    expect(TEXT.rateSource(22_050)).toBe('Source (22.05 kHz)');
    expect(TEXT.rateSource(48_000)).toBe('Source (48 kHz)');
  });
});
