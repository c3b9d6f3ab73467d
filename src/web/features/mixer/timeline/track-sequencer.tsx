import { memo, useId, useState } from 'react';
import { selectCanRedo, selectCanUndo, selectDurationSeconds } from '../../../../audio';
import { Button } from '../../../components/ui/button';
import { Card, CardTitle } from '../../../components/ui/card';
import type { MixerController } from '../mixer-controller';
import { MIXER_TEXT } from '../mixer-messages';
import { ShortcutsHelp } from '../shortcuts-help';
import { SongFactsPanel } from '../song-facts/song-facts-panel';
import { useEngineState, useFlowPart } from '../use-mixer';
import { TimelineView } from './timeline-view';
import { MAX_ZOOM, zoomLabel } from './timeline-zoom';
import { useTimelineZoom } from './use-timeline-zoom';

/** Track Sequencer (spec 2): transport, the timeline, preview volume, clip controls and the tip. */
export const TrackSequencer = memo(function TrackSequencer({
  controller,
  canApply,
}: {
  controller: MixerController;
  canApply: boolean;
}) {
  const { engine } = controller;
  const state = useEngineState(controller);
  const tracks = useFlowPart(controller, (s) => s.tracks);
  const rendering = useFlowPart(controller, (s) => s.previews.status === 'rendering');
  const volumeId = useId();
  const duration = selectDurationSeconds(state);
  const { zoom, zoomIn, zoomOut, scrollRef } = useTimelineZoom(duration);
  const [fineDrag, setFineDrag] = useState(false);
  const loaded = tracks.vocals.status === 'loaded' && tracks.instrumental.status === 'loaded';
  const playing = state.transport.playing;
  const hasSelection = state.history.present.selectedId !== null;

  return (
    <Card aria-labelledby="sequencer-title" data-testid="sequencer">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <CardTitle id="sequencer-title">Track Sequencer</CardTitle>
        <div className="flex items-center gap-2">
          <Button size="sm" variant="outline" onClick={zoomOut} disabled={zoom <= 1} aria-label="Zoom out">
            −
          </Button>
          <span className="w-10 text-center text-sm tabular-nums text-zinc-300">{zoomLabel(zoom)}</span>
          <Button
            size="sm"
            variant="outline"
            onClick={zoomIn}
            disabled={zoom >= MAX_ZOOM}
            aria-label="Zoom in"
          >
            +
          </Button>
          <Button
            size="sm"
            variant={fineDrag ? 'secondary' : 'ghost'}
            aria-pressed={fineDrag}
            onClick={() => setFineDrag((on) => !on)}
            title="Clips follow the pointer at a quarter of its speed"
          >
            Fine drag
          </Button>
          <ShortcutsHelp />
        </div>
      </div>

      <div className="mt-4">
        <SongFactsPanel controller={controller} />
        <TimelineView
          engine={engine}
          timeline={state.history.present}
          songFacts={state.songFacts}
          tracks={tracks}
          duration={duration}
          zoom={zoom}
          scrollRef={scrollRef}
          fineDrag={fineDrag}
        />
      </div>

      <div className="mt-4 flex flex-wrap items-center gap-2">
        <Button onClick={() => void controller.togglePlay()} aria-label={playing ? 'Pause' : 'Play'}>
          {playing ? 'Pause' : 'Play'}
        </Button>
        <Button variant="secondary" onClick={() => controller.resetAll()}>
          Reset All
        </Button>
        <Button
          variant="primary"
          onClick={() => void controller.applySequence()}
          disabled={!loaded || !canApply || rendering}
        >
          Apply Sequence
        </Button>
        {!canApply ? <span className="text-sm text-amber-300">{MIXER_TEXT.upgrade}</span> : null}
        <div className="ml-auto flex items-center gap-2">
          <label htmlFor={volumeId} className="text-sm text-zinc-300">
            Master volume <span className="text-xs text-zinc-400">({MIXER_TEXT.previewVolume})</span>
          </label>
          <input
            id={volumeId}
            type="range"
            min={0}
            max={100}
            step={1}
            value={state.previewVolume}
            onChange={(e) => engine.setPreviewVolume(Number(e.target.value))}
            className="w-32 accent-violet-500"
          />
          <span className="w-10 text-sm tabular-nums text-zinc-300">{state.previewVolume}%</span>
        </div>
      </div>

      <div className="mt-4 rounded-lg border border-zinc-800 p-3">
        <h3 className="text-sm font-semibold text-zinc-200">Clip Controls</h3>
        <div className="mt-2 flex flex-wrap gap-2">
          <Button size="sm" variant="outline" onClick={() => engine.cutAtPlayhead()} disabled={!hasSelection}>
            Cut at Playhead
          </Button>
          <Button
            size="sm"
            variant="outline"
            onClick={() => engine.deleteSelected()}
            disabled={!hasSelection}
          >
            Delete Selected
          </Button>
          <Button
            size="sm"
            variant="outline"
            onClick={() => engine.clearSelection()}
            disabled={!hasSelection}
          >
            Clear Selection
          </Button>
          <Button size="sm" variant="ghost" onClick={() => engine.undo()} disabled={!selectCanUndo(state)}>
            Undo
          </Button>
          <Button size="sm" variant="ghost" onClick={() => engine.redo()} disabled={!selectCanRedo(state)}>
            Redo
          </Button>
        </div>
        <p className="mt-2 text-xs text-zinc-400">{MIXER_TEXT.tip}</p>
      </div>
    </Card>
  );
});
