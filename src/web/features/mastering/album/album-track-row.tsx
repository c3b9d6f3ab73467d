import type { KeyboardEvent } from 'react';
import { Button } from '../../../components/ui/button';
import { cn } from '../../../lib/cn';
import { clock, isrcFieldOk } from './album-rules';
import type { AlbumTrack } from './album-state';
import { useAlbumState, useAlbumStore } from './use-album';

const input =
  'h-9 w-full min-w-0 rounded-md border border-zinc-700 bg-zinc-900 px-2 text-sm text-zinc-50 focus-visible:outline-2 focus-visible:outline-violet-400';

const loadWords = (t: AlbumTrack): string => {
  switch (t.load.status) {
    case 'loading':
      return 'Loading...';
    case 'analysing':
      return 'Analysing...';
    case 'failed':
      return t.load.message;
    case 'ready':
      return t.buffer ? clock(t.buffer.duration) : '';
  }
};

/** One track of the record: drag it, or move it with the buttons or Alt + arrow keys; title and ISRC. */
export function AlbumTrackRow({ track, index, count }: { track: AlbumTrack; index: number; count: number }) {
  const store = useAlbumStore();
  const { playing } = useAlbumState();
  const current = playing?.current === track.key;
  const move = (to: number) => store.tracks.move(index, to);
  const onKey = (e: KeyboardEvent) => {
    if (!e.altKey || (e.key !== 'ArrowUp' && e.key !== 'ArrowDown')) return;
    e.preventDefault();
    move(e.key === 'ArrowUp' ? index - 1 : index + 1);
  };
  const isrcOk = isrcFieldOk(track.isrc);
  return (
    <li
      draggable
      onDragStart={(e) => {
        e.dataTransfer.effectAllowed = 'move';
        e.dataTransfer.setData('text/x-album-track', String(index));
      }}
      onDragOver={(e) => {
        if (e.dataTransfer.types.includes('text/x-album-track')) e.preventDefault();
      }}
      onDrop={(e) => {
        const raw = e.dataTransfer.getData('text/x-album-track');
        const from = raw === '' ? Number.NaN : Number(raw);
        if (!Number.isInteger(from)) return;
        e.preventDefault();
        store.tracks.move(from, index);
      }}
      onKeyDown={onKey}
      data-testid="album-track"
      data-key={track.key}
      data-state={track.load.status}
      data-current={current ? 'true' : undefined}
      aria-current={current ? 'true' : undefined}
      className={cn(
        'grid grid-cols-[auto_minmax(0,1fr)_auto] items-center gap-2 rounded-lg border p-2',
        current ? 'border-violet-400 bg-violet-500/15' : 'border-zinc-800 bg-zinc-900',
      )}
    >
      <span className="flex items-center gap-1 text-sm text-zinc-400">
        <span aria-hidden="true" className="cursor-grab px-1 select-none" title="Drag to reorder">
          ⠿
        </span>
        <span className="w-5 text-right tabular-nums">{index + 1}</span>
      </span>
      <div className="grid min-w-0 gap-1 sm:grid-cols-[minmax(0,2fr)_minmax(0,1fr)_auto] sm:items-center">
        <input
          className={input}
          value={track.title}
          aria-label={`Title of track ${index + 1}`}
          maxLength={200}
          onChange={(e) => store.tracks.setTitle(track.key, e.target.value)}
        />
        <input
          className={cn(input, !isrcOk && 'border-red-500')}
          value={track.isrc}
          placeholder="ISRC"
          aria-label={`ISRC of track ${index + 1}`}
          aria-invalid={!isrcOk}
          maxLength={15}
          onChange={(e) => store.tracks.setIsrc(track.key, e.target.value)}
        />
        <span
          className={cn(
            'truncate text-xs',
            track.load.status === 'failed' ? 'text-red-300' : 'text-zinc-400',
          )}
          data-testid="album-track-status"
        >
          {loadWords(track)}
        </span>
      </div>
      <span className="flex gap-1">
        <Button
          size="icon"
          variant="ghost"
          className="size-9"
          aria-label={`Move ${track.title} up`}
          disabled={index === 0}
          onClick={() => move(index - 1)}
        >
          ↑
        </Button>
        <Button
          size="icon"
          variant="ghost"
          className="size-9"
          aria-label={`Move ${track.title} down`}
          disabled={index === count - 1}
          onClick={() => move(index + 1)}
        >
          ↓
        </Button>
        <Button
          size="icon"
          variant="ghost"
          className="size-9"
          aria-label={`Remove ${track.title}`}
          onClick={() => store.tracks.remove(track.key)}
        >
          ✕
        </Button>
      </span>
    </li>
  );
}
