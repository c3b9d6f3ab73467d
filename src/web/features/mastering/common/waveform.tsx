import { useEffect, useRef } from 'react';
import type { Overview } from '../engine/overview';

/**
 * The overview drawn once per overview on a canvas; the playhead moves in a requestAnimationFrame loop
 * through a ref (no React render per frame).
 */
export function Waveform(props: {
  overview: Overview | null;
  label: string;
  tone: 'original' | 'master';
  /** Seconds into the track, read each frame while `active`. */
  position?: () => number;
  duration: number;
  active: boolean;
}) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const head = useRef<HTMLDivElement>(null);
  const { overview, tone, position, duration, active } = props;

  useEffect(() => {
    const el = canvas.current;
    const ctx = el?.getContext('2d');
    if (!el || !ctx || !overview) return;
    const width = el.clientWidth * devicePixelRatio;
    const height = el.clientHeight * devicePixelRatio;
    el.width = width;
    el.height = height;
    ctx.clearRect(0, 0, width, height);
    ctx.fillStyle = tone === 'master' ? '#a78bfa' : '#71717a';
    const n = overview.min.length;
    for (let x = 0; x < width; x++) {
      const i = Math.min(n - 1, Math.floor((x / width) * n));
      const top = ((1 - Math.min(1, overview.max[i]!)) / 2) * height;
      const bottom = ((1 - Math.max(-1, overview.min[i]!)) / 2) * height;
      ctx.fillRect(x, top, 1, Math.max(1, bottom - top));
    }
  }, [overview, tone]);

  useEffect(() => {
    const el = head.current;
    if (!el) return;
    if (!active || !position || duration <= 0) {
      el.style.display = 'none';
      return;
    }
    el.style.display = 'block';
    let frame = 0;
    const draw = () => {
      el.style.left = `${Math.min(100, (position() / duration) * 100)}%`;
      frame = requestAnimationFrame(draw);
    };
    draw();
    return () => cancelAnimationFrame(frame);
  }, [active, position, duration]);

  return (
    <div
      className="relative h-24 w-full overflow-hidden rounded-md bg-zinc-950"
      data-state={overview ? 'ready' : 'loading'}
    >
      <canvas ref={canvas} role="img" aria-label={props.label} className="h-full w-full" />
      <div ref={head} className="absolute top-0 h-full w-0.5 bg-white/80" style={{ display: 'none' }} />
    </div>
  );
}
