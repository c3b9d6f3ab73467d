import { useEffect, useMemo, useRef } from 'react';
import { cn } from '../../../lib/cn';
import { layoutOf } from './album-player';
import { clock } from './album-rules';
import { useAlbumState, useAlbumStore } from './use-album';

/**
 * The whole record as a bar, one segment per track where the sequence puts it; a tap jumps the playhead to
 * that track. The playhead is drawn in a requestAnimationFrame loop through a ref (never per-frame state).
 */
export function AlbumTimeline() {
  const store = useAlbumStore();
  const state = useAlbumState();
  const layout = useMemo(() => layoutOf(state), [state]);
  const head = useRef<HTMLDivElement>(null);
  const time = useRef<HTMLSpanElement>(null);
  useEffect(() => {
    if (!layout) return;
    const total = layout.frames / layout.sampleRate;
    let frame = 0;
    const draw = () => {
      const position = store.player.position();
      const el = head.current;
      if (el) {
        el.style.transform = `translateX(${((position ?? 0) / total) * 100}cqw)`;
        el.style.opacity = position === null ? '0' : '1';
        el.dataset.position = position === null ? '' : position.toFixed(2);
      }
      if (time.current) time.current.textContent = `${clock(position ?? 0)} / ${clock(total)}`;
      frame = requestAnimationFrame(draw);
    };
    frame = requestAnimationFrame(draw);
    return () => cancelAnimationFrame(frame);
  }, [layout, store]);
  if (!layout) return null;
  const total = layout.frames;
  return (
    <div className="mt-4 grid gap-1">
      <div
        className="relative h-12 w-full rounded bg-zinc-950 [container-type:inline-size]"
        data-testid="album-timeline"
      >
        {state.tracks.map((t, i) => {
          const left = (layout.audioStarts[i]! / total) * 100;
          const width = ((layout.audioEnds[i]! - layout.audioStarts[i]!) / total) * 100;
          const current = state.playing?.current === t.key;
          return (
            <button
              type="button"
              key={t.key}
              onClick={() => void store.player.jumpTo(i)}
              aria-label={`Play from track ${i + 1}, ${t.title}`}
              className={cn(
                'absolute top-1 bottom-1 overflow-hidden rounded border px-1 text-left text-xs focus-visible:outline-2 focus-visible:outline-violet-400',
                current
                  ? 'border-violet-300 bg-violet-600/60 text-white'
                  : 'border-zinc-700 bg-zinc-800 text-zinc-300',
              )}
              style={{ left: `${left}%`, width: `${width}%` }}
            >
              {i + 1}
            </button>
          );
        })}
        <div
          ref={head}
          aria-hidden="true"
          data-testid="album-playhead"
          className="pointer-events-none absolute top-0 bottom-0 left-0 w-0.5 bg-amber-300 opacity-0"
        />
      </div>
      <span ref={time} className="text-xs tabular-nums text-zinc-400" data-testid="album-clock" />
    </div>
  );
}
