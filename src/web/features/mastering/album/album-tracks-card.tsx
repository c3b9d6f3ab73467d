import { Card, CardDescription, CardTitle } from '../../../components/ui/card';
import { AlbumDrop } from './album-drop';
import { AlbumLibraryPicker } from './album-library-picker';
import { MAX_ALBUM_TRACKS, MIN_ALBUM_TRACKS } from './album-rules';
import { ALBUM_TEXT } from './album-texts';
import { AlbumTrackRow } from './album-track-row';
import { useAlbumState } from './use-album';

/** Adding tracks (files, library) and the ordered list: drag, arrow buttons or Alt + arrows, announced. */
export function AlbumTracksCard() {
  const { tracks, announcement } = useAlbumState();
  const full = tracks.length >= MAX_ALBUM_TRACKS;
  return (
    <Card className="p-4 lg:p-6" data-testid="album-tracks">
      <CardTitle>{ALBUM_TEXT.tracksTitle}</CardTitle>
      <CardDescription className="mt-1">
        {tracks.length < MIN_ALBUM_TRACKS ? ALBUM_TEXT.needTracks : ALBUM_TEXT.reorderHint}
      </CardDescription>
      <div className="mt-4 grid gap-3 md:grid-cols-2">
        <AlbumDrop disabled={full} />
        <AlbumLibraryPicker disabled={full} />
      </div>
      {tracks.length > 0 ? (
        <ol className="mt-4 grid gap-2" aria-label="Track order" data-testid="album-track-list">
          {tracks.map((track, index) => (
            <AlbumTrackRow key={track.key} track={track} index={index} count={tracks.length} />
          ))}
        </ol>
      ) : null}
      <p aria-live="polite" className="sr-only" data-testid="album-announcement">
        {announcement}
      </p>
    </Card>
  );
}
