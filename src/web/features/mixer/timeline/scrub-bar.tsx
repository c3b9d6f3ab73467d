import { type KeyboardEvent, type PointerEvent, type RefObject, useEffect, useRef } from 'react';
import type { MixerEngine } from '../../../../audio';
import { formatTime, SCRUB_LABEL_FRACTIONS } from './time-format';

/** Spec 9: while the knob is dragged, seeks are sent at most every 50 ms. */
export const SEEK_DEBOUNCE_MS = 50;

interface ScrubBarProps {
  engine: MixerEngine;
  duration: number;
  /** Set while the knob is held: the rAF loop draws the knob there instead of at the playhead. */
  dragSeconds: RefObject<number | null>;
  knob: RefObject<HTMLDivElement | null>;
}

/** The scrub bar: labels at 0, 1/4, 1/2, 3/4 and the end; a knob dragged by pointer or moved by arrow keys. */
export function ScrubBar({ engine, duration, dragSeconds, knob }: ScrubBarProps) {
  const bar = useRef<HTMLDivElement>(null);
  const pending = useRef<ReturnType<typeof setTimeout> | null>(null);

  useEffect(
    () => () => {
      if (pending.current !== null) clearTimeout(pending.current);
    },
    [],
  );
  const clearPending = () => {
    if (pending.current !== null) clearTimeout(pending.current);
    pending.current = null;
  };

  const secondsAt = (clientX: number): number => {
    const rect = bar.current!.getBoundingClientRect();
    return Math.min(Math.max((clientX - rect.left) / rect.width, 0), 1) * duration;
  };

  const onDown = (e: PointerEvent<HTMLDivElement>) => {
    if (e.button > 0) return;
    e.preventDefault();
    e.currentTarget.setPointerCapture(e.pointerId);
    knob.current?.focus();
    dragSeconds.current = secondsAt(e.clientX);
    engine.seek(dragSeconds.current);
  };
  const onMove = (e: PointerEvent<HTMLDivElement>) => {
    if (dragSeconds.current === null) return;
    dragSeconds.current = secondsAt(e.clientX);
    if (pending.current === null) {
      pending.current = setTimeout(() => {
        pending.current = null;
        if (dragSeconds.current !== null) engine.seek(dragSeconds.current);
      }, SEEK_DEBOUNCE_MS);
    }
  };
  const onUp = () => {
    if (dragSeconds.current === null) return;
    clearPending();
    engine.seek(dragSeconds.current);
    dragSeconds.current = null;
  };
  const onKey = (e: KeyboardEvent) => {
    const step = e.key === 'ArrowRight' ? 1 : e.key === 'ArrowLeft' ? -1 : 0;
    if (step === 0 && e.key !== 'Home' && e.key !== 'End') return;
    e.preventDefault();
    e.stopPropagation();
    const now = engine.getPlayheadSeconds();
    const target = e.key === 'Home' ? 0 : e.key === 'End' ? duration : now + step;
    engine.seek(Math.min(Math.max(target, 0), duration));
  };

  return (
    <div className="flex items-end gap-2">
      <div className="w-24 shrink-0" />
      <div className="flex-1">
        <div
          ref={bar}
          data-testid="scrub-bar"
          onPointerDown={onDown}
          onPointerMove={onMove}
          onPointerUp={onUp}
          onPointerCancel={onUp}
          className="relative h-6 cursor-pointer touch-none rounded bg-zinc-800"
        >
          <div
            ref={knob}
            role="slider"
            tabIndex={0}
            aria-label="Playback position"
            aria-valuemin={0}
            aria-valuemax={Math.round(duration)}
            aria-valuenow={0}
            onKeyDown={onKey}
            className="absolute top-1/2 size-4 -translate-x-1/2 -translate-y-1/2 rounded-full border-2 border-white bg-violet-500 shadow focus-visible:outline-2 focus-visible:outline-violet-300"
            style={{ left: '0%' }}
          />
        </div>
        <div className="relative mt-1 h-4 text-[11px] tabular-nums text-zinc-400" data-testid="scrub-labels">
          {SCRUB_LABEL_FRACTIONS.map((f) => (
            <span
              key={f}
              className="absolute -translate-x-1/2 first:translate-x-0 last:-translate-x-full"
              style={{ left: `${f * 100}%` }}
            >
              {formatTime(f * duration)}
            </span>
          ))}
        </div>
      </div>
    </div>
  );
}
