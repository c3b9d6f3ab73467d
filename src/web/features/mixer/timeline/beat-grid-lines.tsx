import { memo, useEffect, useMemo, useRef } from 'react';
import { type GridFacts, type GridLine, gridLines } from '../../../../audio';
import { useContentWidth } from '../../../lib/use-content-width';
import { drawGridTile, linesToDraw, tileCount } from './beat-grid-draw';

/**
 * The beat grid under a lane's clips (issue 27): a faint line per beat, a stronger one per bar, drawn on
 * canvas tiles (decision 292). It was one element per line: 2,364 elements for a 10-minute song's two
 * lanes, which made every restyle of the mixer (a result shown, a progress step) a long task. The lines'
 * seconds are on the element (data-bars, data-lines) for the tests that read where bars fall.
 */
export const BeatGridLines = memo(function BeatGridLines({
  facts,
  duration,
}: {
  facts: GridFacts;
  duration: number;
}) {
  const box = useRef<HTMLDivElement>(null);
  // The lane's width in CSS pixels (from its observer's entry: no layout read of our own).
  const widthPx = useContentWidth(box);
  // A line on the timeline's very end would fall past the lane's right edge: left out.
  const lines = useMemo(
    () =>
      widthPx > 0 && duration > 0
        ? linesToDraw(
            gridLines(facts, duration).filter((l) => l.seconds < duration),
            widthPx / duration,
          )
        : [],
    [facts, duration, widthPx],
  );
  const tiles = tileCount(widthPx);
  return (
    <div
      ref={box}
      className="pointer-events-none absolute inset-0"
      data-testid="beat-grid"
      data-duration={duration}
      data-lines={lines.length}
      data-bars={lines
        .filter((l) => l.bar)
        .map((l) => l.seconds.toFixed(3))
        .join(' ')}
      aria-hidden="true"
    >
      {widthPx > 0
        ? Array.from({ length: tiles }, (_, i) => (
            <GridTile
              // biome-ignore lint/suspicious/noArrayIndexKey: a tile is its place in the lane.
              key={i}
              lines={lines}
              from={(i / tiles) * duration}
              to={((i + 1) / tiles) * duration}
              cssWidth={widthPx / tiles}
              tiles={tiles}
              index={i}
            />
          ))
        : null}
    </div>
  );
});

/** One tile: drawn while it is on screen (or near it), its pixels let go of when it scrolls away. */
function GridTile({
  lines,
  from,
  to,
  cssWidth,
  tiles,
  index,
}: {
  lines: readonly GridLine[];
  from: number;
  to: number;
  /** Its width in CSS pixels, for the bitmap's size (placed in percent, so a zoom never shows a gap). */
  cssWidth: number;
  tiles: number;
  index: number;
}) {
  const canvas = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    const el = canvas.current;
    if (!el) return;
    const observer = new IntersectionObserver(
      ([entry]) => {
        if (!entry?.isIntersecting) {
          el.width = 0;
          el.height = 0;
          el.dataset.state = 'released';
          return;
        }
        const dpr = window.devicePixelRatio || 1;
        const width = Math.max(1, Math.round(cssWidth * dpr));
        const height = Math.max(1, Math.round(entry.boundingClientRect.height * dpr));
        el.width = width;
        el.height = height;
        const g = el.getContext('2d');
        if (!g) return;
        drawGridTile(g, lines, { from, to, width, height, linePx: Math.max(1, Math.round(dpr)) });
        el.dataset.state = 'drawn';
      },
      // A screen's width either side: a tile is drawn before it scrolls into view.
      { rootMargin: '0px 100% 0px 100%' },
    );
    observer.observe(el);
    return () => observer.disconnect();
  }, [lines, from, to, cssWidth]);
  return (
    <canvas
      ref={canvas}
      className="absolute inset-y-0 h-full"
      style={{ left: `${(index / tiles) * 100}%`, width: `${100 / tiles}%` }}
      data-from={from}
      data-to={to}
    />
  );
}
