import { type ReactNode, useMemo } from 'react';
import { type MasterView, MasterViewContext } from '../common/master-view';
import { useMasteringState, useStore } from '../use-mastering';

/** The single-track page's current master for the result panels (why, platforms, codecs). */
export function SingleMasterView({ children }: { children: ReactNode }) {
  const store = useStore();
  const state = useMasteringState();
  const master = store.current();
  const original = state.source?.analysis ?? null;
  const playing = state.playing === 'mastered' ? state.playAs : null;
  const view = useMemo<MasterView | null>(
    () =>
      master && {
        master,
        original,
        playing,
        playAs: (choice) => void store.playback.playAs(choice),
        encode: (codec) => store.codec.previewCodec(codec),
      },
    [store, master, original, playing],
  );
  return <MasterViewContext.Provider value={view}>{children}</MasterViewContext.Provider>;
}
