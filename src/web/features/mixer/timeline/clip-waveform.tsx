import { useEffect, useRef } from 'react';
import type { PeakLevel } from '../../../../audio';

interface ClipWaveformProps {
  peaks: readonly PeakLevel[];
  /** The source's own rate: the peaks count samples at it. */
  fileRate: number;
  /** The part of the source this clip plays, in seconds. */
  startSeconds: number;
  endSeconds: number;
  color: string;
}

/** The zoom level with the most detail that still has no more than one peak per pixel. */
const pickLevel = (peaks: readonly PeakLevel[], samplesPerPixel: number): PeakLevel => {
  let best = peaks[0]!;
  for (const level of peaks) if (level.samplesPerPeak <= samplesPerPixel) best = level;
  return best;
};

/** One clip's own waveform, drawn to a canvas sized to the clip (redrawn when the clip or zoom changes). */
export function ClipWaveform({ peaks, fileRate, startSeconds, endSeconds, color }: ClipWaveformProps) {
  const canvas = useRef<HTMLCanvasElement>(null);

  useEffect(() => {
    const el = canvas.current;
    if (!el || peaks.length === 0) return;
    // Sized from the ResizeObserver's entry (its first comes once the canvas is laid out), never from
    // `clientWidth`: a layout read after the previous canvas's resize forced a layout per clip, in the task
    // that loaded the track (issue 26; decision 292 did the same for the grid and the pitch view).
    const draw = (cssWidth: number, cssHeight: number) => {
      const dpr = window.devicePixelRatio || 1;
      const width = Math.max(1, Math.min(16_384, Math.round(cssWidth * dpr)));
      const height = Math.max(1, Math.round(cssHeight * dpr));
      el.width = width;
      el.height = height;
      const g = el.getContext('2d');
      if (!g) return;
      g.clearRect(0, 0, width, height);
      const first = startSeconds * fileRate;
      const samplesPerPixel = ((endSeconds - startSeconds) * fileRate) / width;
      const level = pickLevel(peaks, samplesPerPixel);
      const mid = height / 2;
      // One path of one-pixel columns, filled once.
      g.beginPath();
      for (let x = 0; x < width; x++) {
        const from = Math.floor((first + x * samplesPerPixel) / level.samplesPerPeak);
        const to = Math.max(from + 1, Math.floor((first + (x + 1) * samplesPerPixel) / level.samplesPerPeak));
        let lo = 0;
        let hi = 0;
        for (let p = from; p < to && p < level.min.length; p++) {
          if (level.min[p]! < lo) lo = level.min[p]!;
          if (level.max[p]! > hi) hi = level.max[p]!;
        }
        g.rect(x, mid - hi * mid, 1, Math.max(1, (hi - lo) * mid));
      }
      g.fillStyle = color;
      g.fill();
      el.dataset.state = 'drawn';
    };
    const observer = new ResizeObserver(([entry]) => {
      if (entry) draw(entry.contentRect.width, entry.contentRect.height);
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, [peaks, fileRate, startSeconds, endSeconds, color]);

  return <canvas ref={canvas} className="pointer-events-none absolute inset-0 size-full" />;
}
