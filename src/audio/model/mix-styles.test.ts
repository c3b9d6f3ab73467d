import { describe, expect, it } from 'vitest';
import { BASE_MIX_WEIGHTS, classifyVocalShare, MIX_STYLES } from './mix-styles';
import { previewWindow } from './preview-window';

describe('mix styles', () => {
  it('holds the spec weights', () => {
    expect(BASE_MIX_WEIGHTS).toEqual({ vocals: 0.5, instrumental: 0.5 });
    expect(MIX_STYLES['vocals-forward'].weights).toEqual({ vocals: 0.75, instrumental: 0.25 });
    expect(MIX_STYLES.balanced.weights).toEqual({ vocals: 0.5, instrumental: 0.5 });
    expect(MIX_STYLES['instrumental-forward'].weights).toEqual({ vocals: 0.25, instrumental: 0.75 });
  });
  it('classifies vocal shares at the spec boundaries', () => {
    expect(classifyVocalShare(66)).toBe('vocals-forward');
    expect(classifyVocalShare(65)).toBe('balanced');
    expect(classifyVocalShare(35)).toBe('balanced');
    expect(classifyVocalShare(34)).toBe('instrumental-forward');
  });
  it('places previews at 20% of the vocal, or 0 without one', () => {
    expect(previewWindow(100 * 48_000, 48_000)).toEqual({ start: 20 * 48_000, length: 10 * 48_000 });
    expect(previewWindow(undefined, 44_100)).toEqual({ start: 0, length: 441_000 });
  });
});
