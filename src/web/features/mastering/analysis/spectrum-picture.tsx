import { useEffect, useRef } from 'react';
import type { BandLevel } from '../engine/engine-api';
import { dbRange, GRID_HZ, hzLabel, stepPath, xOf, yOf } from './spectrum-geometry';

const HEIGHT = 160;
const ORIGINAL = '#a1a1aa';
const MASTER = '#a78bfa';

/**
 * The spectrum as a picture (issue 30, decision 244): the original's and the master's band levels over a
 * log frequency axis, drawn on a canvas next to the band table (which keeps the numbers for screen readers).
 */
export function SpectrumPicture({ original, master }: { original: BandLevel[]; master: BandLevel[] | null }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    const el = canvas.current;
    const ctx = el?.getContext('2d');
    if (!el || !ctx) return;
    const draw = () => {
      const width = el.clientWidth;
      const scale = window.devicePixelRatio || 1;
      el.width = Math.round(width * scale);
      el.height = Math.round(HEIGHT * scale);
      ctx.setTransform(scale, 0, 0, scale, 0, 0);
      ctx.clearRect(0, 0, width, HEIGHT);
      const curves = master ? [original, master] : [original];
      const range = dbRange(curves);
      ctx.font = '10px system-ui, sans-serif';
      ctx.fillStyle = '#71717a';
      ctx.strokeStyle = '#27272a';
      ctx.lineWidth = 1;
      for (const hz of GRID_HZ) {
        const x = Math.round(xOf(hz, width)) + 0.5;
        ctx.beginPath();
        ctx.moveTo(x, 0);
        ctx.lineTo(x, HEIGHT - 14);
        ctx.stroke();
        ctx.fillText(hzLabel(hz), x + 2, HEIGHT - 3);
      }
      for (let db = Math.ceil(range.bottom / 6) * 6; db <= range.top; db += 6) {
        const y = Math.round(yOf(db, range, HEIGHT - 16)) + 0.5;
        ctx.beginPath();
        ctx.moveTo(0, y);
        ctx.lineTo(width, y);
        ctx.stroke();
        ctx.fillText(`${db} dB`, 2, y - 2);
      }
      const line = (bands: BandLevel[], color: string, fill: boolean) => {
        const points = stepPath(bands, width, HEIGHT - 16, range);
        if (points.length === 0) return;
        ctx.beginPath();
        for (const [i, [x, y]] of points.entries()) {
          if (i === 0) ctx.moveTo(x, y);
          else ctx.lineTo(x, y);
        }
        ctx.strokeStyle = color;
        ctx.lineWidth = 2;
        ctx.stroke();
        if (fill) {
          ctx.lineTo(points.at(-1)![0], HEIGHT - 16);
          ctx.lineTo(points[0]![0], HEIGHT - 16);
          ctx.closePath();
          ctx.fillStyle = `${color}33`;
          ctx.fill();
        }
      };
      line(original, ORIGINAL, !master);
      if (master) line(master, MASTER, true);
    };
    draw();
    const observer = new ResizeObserver(draw);
    observer.observe(el);
    return () => observer.disconnect();
  }, [original, master]);

  return (
    <figure className="grid gap-1" data-testid="spectrum-picture" data-master={master ? 'yes' : 'no'}>
      <canvas
        ref={canvas}
        className="h-40 w-full rounded-lg bg-zinc-950/60"
        role="img"
        aria-label={master ? 'Spectrum of the original and the master' : 'Spectrum of the original'}
      />
      <figcaption className="flex gap-4 text-xs text-zinc-400">
        <span>
          <span aria-hidden="true" style={{ color: ORIGINAL }}>
            ━
          </span>{' '}
          Original
        </span>
        {master ? (
          <span>
            <span aria-hidden="true" style={{ color: MASTER }}>
              ━
            </span>{' '}
            Master
          </span>
        ) : null}
        <span className="ml-auto">band level, dB · frequency, Hz (log)</span>
      </figcaption>
    </figure>
  );
}
