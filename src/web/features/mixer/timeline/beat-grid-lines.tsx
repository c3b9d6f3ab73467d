import { memo } from 'react';
import { type GridFacts, gridLines } from '../../../../audio';

/** At most this many beat lines are drawn; past it only the bar lines are (a long beat at 1× zoom). */
const MAX_BEAT_LINES = 1200;

/**
 * The beat grid under a lane's clips (issue 27): a faint line per beat, a stronger one per bar, positioned
 * in percent of the timeline so zooming needs no redraw.
 */
export const BeatGridLines = memo(function BeatGridLines({
  facts,
  duration,
}: {
  facts: GridFacts;
  duration: number;
}) {
  const lines = gridLines(facts, duration);
  const shown = lines.length > MAX_BEAT_LINES ? lines.filter((l) => l.bar) : lines;
  return (
    <div className="pointer-events-none absolute inset-0" data-testid="beat-grid" aria-hidden="true">
      {shown.map((line) => (
        <div
          key={line.seconds.toFixed(4)}
          data-bar={line.bar ? line.barNumber : undefined}
          data-seconds={line.seconds.toFixed(3)}
          className={
            line.bar ? 'absolute inset-y-0 w-px bg-zinc-400/45' : 'absolute inset-y-0 w-px bg-zinc-600/25'
          }
          style={{ left: `${(line.seconds / duration) * 100}%` }}
        />
      ))}
    </div>
  );
});
