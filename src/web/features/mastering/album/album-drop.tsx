import { type DragEvent, useId, useState } from 'react';
import { cn } from '../../../lib/cn';
import { ALBUM_TEXT } from './album-texts';
import { useAlbumStore } from './use-album';

/** Drop several files, or choose them; they join the end of the record in the order given. */
export function AlbumDrop({ disabled }: { disabled: boolean }) {
  const store = useAlbumStore();
  const id = useId();
  const [over, setOver] = useState(false);
  const drop = (e: DragEvent) => {
    // A track row being dragged carries no files: that drag is the list's, not this one's.
    if (e.dataTransfer.files.length === 0) return;
    e.preventDefault();
    setOver(false);
    store.tracks.addFiles([...e.dataTransfer.files]);
  };
  return (
    <label
      htmlFor={id}
      onDragOver={(e) => {
        if (!e.dataTransfer.types.includes('Files')) return;
        e.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={drop}
      className={cn(
        'flex min-h-24 cursor-pointer items-center justify-center rounded-lg border-2 border-dashed p-4 text-center text-sm text-zinc-200',
        over ? 'border-violet-400 bg-violet-500/10' : 'border-zinc-700 hover:border-zinc-500',
        disabled && 'pointer-events-none opacity-50',
      )}
    >
      {ALBUM_TEXT.dropHint}
      <input
        id={id}
        type="file"
        multiple
        accept="audio/*,.wav,.mp3,.ogg,.flac,.aif,.aiff,.aifc,.m4a,.aac"
        aria-label={ALBUM_TEXT.addFiles}
        className="sr-only"
        disabled={disabled}
        onChange={(e) => {
          const files = [...(e.target.files ?? [])];
          e.target.value = '';
          store.tracks.addFiles(files);
        }}
      />
    </label>
  );
}
