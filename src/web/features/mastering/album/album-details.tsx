import { Card, CardDescription, CardTitle } from '../../../components/ui/card';
import { ALBUM_TEXT } from './album-texts';
import { useAlbumState, useAlbumStore } from './use-album';

const field =
  'h-10 w-full rounded-md border border-zinc-700 bg-zinc-900 px-3 text-sm text-zinc-50 focus-visible:outline-2 focus-visible:outline-violet-400';

/** The record's title and artist (they go into the tags and the CUE sheet). */
export function AlbumDetails() {
  const store = useAlbumStore();
  const { record, artist } = useAlbumState();
  return (
    <Card className="p-4 lg:p-6">
      <CardTitle>{ALBUM_TEXT.title}</CardTitle>
      <CardDescription className="mt-1">{ALBUM_TEXT.intro}</CardDescription>
      <div className="mt-4 grid gap-3 sm:grid-cols-2">
        <label className="grid gap-1.5 text-sm font-medium text-zinc-200">
          {ALBUM_TEXT.record}
          <input
            className={field}
            value={record}
            maxLength={200}
            onChange={(e) => store.master.setDetails({ record: e.target.value })}
          />
        </label>
        <label className="grid gap-1.5 text-sm font-medium text-zinc-200">
          {ALBUM_TEXT.artist}
          <input
            className={field}
            value={artist}
            maxLength={200}
            onChange={(e) => store.master.setDetails({ artist: e.target.value })}
          />
        </label>
      </div>
    </Card>
  );
}
