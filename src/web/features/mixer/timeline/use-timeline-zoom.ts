import { type RefObject, useCallback, useEffect, useRef, useState } from 'react';
import { anchoredScroll, defaultZoom, PHONE_QUERY, pinchZoom, zoomStep } from './timeline-zoom';

export interface TimelineZoom {
  zoom: number;
  zoomIn: () => void;
  zoomOut: () => void;
  /** The timeline's scroller: its width sets the phone default, two fingers on it pinch the zoom. */
  scrollRef: RefObject<HTMLDivElement | null>;
}

/**
 * The sequencer's zoom (decision 240): a phone starts at 20 px per second or more, the buttons double and
 * halve it, and a two-finger pinch on the timeline scales it around the fingers. Touch events (not pointer
 * events) because the scroller pans natively and a pan would cancel the pointers of a pinch.
 */
export function useTimelineZoom(durationSeconds: number): TimelineZoom {
  const scrollRef = useRef<HTMLDivElement | null>(null);
  // null: the automatic zoom (fit, or the phone minimum) until the user picks one.
  const [chosen, setChosen] = useState<number | null>(null);
  const [auto, setAuto] = useState(1);
  const zoom = chosen ?? auto;
  const zoomRef = useRef(zoom);
  zoomRef.current = zoom;

  // The scroller's width as its ResizeObserver last gave it (null before the first entry).
  const widthRef = useRef<number | null>(null);

  useEffect(() => {
    const el = scrollRef.current;
    if (!el || typeof window.matchMedia !== 'function') return;
    const phone = window.matchMedia(PHONE_QUERY);
    // Never `el.clientWidth` here: this effect runs when a loaded track changes the duration, in the task
    // that rendered it, and the read forced the whole new mixer's layout there (issue 26, decision 292).
    const update = () => {
      if (widthRef.current !== null) setAuto(defaultZoom(phone.matches, widthRef.current, durationSeconds));
    };
    update();
    const observer = new ResizeObserver(([entry]) => {
      if (!entry) return;
      widthRef.current = entry.contentRect.width;
      update();
    });
    observer.observe(el);
    phone.addEventListener('change', update);
    return () => {
      observer.disconnect();
      phone.removeEventListener('change', update);
    };
  }, [durationSeconds]);

  // Zooming keeps the content under the anchor where it was (the scroller's middle for the buttons).
  const zoomTo = useCallback((next: number, anchorPx?: number) => {
    const el = scrollRef.current;
    const from = zoomRef.current;
    setChosen(next);
    if (!el || next === from) return;
    const anchor = anchorPx ?? el.clientWidth / 2;
    const left = anchoredScroll(el.scrollLeft, anchor, from, next);
    requestAnimationFrame(() => {
      el.scrollLeft = left;
    });
  }, []);

  useEffect(() => {
    const el = scrollRef.current;
    if (!el) return;
    let start: { distance: number; zoom: number } | null = null;
    const spread = (e: TouchEvent) => {
      const [a, b] = [e.touches[0]!, e.touches[1]!];
      return {
        distance: Math.hypot(a.clientX - b.clientX, a.clientY - b.clientY),
        mid: (a.clientX + b.clientX) / 2,
      };
    };
    const onStart = (e: TouchEvent) => {
      if (e.touches.length === 2) start = { distance: spread(e).distance, zoom: zoomRef.current };
    };
    const onMove = (e: TouchEvent) => {
      if (!start || e.touches.length !== 2) return;
      e.preventDefault(); // no page zoom or pan while pinching the timeline
      const { distance, mid } = spread(e);
      zoomTo(pinchZoom(start.zoom, start.distance, distance), mid - el.getBoundingClientRect().left);
    };
    const onEnd = (e: TouchEvent) => {
      if (e.touches.length < 2) start = null;
    };
    el.addEventListener('touchstart', onStart, { passive: true });
    el.addEventListener('touchmove', onMove, { passive: false });
    el.addEventListener('touchend', onEnd);
    el.addEventListener('touchcancel', onEnd);
    return () => {
      el.removeEventListener('touchstart', onStart);
      el.removeEventListener('touchmove', onMove);
      el.removeEventListener('touchend', onEnd);
      el.removeEventListener('touchcancel', onEnd);
    };
  }, [zoomTo]);

  return {
    zoom,
    zoomIn: () => zoomTo(zoomStep(zoomRef.current, 1)),
    zoomOut: () => zoomTo(zoomStep(zoomRef.current, -1)),
    scrollRef,
  };
}
