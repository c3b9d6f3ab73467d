import { describe, expect, it } from 'vitest';
import { formatTime, scrubLabels } from './time-format';

describe('time format', () => {
  it('formats minutes and seconds', () => {
    expect(formatTime(0)).toBe('0:00');
    expect(formatTime(64.56)).toBe('1:04');
    expect(formatTime(64.56, true)).toBe('1:04.5');
    expect(formatTime(Number.NaN)).toBe('0:00');
  });

  it('labels the scrub bar at 0, 1/4, 1/2, 3/4 and the end', () => {
    expect(scrubLabels(60)).toEqual([0, 15, 30, 45, 60]);
  });
});
