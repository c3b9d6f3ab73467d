import { useCallback } from 'react';
import { useSearchParams } from 'react-router';
import { Button } from '../../../components/ui/button';
import { Card, CardTitle } from '../../../components/ui/card';
import { RangeField } from '../common/form-controls';
import { LivePreviewNote } from '../common/live-preview';
import { Waveform } from '../common/waveform';
import { DEMO_TRACKS } from '../demos/demo-tracks-list';
import { TEXT } from '../mastering-texts';
import { LevelMeter } from '../player/level-meter';
import { useMasteringState, useStore } from '../use-mastering';
import { DropZone } from './drop-zone';
import { mixGenreOf } from './source-genre';

/** Spec 2 'Audio Source': drop area, original waveform with Play/Stop, volume, level meter. */
export function AudioSourceCard({ previewMode }: { previewMode: boolean }) {
  const store = useStore();
  const state = useMasteringState();
  const { source } = state;
  const position = useCallback(() => store.player.position(), [store]);
  const playingOriginal = state.playing === 'original';
  const [params] = useSearchParams();
  return (
    <Card
      className="grid gap-4 p-4 sm:p-6"
      data-testid="audio-source"
      data-state={source ? 'loaded' : state.loading ? 'loading' : 'empty'}
      data-hearing={state.hearingLive ? 'live-master' : (state.playing ?? 'none')}
      // Issue 26: the genre the mixer made this mix for, the genre selector's default (empty: none).
      data-mix-genre={mixGenreOf(source, params) ?? ''}
    >
      <CardTitle>Audio Source</CardTitle>
      {source ? (
        <>
          <div className="flex flex-wrap items-center justify-between gap-2">
            <p className="truncate text-sm text-zinc-200" data-testid="source-name">
              {source.name} · {source.buffer.duration.toFixed(1)} s · {source.buffer.sampleRate} Hz
            </p>
            <Button variant="link" size="sm" onClick={() => store.clear()}>
              {TEXT.uploadDifferent}
            </Button>
          </div>
          <Waveform
            overview={source.overview}
            label="Original waveform"
            tone="original"
            position={position}
            duration={source.buffer.duration}
            active={playingOriginal}
          />
          <div className="flex flex-wrap items-center gap-2">
            {playingOriginal ? (
              <Button variant="secondary" onClick={() => store.playback.stop()}>
                Stop
              </Button>
            ) : (
              <Button variant="secondary" onClick={() => void store.playback.playOriginal()}>
                Play
              </Button>
            )}
            {state.hearingLive ? (
              <span className="text-xs text-violet-300" data-testid="hearing-live">
                You hear the master live while it renders
              </span>
            ) : state.mode === 'manual' && state.livePreview ? (
              <LivePreviewNote />
            ) : null}
          </div>
        </>
      ) : (
        <>
          <DropZone onFile={(file) => void store.source.loadFile(file)} busy={state.loading} />
          <div className="flex flex-wrap items-center gap-2 text-sm text-zinc-400">
            <span>Or try a demo track:</span>
            {DEMO_TRACKS.map((demo) => (
              <Button
                key={demo.file}
                variant="outline"
                size="sm"
                onClick={() => void store.source.loadUrl(demo.title, demo.file)}
              >
                {demo.title}
              </Button>
            ))}
          </div>
        </>
      )}
      <RangeField
        id="master-volume"
        label="Master volume (playback only, does not affect output)"
        value={state.volume}
        onChange={(v) => store.playback.setVolume(v)}
      />
      {state.playing ? <LevelMeter player={store.player} showMute={previewMode} /> : null}
    </Card>
  );
}
