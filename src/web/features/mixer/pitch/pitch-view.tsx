import { useEffect, useRef } from 'react';
import { type PitchCurveView, scalePitchClasses } from '../../../../audio';
import { noteName, type PitchSettings } from '../../../../shared/pitch-settings';
import { useContentWidth } from '../../../lib/use-content-width';

const HEIGHT = 220;
const LABEL_WIDTH = 34;

/** Range of MIDI notes to draw: the span of both curves over the frames shown, with a note of room each side. */
const rangeOf = (curve: PitchCurveView, first: number, end: number): [number, number] => {
  let lo = Number.POSITIVE_INFINITY;
  let hi = Number.NEGATIVE_INFINITY;
  for (const values of [curve.detected, curve.corrected])
    for (let f = first; f < end; f++) {
      const v = values[f]!;
      if (!Number.isNaN(v)) {
        lo = Math.min(lo, v);
        hi = Math.max(hi, v);
      }
    }
  if (!Number.isFinite(lo)) return [57, 69];
  return [Math.floor(lo) - 1, Math.ceil(hi) + 1];
};

/** Frames [first, end) of the curve that fall in a source range given in seconds. */
export const framesOf = (curve: PitchCurveView, range: { start: number; end: number }): [number, number] => {
  const perSecond = curve.sampleRate / curve.hop;
  const n = curve.detected.length;
  const first = Math.min(n, Math.max(0, Math.floor(range.start * perSecond)));
  return [first, Math.min(n, Math.max(first, Math.ceil(range.end * perSecond)))];
};

/**
 * The pitch view (issue 27): over one clip's stretch of the vocal, its detected pitch (amber) and the corrected
 * pitch (violet) over the note grid, scale notes shaded, the notes' range fitted to that clip. Drawn on a
 * canvas from the worker's curves.
 */
export function PitchView({
  curve,
  settings,
  range,
  label,
  span,
}: {
  curve: PitchCurveView;
  settings: PitchSettings;
  /** The clip's range of the vocal source, in seconds. */
  range: { start: number; end: number };
  /** What the canvas shows, for screen readers. */
  label: string;
  /** The stretch of the timeline shown, left edge to right edge (e.g. "0:04.5 – 0:09.0"). */
  span?: string;
}) {
  const [first, end] = framesOf(curve, range);
  const canvas = useRef<HTMLCanvasElement>(null);
  // Redraw at the canvas's own width (a phone turned, a window resized), not a stretched old bitmap; the
  // width from its observer, as reading clientWidth in the draw forced the whole mixer's restyle there.
  const width = useContentWidth(canvas);
  useEffect(() => {
    const el = canvas.current;
    const ctx = el?.getContext('2d');
    if (!el || !ctx || width <= 0) return;
    const dpr = window.devicePixelRatio || 1;
    const cssWidth = width;
    el.width = Math.round(cssWidth * dpr);
    el.height = Math.round(HEIGHT * dpr);
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, cssWidth, HEIGHT);
    const [lo, hi] = rangeOf(curve, first, end);
    const plot = cssWidth - LABEL_WIDTH;
    const x = (frame: number) => LABEL_WIDTH + ((frame - first) / Math.max(1, end - first - 1)) * plot;
    // Half a row of room above the top note and below the bottom one, so their labels are not cut.
    const y = (midi: number) => HEIGHT - ((midi - lo + 0.5) / (hi - lo + 1)) * HEIGHT;
    const classes = scalePitchClasses(settings.key);
    const rowHeight = HEIGHT / (hi - lo + 1);
    ctx.font = '10px system-ui, sans-serif';
    ctx.textBaseline = 'middle';
    for (let n = lo; n <= hi; n++) {
      const inScale = classes.includes(((n % 12) + 12) % 12);
      if (inScale) {
        ctx.fillStyle = 'rgba(255, 255, 255, 0.05)';
        ctx.fillRect(LABEL_WIDTH, y(n + 0.5), plot, rowHeight);
      }
      ctx.strokeStyle = inScale ? 'rgba(255, 255, 255, 0.18)' : 'rgba(255, 255, 255, 0.06)';
      ctx.beginPath();
      ctx.moveTo(LABEL_WIDTH, y(n));
      ctx.lineTo(cssWidth, y(n));
      ctx.stroke();
      if (rowHeight >= 9 || n % 12 === 0) {
        ctx.fillStyle = inScale ? '#d4d4d8' : '#71717a';
        ctx.fillText(`${noteName(n)}${Math.floor(n / 12) - 1}`, 2, y(n));
      }
    }
    const draw = (values: Float32Array, color: string, lineWidth: number) => {
      ctx.strokeStyle = color;
      ctx.lineWidth = lineWidth;
      ctx.beginPath();
      let pen = false;
      for (let f = first; f < end; f++) {
        const v = values[f]!;
        if (Number.isNaN(v)) {
          pen = false;
          continue;
        }
        if (pen) ctx.lineTo(x(f), y(v));
        else ctx.moveTo(x(f), y(v));
        pen = true;
      }
      ctx.stroke();
      ctx.lineWidth = 1;
    };
    draw(curve.detected, '#f59e0b', 1.5);
    draw(curve.corrected, '#a78bfa', 2);
  }, [curve, settings.key, first, end, width]);

  let voiced = 0;
  for (let f = first; f < end; f++) if (!Number.isNaN(curve.detected[f]!)) voiced++;
  return (
    <figure className="mt-4">
      <canvas
        ref={canvas}
        data-testid="pitch-view"
        data-voiced-frames={voiced}
        data-frames={`${first}-${end}`}
        className="h-[220px] w-full rounded-md border border-zinc-800 bg-zinc-950"
        role="img"
        aria-label={label}
      />
      <figcaption className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-xs text-zinc-400">
        <span>
          <span className="mr-1 inline-block h-2 w-4 rounded-sm bg-amber-500 align-middle" />
          Detected pitch
        </span>
        <span>
          <span className="mr-1 inline-block h-2 w-4 rounded-sm bg-violet-400 align-middle" />
          Corrected pitch
        </span>
        {span ? <span className="ml-auto tabular-nums">{span}</span> : null}
      </figcaption>
    </figure>
  );
}
