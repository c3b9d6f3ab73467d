import { memo, type RefObject, useEffect, useRef } from 'react';
import { bpmText, type MixerEngine, type SongFacts, type Timeline, type TrackType } from '../../../../audio';
import type { FlowState } from '../flow-state';
import { ClipLane } from './clip-lane';
import { ScrubBar } from './scrub-bar';
import { formatTime } from './time-format';

/** Spec 9: the playhead is redrawn at about 30 frames per second. */
const FRAME_MS = 1000 / 30;

interface TimelineViewProps {
  engine: MixerEngine;
  /** The timeline as edited (the engine's history.present). */
  timeline: Timeline;
  /** The song facts' tempo and grid, once found. */
  songFacts: SongFacts | null;
  tracks: FlowState['tracks'];
  duration: number;
  zoom: number;
  /** The horizontal scroller (its width sets a phone's default zoom; a pinch on it zooms). */
  scrollRef?: RefObject<HTMLDivElement | null>;
  /** Clips follow the pointer at a quarter of its travel. */
  fineDrag?: boolean;
}

/**
 * The scrub bar and the two lanes in one horizontally zoomable strip, with the playhead drawn by a
 * requestAnimationFrame loop through refs (never React state per frame). Memoised on the timeline's own
 * parts: the engine's other changes (Apply Sequence, the transport, the preview volume) re-render the
 * sequencer's buttons but not the lanes (decision 297).
 */
export const TimelineView = memo(function TimelineView({
  engine,
  timeline,
  songFacts,
  tracks,
  duration,
  zoom,
  scrollRef,
  fineDrag = false,
}: TimelineViewProps) {
  const playhead = useRef<HTMLDivElement>(null);
  const knob = useRef<HTMLDivElement>(null);
  const clock = useRef<HTMLSpanElement>(null);
  const dragSeconds = useRef<number | null>(null);
  const durationRef = useRef(duration);
  durationRef.current = duration;

  useEffect(() => {
    let frame = 0;
    let last = -Infinity;
    // What the DOM shows now: a frame that would write the same values writes nothing. Each write (even of
    // the same text) restyles, lays out and repaints the page 30 times a second, paused or not: during a
    // mixdown that was seconds of main-thread paint taking CPU from the workers (issue 26). New elements
    // (a remount) are written afresh.
    let shown: unknown[] = [];
    const tick = (now: number) => {
      frame = requestAnimationFrame(tick);
      if (now - last < FRAME_MS) return;
      last = now;
      const d = durationRef.current;
      const seconds = dragSeconds.current ?? engine.getPlayheadSeconds();
      const showing = [seconds, d, playhead.current, knob.current, clock.current];
      if (showing.every((v, i) => v === shown[i])) return;
      shown = showing;
      const pct = `${(Math.min(seconds, d) / d) * 100}%`;
      if (playhead.current) {
        playhead.current.style.left = pct;
        playhead.current.dataset.seconds = seconds.toFixed(3);
      }
      if (knob.current) {
        knob.current.style.left = pct;
        knob.current.setAttribute('aria-valuenow', String(Math.round(seconds)));
        knob.current.setAttribute('aria-valuetext', formatTime(seconds, true));
      }
      if (clock.current) clock.current.textContent = `${formatTime(seconds, true)} / ${formatTime(d, true)}`;
    };
    frame = requestAnimationFrame(tick);
    return () => cancelAnimationFrame(frame);
  }, [engine]);

  const lane = (type: TrackType) => (
    <ClipLane
      type={type}
      clips={timeline.clips.filter((c) => c.trackType === type)}
      selectedId={timeline.selectedId}
      sampleRate={timeline.sampleRate}
      duration={duration}
      slot={tracks[type]}
      engine={engine}
      fineDrag={fineDrag}
      grid={songFacts}
    />
  );

  return (
    <div>
      <div className="mb-2 flex justify-end gap-3 text-sm tabular-nums text-zinc-300">
        {songFacts ? <span data-testid="timeline-tempo">{bpmText(songFacts.tempoBpm)} BPM</span> : null}
        <span ref={clock} data-testid="clock">
          0:00.0 / {formatTime(duration, true)}
        </span>
      </div>
      <div ref={scrollRef} className="overflow-x-auto pb-2" data-testid="timeline-scroll">
        <div
          className="relative space-y-2"
          style={{ width: `${zoom * 100}%` }}
          data-zoom={Number(zoom.toFixed(2))}
        >
          <ScrubBar engine={engine} duration={duration} dragSeconds={dragSeconds} knob={knob} />
          {lane('instrumental')}
          {lane('vocals')}
          <div className="pointer-events-none absolute inset-y-0 right-0 left-26">
            <div
              ref={playhead}
              data-testid="playhead"
              className="absolute inset-y-0 w-0.5 -translate-x-1/2 bg-amber-300"
              style={{ left: '0%' }}
            />
          </div>
        </div>
      </div>
    </div>
  );
});
