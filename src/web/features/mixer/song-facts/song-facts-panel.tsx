import { memo, useState, useSyncExternalStore } from 'react';
import {
  bpmText,
  keyName,
  MAX_TEMPO_BPM,
  MIN_TEMPO_BPM,
  PITCH_CLASS_NAMES,
  SNAP_MODES,
  type SnapMode,
  songFactsText,
} from '../../../../audio';
import { Button } from '../../../components/ui/button';
import { PlainSentence, useShowNumbers } from '../../../components/ui/show-numbers';
import type { MixerController } from '../mixer-controller';
import { songFactsSentence } from '../plain-sentences';

const SNAP_LABELS: Record<SnapMode, string> = { off: 'Off (10 ms)', beat: 'Beat', bar: 'Bar' };
const percent = (x: number) => `${Math.round(x * 100)}%`;

/**
 * Issue 27: the beat's key and tempo ("A minor · 96 BPM") with how sure the analysis is of each, both
 * editable, and the timeline's snap (off keeps the 10 ms grid). It reads only the engine's song facts, so
 * the engine's other changes (an edit, Apply Sequence, the transport) do not re-render it (decision 297).
 */
export const SongFactsPanel = memo(function SongFactsPanel({ controller }: { controller: MixerController }) {
  const runner = controller.songFacts;
  const status = useSyncExternalStore(runner.status.subscribe, runner.status.getState);
  const { engine } = controller;
  const facts = useSyncExternalStore(engine.subscribe, () => engine.getState().songFacts);
  const snap = useSyncExternalStore(engine.subscribe, () => engine.getState().snap);
  const [editing, setEditing] = useState(false);
  const [tempoDraft, setTempoDraft] = useState('');
  const numbers = useShowNumbers();

  if (status.state === 'idle' && !facts) return null;
  const tempoValue = Number(tempoDraft);
  const tempoValid =
    Number.isFinite(tempoValue) && tempoValue >= MIN_TEMPO_BPM && tempoValue <= MAX_TEMPO_BPM;

  return (
    <div
      className="mb-3 flex flex-wrap items-center gap-x-4 gap-y-2 rounded-lg border border-zinc-800 px-3 py-2 text-sm"
      data-testid="song-facts"
    >
      {status.state === 'analysing' && !facts ? (
        // The rows the answer will fill, held while it is found: the panel keeps its height when the
        // answer lands, so the buttons below it never jump from under a finger or a pointer.
        <>
          {/* On a phone the answer's sentence takes about three lines, and the numbers' button a row. */}
          <span className="min-h-[3lh] basis-full text-zinc-300 sm:min-h-0" role="status">
            Finding the key and tempo… {percent(status.fraction)}
          </span>
          <span className="font-semibold text-zinc-500" aria-hidden="true">
            Key and tempo
          </span>
          <span className="invisible min-h-8 basis-full text-sm sm:basis-auto" aria-hidden="true">
            Show the numbers
          </span>
          <Button size="sm" variant="ghost" disabled>
            Edit key and tempo
          </Button>
          <SnapSelect controller={controller} value={snap} disabled />
        </>
      ) : null}
      {status.state === 'failed' && !facts ? (
        <span className="text-amber-300">The key and tempo could not be found.</span>
      ) : null}
      {facts ? (
        <>
          <PlainSentence className="mt-0 basis-full text-sm">{songFactsSentence(facts)}</PlainSentence>
          <span className="font-semibold text-zinc-50" data-testid="song-facts-summary">
            {songFactsText(facts)}
          </span>
          {numbers.button}
          <span
            className="text-xs text-zinc-400"
            data-testid="song-facts-confidence"
            id={numbers.id}
            hidden={!numbers.open}
          >
            key {percent(facts.keyConfidence)} sure · tempo {percent(facts.tempoConfidence)} sure
            {status.relativeOf && facts.keyConfidence < 1 ? ` · or ${keyName(status.relativeOf)}` : ''}
          </span>
          {editing ? (
            <span className="flex flex-wrap items-center gap-2">
              <label className="flex items-center gap-1 text-zinc-300">
                Key
                <select
                  aria-label="Key"
                  className="rounded border border-zinc-700 bg-zinc-900 px-1 py-0.5 text-zinc-100"
                  value={`${facts.key.tonic}-${facts.key.mode}`}
                  onChange={(e) => {
                    const [tonic, mode] = e.target.value.split('-');
                    runner.edit({
                      key: { tonic: Number(tonic), mode: mode === 'minor' ? 'minor' : 'major' },
                    });
                  }}
                >
                  {(['major', 'minor'] as const).flatMap((mode) =>
                    PITCH_CLASS_NAMES.map((name, tonic) => (
                      <option key={`${name} ${mode}`} value={`${tonic}-${mode}`}>
                        {name} {mode}
                      </option>
                    )),
                  )}
                </select>
              </label>
              <form
                className="flex items-center gap-1"
                onSubmit={(e) => {
                  e.preventDefault();
                  if (tempoValid) runner.edit({ tempoBpm: tempoValue });
                  setEditing(false);
                }}
              >
                <label className="flex items-center gap-1 text-zinc-300">
                  Tempo
                  <input
                    aria-label="Tempo (BPM)"
                    type="number"
                    min={MIN_TEMPO_BPM}
                    max={MAX_TEMPO_BPM}
                    step={0.1}
                    value={tempoDraft}
                    onChange={(e) => setTempoDraft(e.target.value)}
                    className="w-20 rounded border border-zinc-700 bg-zinc-900 px-1 py-0.5 text-zinc-100"
                  />
                  BPM
                </label>
                <Button size="sm" type="submit" disabled={!tempoValid}>
                  Done
                </Button>
              </form>
            </span>
          ) : (
            <Button
              size="sm"
              variant="ghost"
              onClick={() => {
                setTempoDraft(bpmText(facts.tempoBpm));
                setEditing(true);
              }}
            >
              Edit key and tempo
            </Button>
          )}
          <SnapSelect controller={controller} value={snap} />
        </>
      ) : null}
    </div>
  );
});

function SnapSelect({
  controller,
  value,
  disabled = false,
}: {
  controller: MixerController;
  value: SnapMode;
  disabled?: boolean;
}) {
  return (
    <label className="ml-auto flex items-center gap-1 text-zinc-300">
      Snap
      <select
        aria-label="Snap"
        className="rounded border border-zinc-700 bg-zinc-900 px-1 py-0.5 text-zinc-100 disabled:opacity-50"
        value={value}
        disabled={disabled}
        onChange={(e) => controller.engine.setSnap(e.target.value as SnapMode)}
      >
        {SNAP_MODES.map((mode) => (
          <option key={mode} value={mode}>
            {SNAP_LABELS[mode]}
          </option>
        ))}
      </select>
    </label>
  );
}
