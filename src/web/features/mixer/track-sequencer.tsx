import { memo, useId, useState } from 'react';
import { selectCanRedo, selectCanUndo, selectDurationSeconds } from '../../../audio';
import { Button } from '../../components/ui/button';
import { Card, CardTitle } from '../../components/ui/card';
import type { MixerController } from './mixer-controller';
import { MIXER_TEXT } from './mixer-messages';
import { ShortcutsHelp } from './shortcuts-help';
import { SongFactsPanel } from './song-facts-panel';
import { TimelineView } from './timeline-view';
import { useEngineState, useFlowPart } from './use-mixer';

const ZOOMS = [1, 2, 4, 8] as const;

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
  const [zoomIndex, setZoomIndex] = useState(0);
  const volumeId = useId();
  const duration = selectDurationSeconds(state);
  const loaded = tracks.vocals.status === 'loaded' && tracks.instrumental.status === 'loaded';
  const playing = state.transport.playing;
  const hasSelection = state.history.present.selectedId !== null;

  return (
    <Card aria-labelledby="sequencer-title" data-testid="sequencer">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <CardTitle id="sequencer-title">Track Sequencer</CardTitle>
        <div className="flex items-center gap-2">
          <Button
            size="sm"
            variant="outline"
            onClick={() => setZoomIndex((i) => Math.max(0, i - 1))}
            disabled={zoomIndex === 0}
            aria-label="Zoom out"
          >
            −
          </Button>
          <span className="w-10 text-center text-sm tabular-nums text-zinc-300">{ZOOMS[zoomIndex]}×</span>
          <Button
            size="sm"
            variant="outline"
            onClick={() => setZoomIndex((i) => Math.min(ZOOMS.length - 1, i + 1))}
            disabled={zoomIndex === ZOOMS.length - 1}
            aria-label="Zoom in"
          >
            +
          </Button>
          <ShortcutsHelp />
        </div>
      </div>

      <div className="mt-4">
        <SongFactsPanel controller={controller} />
        <TimelineView
          engine={engine}
          state={state}
          tracks={tracks}
          duration={duration}
          zoom={ZOOMS[zoomIndex]!}
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
