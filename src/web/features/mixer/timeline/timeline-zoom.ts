/**
 * The sequencer's zoom as a factor of the strip's width (1: the whole timeline fits the card), and the
 * rules that keep it usable on a phone (decision 240): there 60 s in ~190 px made a 40 px finger drag move
 * a clip 12.7 s, so a narrow screen starts at PHONE_MIN_PX_PER_SECOND or more.
 */

/** Issue 30: at least this many pixels per second by default at phone widths. */
export const PHONE_MIN_PX_PER_SECOND = 20;
/** The media query of a phone-width screen (Tailwind's md breakpoint). */
export const PHONE_QUERY = '(max-width: 767px)';
/** Width of a lane's label column plus its gap (w-24 + gap-2), which does not scale with the zoom. */
export const LANE_LABEL_PX = 104;
/** A finger must travel this far before a clip moves (a tap only selects); a mouse or pen, much less. */
export const TOUCH_DRAG_THRESHOLD_PX = 10;
export const MOUSE_DRAG_THRESHOLD_PX = 3;
/** Fine drag: the clip follows the pointer at this fraction of its travel. */
export const FINE_DRAG_SCALE = 0.25;
/** The closest zoom: about 10 ms per pixel on a 60 s timeline in a 375 px card. */
export const MAX_ZOOM = 64;

export const clampZoom = (zoom: number): number => Math.min(MAX_ZOOM, Math.max(1, zoom));

/** Pixels per second of the lanes at a zoom, given the scroller's width. */
export const pxPerSecond = (zoom: number, scrollerPx: number, durationSeconds: number): number =>
  durationSeconds > 0 ? (zoom * scrollerPx - LANE_LABEL_PX) / durationSeconds : 0;

/**
 * The starting zoom: 1 (fit) on a wide screen; on a phone the smallest zoom that gives the lanes
 * PHONE_MIN_PX_PER_SECOND (a 60 s timeline in a 343 px scroller: about 3.8×).
 */
export const defaultZoom = (phone: boolean, scrollerPx: number, durationSeconds: number): number => {
  if (!phone || scrollerPx <= 0 || durationSeconds <= 0) return 1;
  return clampZoom((PHONE_MIN_PX_PER_SECOND * durationSeconds + LANE_LABEL_PX) / scrollerPx);
};

/** The zoom buttons step by doubling from where the zoom is (a pinch may leave it anywhere). */
export const zoomStep = (zoom: number, direction: 1 | -1): number =>
  clampZoom(direction > 0 ? zoom * 2 : zoom / 2);

/** A pinch scales the zoom it started from by the change of the fingers' distance. */
export const pinchZoom = (startZoom: number, startDistance: number, distance: number): number =>
  startDistance > 0 ? clampZoom((startZoom * distance) / startDistance) : startZoom;

/**
 * The scroll offset that keeps the content under `anchorPx` (relative to the scroller's left edge) in place
 * when the zoom goes from `from` to `to`.
 */
export const anchoredScroll = (scrollLeft: number, anchorPx: number, from: number, to: number): number =>
  Math.max(0, ((scrollLeft + anchorPx) * to) / from - anchorPx);

/** How far a dragged clip moves for a pointer travel, after the threshold and with fine drag. */
export const dragSeconds = (
  travelPx: number,
  secondsPerPx: number,
  thresholdPx: number,
  fine: boolean,
): number | null => {
  if (Math.abs(travelPx) < thresholdPx) return null;
  return travelPx * secondsPerPx * (fine ? FINE_DRAG_SCALE : 1);
};

/** What the zoom label shows: whole factors as "2×", others to one decimal. */
export const zoomLabel = (zoom: number): string =>
  `${Number.isInteger(Math.round(zoom * 10) / 10) ? Math.round(zoom) : zoom.toFixed(1)}×`;
