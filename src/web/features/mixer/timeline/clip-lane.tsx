import { type PointerEvent, useRef } from 'react';
import {
  type GridFacts,
  type MixerEngine,
  samplesToSeconds,
  type TimelineClip,
  type TrackType,
} from '../../../../audio';
import { cn } from '../../../lib/cn';
import type { TrackSlot } from '../flow-state';
import { BeatGridLines } from './beat-grid-lines';
import { ClipWaveform } from './clip-waveform';
import { formatTime } from './time-format';
import { dragSeconds, MOUSE_DRAG_THRESHOLD_PX, TOUCH_DRAG_THRESHOLD_PX } from './timeline-zoom';

interface ClipLaneProps {
  type: TrackType;
  clips: readonly TimelineClip[];
  selectedId: string | null;
  sampleRate: number;
  /** Timeline length in seconds (the lane's full width). */
  duration: number;
  slot: TrackSlot;
  engine: MixerEngine;
  /** Fine drag: the clip follows the pointer at a quarter of its travel (decision 240). */
  fineDrag?: boolean;
  /** The song facts' grid, drawn under the clips (issue 27). */
  grid?: GridFacts | null;
}

interface Drag {
  id: string;
  pointerId: number;
  x: number;
  from: number;
  secondsPerPx: number;
  thresholdPx: number;
  /** Past the threshold once: from then on the clip follows even back over its starting point. */
  started: boolean;
  /** Removes the listener that ends the drag when a second finger lands (a pinch, not a move). */
  release: () => void;
}

const LABELS: Record<TrackType, string> = { vocals: 'Vocals', instrumental: 'Instrumental' };

/**
 * One lane of the sequencer. Vocal clips are selected on pointer-down and dragged with mouse, pen or touch
 * (pointer events, touch-action none); a whole drag is one undo step. The instrumental lane is not editable.
 * A clip moves only past a threshold (larger for a finger, so a tap selects without nudging it), and a second
 * finger puts it back: that is a pinch of the timeline.
 */
export function ClipLane({
  type,
  clips,
  selectedId,
  sampleRate,
  duration,
  slot,
  engine,
  fineDrag = false,
  grid,
}: ClipLaneProps) {
  const lane = useRef<HTMLDivElement>(null);
  const drag = useRef<Drag | null>(null);
  const editable = type === 'vocals';

  const onUp = () => {
    const d = drag.current;
    if (!d) return;
    drag.current = null;
    d.release();
    engine.endDrag();
  };
  const onDown = (e: PointerEvent<HTMLDivElement>, clip: TimelineClip) => {
    if (!editable || !lane.current || e.button > 0 || !e.isPrimary) return;
    e.preventDefault();
    e.currentTarget.setPointerCapture(e.pointerId);
    engine.beginDrag(clip.id);
    const from = samplesToSeconds(clip.position, sampleRate);
    const onOtherPointer = (other: globalThis.PointerEvent) => {
      const d = drag.current;
      if (!d || other.pointerId === d.pointerId) return;
      engine.dragTo(d.id, d.from);
      onUp();
    };
    window.addEventListener('pointerdown', onOtherPointer, true);
    drag.current = {
      id: clip.id,
      pointerId: e.pointerId,
      x: e.clientX,
      from,
      secondsPerPx: duration / lane.current.getBoundingClientRect().width,
      thresholdPx: e.pointerType === 'touch' ? TOUCH_DRAG_THRESHOLD_PX : MOUSE_DRAG_THRESHOLD_PX,
      started: false,
      release: () => window.removeEventListener('pointerdown', onOtherPointer, true),
    };
  };
  const onMove = (e: PointerEvent<HTMLDivElement>) => {
    const d = drag.current;
    if (!d || e.pointerId !== d.pointerId) return;
    const moved = dragSeconds(e.clientX - d.x, d.secondsPerPx, d.started ? 0 : d.thresholdPx, fineDrag);
    if (moved === null) return;
    d.started = true;
    engine.dragTo(d.id, d.from + moved);
  };

  return (
    <div className="flex items-stretch gap-2">
      <div className="w-24 shrink-0 py-2 text-xs font-medium text-zinc-400">{LABELS[type]}</div>
      <div
        ref={lane}
        data-testid={`lane-${type}`}
        className="relative h-16 flex-1 rounded-md bg-zinc-950/80 ring-1 ring-zinc-800"
      >
        {grid ? <BeatGridLines facts={grid} duration={duration} /> : null}
        {clips.map((clip) => {
          const start = samplesToSeconds(clip.position, sampleRate);
          const length = samplesToSeconds(clip.sourceEnd - clip.sourceStart, sampleRate);
          const selected = clip.id === selectedId;
          return (
            <div
              key={clip.id}
              {...(editable
                ? {
                    role: 'button',
                    'aria-label': `Vocal clip ${clip.id} at ${formatTime(start, true)}`,
                    'aria-pressed': selected,
                  }
                : {})}
              data-clip-id={clip.id}
              data-position={start.toFixed(2)}
              data-selected={selected}
              onPointerDown={(e) => onDown(e, clip)}
              onPointerMove={onMove}
              onPointerUp={onUp}
              onPointerCancel={onUp}
              style={{ left: `${(start / duration) * 100}%`, width: `${(length / duration) * 100}%` }}
              className={cn(
                'absolute inset-y-1 overflow-hidden rounded border',
                editable
                  ? 'cursor-grab touch-none border-violet-500/60 bg-violet-900/40 active:cursor-grabbing'
                  : 'border-sky-600/50 bg-sky-950/50',
                selected && 'border-amber-300 ring-2 ring-amber-300/70',
              )}
            >
              {slot.peaks ? (
                <ClipWaveform
                  peaks={slot.peaks}
                  fileRate={slot.fileRate}
                  startSeconds={samplesToSeconds(clip.sourceStart, sampleRate)}
                  endSeconds={samplesToSeconds(clip.sourceEnd, sampleRate)}
                  color={editable ? '#c4b5fd' : '#7dd3fc'}
                />
              ) : null}
              <span className="pointer-events-none absolute top-0.5 left-1 text-[10px] text-zinc-200/80">
                {clip.id}
              </span>
            </div>
          );
        })}
      </div>
    </div>
  );
}
