import { useEffect, useId, useState } from 'react';
import type { Clip, PitchCurveView } from '../../../../audio';
import type { PitchSettings } from '../../../../shared/pitch-settings';
import { formatTime } from '../timeline/time-format';
import { PitchView } from './pitch-view';

/**
 * The pitch view per clip (issue 27): one vocal clip at a time, chosen here or by selecting it on the
 * timeline (a new selection there is followed); the view spans that clip's stretch of the vocal.
 */
export function ClipPitchView({
  curve,
  settings,
  clips,
}: {
  curve: PitchCurveView;
  settings: PitchSettings;
  /** The vocal track's clips (spec shape: source range and timeline position in seconds). */
  clips: readonly Clip[];
}) {
  const chooserId = useId();
  const ordered = [...clips].sort((a, b) => a.position - b.position);
  const selectedId = ordered.find((c) => c.selected)?.id ?? null;
  const [chosenId, setChosenId] = useState<string | null>(null);
  // Selecting a clip on the timeline shows that clip.
  useEffect(() => {
    if (selectedId) setChosenId(selectedId);
  }, [selectedId]);
  const index = Math.max(
    0,
    ordered.findIndex((c) => c.id === chosenId),
  );
  const clip = ordered[index];
  if (!clip) return null;
  const name = (i: number) => `Clip ${i + 1}`;
  const span = (c: Clip) =>
    `${formatTime(c.position, true)}–${formatTime(c.position + c.endTime - c.startTime, true)}`;
  return (
    <div className="mt-4" data-testid="clip-pitch" data-pitch-clip={clip.id}>
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <label htmlFor={chooserId} className="text-sm text-zinc-300">
          Pitch of
        </label>
        <select
          id={chooserId}
          value={clip.id}
          onChange={(e) => setChosenId(e.target.value)}
          className="min-w-40 flex-1 rounded-md border border-zinc-700 bg-zinc-900 px-2 py-1 text-sm text-zinc-100 sm:flex-none"
        >
          {ordered.map((c, i) => (
            <option key={c.id} value={c.id}>
              {name(i)} ({span(c)})
            </option>
          ))}
        </select>
        <span className="w-full text-xs text-zinc-400 sm:w-auto">
          {ordered.length > 1 ? 'or select a clip on the timeline' : 'the whole vocal is one clip'}
        </span>
      </div>
      <PitchView
        curve={curve}
        settings={settings}
        range={{ start: clip.startTime, end: clip.endTime }}
        label={`Detected and corrected pitch of ${name(index)} over the note grid`}
        span={`${name(index)}: ${span(clip).replace('–', ' – ')} on the timeline`}
      />
    </div>
  );
}
