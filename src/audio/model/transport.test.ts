import { describe, expect, it } from 'vitest';
import { hasReachedEnd, pausedPosition, playStartPosition, seekTarget } from './transport';

const L = 1_000_000;

describe('transport rules', () => {
  it('ends playback at 99% of the duration', () => {
    expect(hasReachedEnd(989_999, L)).toBe(false);
    expect(hasReachedEnd(990_000, L)).toBe(true);
  });
  it('restarts from 0 when playing from 99.5% or more', () => {
    expect(playStartPosition(994_999, L)).toBe(994_999);
    expect(playStartPosition(995_000, L)).toBe(0);
  });
  it('saves the paused position, 0 above 99%', () => {
    expect(pausedPosition(500_000, L)).toBe(500_000);
    expect(pausedPosition(990_000, L)).toBe(990_000);
    expect(pausedPosition(990_001, L)).toBe(0);
  });
  it('ignores seeks outside 0..duration', () => {
    expect(seekTarget(-1, L)).toBeNull();
    expect(seekTarget(L + 1, L)).toBeNull();
    expect(seekTarget(Number.NaN, L)).toBeNull();
    expect(seekTarget(0, L)).toBe(0);
    expect(seekTarget(L, L)).toBe(L);
  });
});
