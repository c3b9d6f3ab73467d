import { describe, expect, it } from 'vitest';
import {
  anchoredScroll,
  clampZoom,
  defaultZoom,
  dragSeconds,
  FINE_DRAG_SCALE,
  LANE_LABEL_PX,
  MAX_ZOOM,
  PHONE_MIN_PX_PER_SECOND,
  pinchZoom,
  pxPerSecond,
  TOUCH_DRAG_THRESHOLD_PX,
  zoomLabel,
  zoomStep,
} from './timeline-zoom';

describe('timeline zoom', () => {
  it('fits the whole timeline on a wide screen and gives a phone at least 20 px per second', () => {
    expect(defaultZoom(false, 1100, 60)).toBe(1);
    // 375 px phone, card padding leaves ~311 px of scroller.
    const zoom = defaultZoom(true, 311, 60);
    expect(pxPerSecond(zoom, 311, 60)).toBeCloseTo(PHONE_MIN_PX_PER_SECOND, 6);
    expect(pxPerSecond(1, 311, 60)).toBeLessThan(4);
    // A short timeline on a wide-enough phone stays at the fit.
    expect(defaultZoom(true, 700, 20)).toBe(1);
    expect(pxPerSecond(defaultZoom(true, 700, 20), 700, 20)).toBeGreaterThanOrEqual(20);
  });

  it('a 40 px finger drag moves a clip 2 s at the phone default, 0.5 s in fine drag, nothing under the threshold', () => {
    const zoom = defaultZoom(true, 311, 60);
    const secondsPerPx = 1 / pxPerSecond(zoom, 311, 60);
    expect(dragSeconds(40, secondsPerPx, TOUCH_DRAG_THRESHOLD_PX, false)).toBeCloseTo(2, 6);
    expect(dragSeconds(40, secondsPerPx, TOUCH_DRAG_THRESHOLD_PX, true)).toBeCloseTo(2 * FINE_DRAG_SCALE, 6);
    expect(dragSeconds(-9, secondsPerPx, TOUCH_DRAG_THRESHOLD_PX, false)).toBeNull();
  });

  it('steps, pinches and clamps', () => {
    expect(zoomStep(1, 1)).toBe(2);
    expect(zoomStep(1, -1)).toBe(1);
    expect(zoomStep(3.8, -1)).toBeCloseTo(1.9);
    expect(zoomStep(MAX_ZOOM, 1)).toBe(MAX_ZOOM);
    expect(pinchZoom(4, 100, 150)).toBe(6);
    expect(pinchZoom(4, 100, 10)).toBe(1);
    expect(pinchZoom(4, 0, 10)).toBe(4);
    expect(clampZoom(0.2)).toBe(1);
  });

  it('keeps the content under the fingers in place while zooming', () => {
    // Content at 300 px (scrolled 100, anchor 200) lands at 600 px after doubling: scroll 400.
    expect(anchoredScroll(100, 200, 2, 4)).toBe(400);
    expect(anchoredScroll(0, 50, 2, 1)).toBe(0);
    expect(LANE_LABEL_PX).toBe(104);
  });

  it('labels whole factors without decimals', () => {
    expect(zoomLabel(1)).toBe('1×');
    expect(zoomLabel(2)).toBe('2×');
    expect(zoomLabel(3.84)).toBe('3.8×');
  });
});
