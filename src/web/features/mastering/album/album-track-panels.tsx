import { useMemo, useState } from 'react';
import { CodecPanel } from '../codec/codec-panel';
import { type MasterView, MasterViewContext } from '../common/master-view';
import { PlatformPanel } from '../platform/platform-panel';
import { WhyPanel } from '../why/why-panel';
import { useAlbumState, useAlbumStore } from './use-album';

/**
 * One album track's master in the single page's own panels (issue 31: "the why panel per track, platform and
 * codec preview"): how it will play on each service, its codec preview and why it sounds as it does. Folded
 * until asked for (twenty tracks of three panels each would bury the record); opened, the panels mount.
 */
export function AlbumTrackPanels({ trackKey, title }: { trackKey: string; title: string }) {
  const [open, setOpen] = useState(false);
  return (
    <details
      className="mt-1 text-sm"
      data-testid="album-track-panels"
      onToggle={(e) => setOpen(e.currentTarget.open)}
    >
      <summary className="cursor-pointer text-violet-300">
        How it will play, codec preview and the full why
        <span className="sr-only"> for {title}</span>
      </summary>
      {open ? <TrackView trackKey={trackKey} /> : null}
    </details>
  );
}

function TrackView({ trackKey }: { trackKey: string }) {
  const store = useAlbumStore();
  const { masters, playing } = useAlbumState();
  const master = masters[trackKey];
  const as = playing?.kind === 'track' && playing.from === trackKey ? (playing.as ?? null) : null;
  const view = useMemo<MasterView | null>(
    () =>
      master
        ? {
            master,
            original: master.original,
            playing: as,
            playAs: (choice) => void store.preview.playAs(trackKey, choice),
            encode: (codec) => store.preview.encode(trackKey, codec),
          }
        : null,
    [store, trackKey, master, as],
  );
  return (
    <MasterViewContext.Provider value={view}>
      {/* Inside the track's row the single page's cards keep less padding on a phone (three boxes deep, the
          text would be a narrow column). */}
      <div className="mt-3 grid gap-3 [&>div]:p-3 sm:[&>div]:p-6">
        <PlatformPanel />
        <CodecPanel />
        <WhyPanel />
      </div>
    </MasterViewContext.Provider>
  );
}
