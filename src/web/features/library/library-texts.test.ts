import { describe, expect, it } from 'vitest';
import { formatBytes } from './library-texts';

describe('formatBytes', () => {
  it('reads an empty library as 0 KB, not 1 KB', () => {
    expect(formatBytes(0)).toBe('0 KB');
  });
  it('rounds a few bytes up to 1 KB and larger sizes to MB and GB', () => {
    expect(formatBytes(200)).toBe('1 KB');
    expect(formatBytes(5 * 1024 ** 2)).toBe('5.0 MB');
    expect(formatBytes(2 * 1024 ** 3)).toBe('2 GB');
  });
});
