import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { fetchLibrary, LIBRARY_QUERY_KEY } from '../../library/library-api';
import { ALBUM_TEXT } from './album-texts';
import type { AlbumLibraryItem } from './album-tracks';
import { useAlbumStore } from './use-album';

/** The user's saved uploads and mixer mixes (GET /api/library), ticked and added in the order listed. */
export function AlbumLibraryPicker({ disabled }: { disabled: boolean }) {
  const [open, setOpen] = useState(false);
  return (
    <div className="grid content-start gap-2 rounded-lg border border-zinc-800 p-3">
      <Button
        variant="outline"
        disabled={disabled}
        aria-expanded={open}
        onClick={() => setOpen((o) => !o)}
        data-testid="album-library-toggle"
      >
        {ALBUM_TEXT.fromLibrary}
      </Button>
      {open ? <LibraryList onDone={() => setOpen(false)} /> : null}
    </div>
  );
}

const usable = (items: { kind: string }[]): AlbumLibraryItem[] =>
  items.filter((i): i is AlbumLibraryItem => i.kind === 'upload' || i.kind === 'mix');

function LibraryList({ onDone }: { onDone: () => void }) {
  const store = useAlbumStore();
  const [picked, setPicked] = useState<string[]>([]);
  const query = useQuery({ queryKey: [...LIBRARY_QUERY_KEY, ''], queryFn: () => fetchLibrary('') });
  if (query.isPending) return <p className="text-sm text-zinc-400">Loading your library...</p>;
  if (query.isError) return <p className="text-sm text-red-300">Your library could not be loaded.</p>;
  const items = usable(query.data.items);
  if (items.length === 0) return <p className="text-sm text-zinc-400">{ALBUM_TEXT.libraryEmpty}</p>;
  const id = (i: AlbumLibraryItem) => `${i.kind}-${i.id}`;
  const add = () => {
    store.tracks.addLibrary(items.filter((i) => picked.includes(id(i))));
    setPicked([]);
    onDone();
  };
  return (
    <fieldset className="grid gap-2" data-testid="album-library">
      <legend className="sr-only">{ALBUM_TEXT.fromLibrary}</legend>
      <ul className="grid max-h-56 gap-1 overflow-y-auto">
        {items.map((item) => (
          <li key={id(item)}>
            <label className="flex min-h-10 items-center gap-2 rounded px-2 text-sm text-zinc-200 hover:bg-zinc-800">
              <input
                type="checkbox"
                className="size-4 accent-violet-500"
                checked={picked.includes(id(item))}
                onChange={(e) =>
                  setPicked((p) => (e.target.checked ? [...p, id(item)] : p.filter((x) => x !== id(item))))
                }
              />
              <span className="truncate">{item.name}</span>
              <span className="ml-auto text-xs text-zinc-400">{item.kind === 'mix' ? 'Mix' : 'Upload'}</span>
            </label>
          </li>
        ))}
      </ul>
      <Button disabled={picked.length === 0} onClick={add}>
        {ALBUM_TEXT.libraryAdd(picked.length)}
      </Button>
    </fieldset>
  );
}
