import { useSearchParams } from 'react-router';
import { cn } from '../../../lib/cn';
import { ALBUM_TEXT } from './album-texts';

/** Album mode is in the address (?mode=album), so it survives a reload and can be linked to. */
export const useAlbumMode = (): [boolean, (album: boolean) => void] => {
  const [params, setParams] = useSearchParams();
  const album = params.get('mode') === 'album';
  const set = (on: boolean) =>
    setParams(
      (p) => {
        const next = new URLSearchParams(p);
        if (on) next.set('mode', 'album');
        else next.delete('mode');
        return next;
      },
      { replace: true },
    );
  return [album, set];
};

/** "Single track" or "Album": two buttons, the current one pressed. */
export function AlbumModeSwitch({ album, onChange }: { album: boolean; onChange: (album: boolean) => void }) {
  const item = (on: boolean) =>
    cn(
      'min-h-10 flex-1 rounded-md px-4 py-2 text-sm font-medium focus-visible:outline-2 focus-visible:outline-violet-400',
      on ? 'bg-zinc-800 text-zinc-50' : 'text-zinc-300 hover:text-zinc-50',
    );
  return (
    <fieldset className="mb-4 flex w-full max-w-sm rounded-lg border border-zinc-800 bg-zinc-900 p-1 lg:mb-6">
      <legend className="sr-only">Mastering mode</legend>
      <button type="button" aria-pressed={!album} className={item(!album)} onClick={() => onChange(false)}>
        {ALBUM_TEXT.modeSingle}
      </button>
      <button
        type="button"
        aria-pressed={album}
        className={item(album)}
        onClick={() => onChange(true)}
        data-testid="album-mode"
      >
        {ALBUM_TEXT.modeAlbum}
      </button>
    </fieldset>
  );
}
