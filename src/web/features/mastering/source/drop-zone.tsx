import { type DragEvent, useId, useState } from 'react';
import { cn } from '../../../lib/cn';
import { TEXT } from '../mastering-texts';

/** The Audio Source card's drop area ('WAV, MP3, OGG'): drop a file or click to choose one. */
export function DropZone({ onFile, busy }: { onFile: (file: File) => void; busy: string | null }) {
  const id = useId();
  const [over, setOver] = useState(false);
  const drop = (e: DragEvent) => {
    e.preventDefault();
    setOver(false);
    const file = e.dataTransfer.files[0];
    if (file) onFile(file);
  };
  return (
    <label
      htmlFor={id}
      onDragOver={(e) => {
        e.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={drop}
      data-testid="drop-zone"
      className={cn(
        'flex cursor-pointer flex-col items-center justify-center gap-2 rounded-lg border-2 border-dashed p-8 text-center',
        over ? 'border-violet-400 bg-violet-500/10' : 'border-zinc-700 hover:border-zinc-500',
      )}
    >
      <span className="font-medium text-zinc-100">
        {busy ? `Loading ${busy}...` : 'Drop your track here or click to choose a file'}
      </span>
      <span className="text-sm text-zinc-400">{TEXT.dropFormats}</span>
      <span className="text-xs text-zinc-400">{TEXT.dropMoreFormats}</span>
      <input
        id={id}
        type="file"
        accept="audio/*,.wav,.mp3,.ogg,.flac,.aif,.aiff,.aifc,.m4a,.aac"
        aria-label="Audio file"
        className="sr-only"
        disabled={busy !== null}
        onChange={(e) => {
          const file = e.target.files?.[0];
          e.target.value = '';
          if (file) onFile(file);
        }}
      />
    </label>
  );
}
