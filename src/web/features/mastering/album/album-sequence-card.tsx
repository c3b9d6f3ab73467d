import { Button } from '../../../components/ui/button';
import { Card, CardDescription, CardTitle } from '../../../components/ui/card';
import { CROSSFADE_SECONDS, MAX_GAP_SECONDS } from './album-rules';
import { allMastered } from './album-state';
import { ALBUM_TEXT } from './album-texts';
import { AlbumTimeline } from './album-timeline';
import { useAlbumState, useAlbumStore } from './use-album';

/** Gap, crossfades, the continuous preview with its playhead, and the transition auditions. */
export function AlbumSequenceCard() {
  const store = useAlbumStore();
  const state = useAlbumState();
  const { tracks, sequence, playing } = state;
  if (tracks.length < 2) return null;
  const mastered = allMastered(state);
  return (
    <Card className="p-4 lg:p-6" data-testid="album-sequence">
      <CardTitle>{ALBUM_TEXT.sequenceTitle}</CardTitle>
      <CardDescription className="mt-1">
        The preview plays the mastered record as it will be delivered. Previews are free.
      </CardDescription>
      <label className="mt-4 grid max-w-xs gap-1.5 text-sm font-medium text-zinc-200">
        {ALBUM_TEXT.gap}
        <input
          type="number"
          min={0}
          max={MAX_GAP_SECONDS}
          step={0.5}
          value={sequence.gapSeconds}
          onChange={(e) => store.sequence.setGap(Number(e.target.value))}
          className="h-10 rounded-md border border-zinc-700 bg-zinc-900 px-3 text-sm text-zinc-50 focus-visible:outline-2 focus-visible:outline-violet-400"
          data-testid="album-gap"
        />
      </label>
      <ol className="mt-4 grid gap-2" aria-label="Transitions">
        {tracks.slice(0, -1).map((t, i) => (
          <li
            key={t.key}
            className="flex flex-wrap items-center justify-between gap-2 rounded-lg border border-zinc-800 p-2 text-sm"
            data-testid="album-transition"
          >
            <span className="min-w-0 basis-full text-zinc-200 sm:basis-auto sm:flex-1">
              {i + 1} → {i + 2}: {t.title} into {tracks[i + 1]!.title}
            </span>
            <label className="flex min-h-9 items-center gap-2 text-zinc-200">
              <input
                type="checkbox"
                className="size-4 accent-violet-500"
                checked={sequence.crossfades[t.key] === true}
                onChange={(e) => store.sequence.setCrossfade(t.key, e.target.checked)}
              />
              {ALBUM_TEXT.crossfade} ({CROSSFADE_SECONDS} s)
            </label>
            <Button
              size="sm"
              variant="outline"
              disabled={!mastered}
              aria-pressed={playing?.kind === 'transition' && playing.from === t.key}
              onClick={() => void store.player.audition(i)}
            >
              {ALBUM_TEXT.audition}
            </Button>
          </li>
        ))}
      </ol>
      <div className="mt-4 flex flex-wrap gap-2">
        <Button disabled={!mastered} onClick={() => void store.player.playRecord()} data-testid="album-play">
          {ALBUM_TEXT.playRecord}
        </Button>
        <Button variant="outline" disabled={!playing} onClick={() => store.player.stop()}>
          {ALBUM_TEXT.stop}
        </Button>
      </div>
      {mastered ? (
        <AlbumTimeline />
      ) : (
        <p className="mt-3 text-sm text-zinc-400">Master the album to preview it.</p>
      )}
    </Card>
  );
}
