import { useEffect, useRef } from 'react';
import { useSearchParams } from 'react-router';
import { useAuth } from '../../app/auth-context';
import { useConfig } from '../../app/use-config';
import { AlbumModeSwitch, useAlbumMode } from './album/album-mode';
import { AlbumView } from './album/album-view';
import { AnalysisSummary } from './analysis/analysis-summary';
import { LoudnessPanel } from './analysis/loudness-panel';
import { CodecPanel } from './codec/codec-panel';
import { FoldOnPhone } from './common/fold-on-phone';
import { ControlsCard } from './controls/controls-card';
import { CreditStatus } from './credits/credit-status';
import { MasteredCard } from './mastered/mastered-card';
import { SingleMasterView } from './mastered/single-master-view';
import { PlatformPanel } from './platform/platform-panel';
import { AudioSourceCard } from './source/audio-source-card';
import { StoreContext, useAccess, useCreateStore, useMasteringState, useStore } from './use-mastering';
import { VersionsPanel } from './versions/versions-panel';
import { WhyPanel } from './why/why-panel';

/** The signed-in mastering screen (the route component adds the banner, demos and error boundary). */
export function MasteringScreen() {
  if (typeof AudioContext === 'undefined' || typeof Worker === 'undefined') {
    // Thrown during render so the error boundary shows spec 2's error screen with this message.
    throw new Error('This browser does not support Web Audio and Workers, which mastering needs.');
  }
  const [params] = useSearchParams();
  const { devMode: serverDevMode } = useConfig();
  const devMode = serverDevMode && params.get('dev') === 'true';
  const access = useAccess(devMode);
  const store = useCreateStore(access);
  const { user, isLoading } = useAuth();
  const trackId = params.get('trackId');
  const requested = useRef<string | null>(null);
  const [albumMode, setAlbumMode] = useAlbumMode();

  // ?trackId= from the mixer: loaded once the signed-in user is known.
  useEffect(() => {
    if (trackId === null || isLoading || !user || requested.current === trackId) return;
    requested.current = trackId;
    // Issue 30: back on the page with the track still loaded (the store is kept), nothing to fetch.
    if (String(store.getState().source?.trackId) === trackId) return;
    void store.source.loadTrack(trackId);
  }, [trackId, isLoading, user, store]);

  // Issue 31: the album is its own view on this page; the single track's work is kept meanwhile.
  if (albumMode)
    return (
      <>
        <AlbumModeSwitch album onChange={setAlbumMode} />
        <AlbumView access={access} />
      </>
    );
  return (
    <StoreContext.Provider value={store}>
      <AlbumModeSwitch album={false} onChange={setAlbumMode} />
      <Shortcuts />
      {/* One column on a phone: source, controls and Master Track first, then the result, then the
          analysis panels folded (decision 242); the left column's "contents" lets the order apply. */}
      <div className="grid gap-4 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)] lg:gap-6">
        <div className="contents lg:grid lg:content-start lg:gap-6">
          <div className="order-1 grid gap-4 lg:order-none lg:gap-6">
            <CreditStatus access={access} />
            <AudioSourceCard previewMode={access.previewMode} />
          </div>
          <div className="order-3 grid gap-4 lg:order-none lg:gap-6">
            <MasteredSection access={access} />
            <VersionsPanel />
            <SingleMasterView>
              <FoldOnPhone id="platform" title="How it will play">
                <PlatformPanel />
              </FoldOnPhone>
              <FoldOnPhone id="codec" title="Codec preview">
                <CodecPanel />
              </FoldOnPhone>
              <FoldOnPhone id="why" title="Why it sounds like this">
                <WhyPanel />
              </FoldOnPhone>
            </SingleMasterView>
            <FoldOnPhone id="analysis" title="Track analysis">
              <AnalysisSummary />
            </FoldOnPhone>
            <FoldOnPhone id="loudness" title="Loudness and spectrum">
              <LoudnessPanel />
            </FoldOnPhone>
          </div>
        </div>
        <div className="order-2 grid content-start gap-4 lg:order-none lg:gap-6">
          <ControlsCard access={access} />
        </div>
      </div>
    </StoreContext.Provider>
  );
}

function MasteredSection({ access }: { access: ReturnType<typeof useAccess> }) {
  const state = useMasteringState();
  return Object.keys(state.results).length > 0 ? <MasteredCard access={access} /> : null;
}

/** 'B' switches A/B while the master plays (ignored while typing in a field). */
function Shortcuts() {
  const state = useMasteringState();
  const store = useStore();
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const target = e.target as HTMLElement | null;
      if (e.key.toLowerCase() !== 'b' || e.ctrlKey || e.metaKey || e.altKey) return;
      if (target?.closest('input, textarea, select, [contenteditable="true"]')) return;
      if (state.playing !== 'mastered') return;
      e.preventDefault();
      store.playback.toggleListen();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [state.playing, store]);
  return null;
}
