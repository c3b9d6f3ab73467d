import { memo, useEffect, useId, useMemo, useSyncExternalStore } from 'react';
import { toSpecClips } from '../../../../audio';
import type { SongKey } from '../../../../audio/model/song-facts';
import { noteName, PITCH_LIMITS, type PitchSettings } from '../../../../shared/pitch-settings';
import { Card, CardTitle } from '../../../components/ui/card';
import { PlainSentence, ShowNumbers } from '../../../components/ui/show-numbers';
import type { MixerController } from '../mixer-controller';
import { pitchFigures, pitchSentence } from '../plain-sentences';
import { ClipPitchView } from './clip-pitch-view';

const keyValue = (key: PitchSettings['key']): string => (key ? `${key.tonic}:${key.mode}` : 'chromatic');
const parseKey = (value: string): PitchSettings['key'] => {
  if (value === 'chromatic') return null;
  const [tonic, mode] = value.split(':');
  return { tonic: Number(tonic), mode: mode === 'minor' ? 'minor' : 'major' };
};
const KEY_OPTIONS = [
  { value: 'chromatic', label: 'Chromatic' },
  ...(['major', 'minor'] as const).flatMap((mode) =>
    Array.from({ length: 12 }, (_, tonic) => ({
      value: `${tonic}:${mode}`,
      label: `${noteName(tonic)} ${mode}`,
    })),
  ),
];

function Slider(props: {
  label: string;
  value: number;
  min: number;
  max: number;
  unit?: string;
  hint?: string;
  onChange: (v: number) => void;
}) {
  const id = useId();
  return (
    <div className="flex items-center gap-3">
      <label htmlFor={id} className="w-24 shrink-0 text-sm text-zinc-300 sm:w-28">
        {props.label}
      </label>
      <input
        id={id}
        type="range"
        min={props.min}
        max={props.max}
        step={1}
        value={props.value}
        onChange={(e) => props.onChange(Number(e.target.value))}
        className="min-w-0 flex-1 accent-violet-500"
      />
      <span className="w-14 shrink-0 text-right text-sm tabular-nums text-zinc-300">
        {props.value}
        {props.unit ?? ''}
      </span>
    </div>
  );
}

/**
 * Pitch correction of the vocal (issue 27): key and scale (from the song facts when detected, else chosen;
 * chromatic available), retune speed, humanize and amount, and the pitch view of the vocal. It takes only
 * the pitch settings and whether the vocal is loaded (memoised: the mixer's other flow changes, such as
 * Apply Sequence or a preview's progress, leave it as it is, decision 297).
 */
export const PitchPanel = memo(function PitchPanel({
  controller,
  settings,
  vocalLoaded,
  songKey = null,
}: {
  controller: MixerController;
  /** The flow's pitch settings. */
  settings: PitchSettings;
  vocalLoaded: boolean;
  /** The detected key (song facts), when there is one. */
  songKey?: SongKey | null;
}) {
  const keyId = useId();
  const { curve, status, progress, livePath, heardMoved, liveAmount } = useSyncExternalStore(
    controller.pitch.store.subscribe,
    controller.pitch.store.getState,
  );
  // Only the edited timeline's clips: the engine's other changes (Apply Sequence, the transport) leave the
  // clip chooser as it is (decision 297).
  const { engine } = controller;
  const timeline = useSyncExternalStore(engine.subscribe, () => engine.getState().history.present);
  const vocalClips = useMemo(() => toSpecClips(timeline).vocals, [timeline]);
  const figures = useMemo(() => (curve ? pitchFigures(curve) : null), [curve]);

  // A detected key is the default target until the user picks one.
  useEffect(() => {
    if (songKey && settings.followSongKey && keyValue(settings.key) !== keyValue(songKey))
      controller.setPitch({ key: { tonic: songKey.tonic, mode: songKey.mode } });
  }, [controller, songKey, settings.followSongKey, settings.key]);

  return (
    <Card
      aria-labelledby="pitch-title"
      data-testid="pitch-panel"
      data-state={status}
      data-live-path={livePath}
      data-live-moved={heardMoved}
      data-live-amount={liveAmount ?? ''}
    >
      <CardTitle id="pitch-title">Pitch Correction</CardTitle>
      {figures ? <PlainSentence>{pitchSentence(figures, settings)}</PlainSentence> : null}
      <p className="mt-1 text-sm text-zinc-400">
        Tunes the vocal to the song's key before the mix. At amount 0 the vocal is left exactly as recorded.
      </p>
      <div className="mt-4 grid gap-3">
        <div className="flex flex-wrap items-center gap-3">
          <label htmlFor={keyId} className="w-28 text-sm text-zinc-300">
            Key and scale
          </label>
          <select
            id={keyId}
            value={keyValue(settings.key)}
            onChange={(e) => controller.setPitch({ key: parseKey(e.target.value), followSongKey: false })}
            className="rounded-md border border-zinc-700 bg-zinc-900 px-2 py-1 text-sm text-zinc-100"
          >
            {KEY_OPTIONS.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </select>
          {songKey ? (
            <button
              type="button"
              className="text-sm text-violet-300 underline"
              onClick={() => controller.setPitch({ key: songKey, followSongKey: true })}
            >
              Use the song's key ({noteName(songKey.tonic)} {songKey.mode})
            </button>
          ) : null}
        </div>
        <Slider
          label="Amount"
          value={settings.amount}
          {...PITCH_LIMITS.amount}
          unit="%"
          onChange={(amount) => controller.setPitch({ amount })}
        />
        <Slider
          label="Retune speed"
          value={settings.retuneMs}
          {...PITCH_LIMITS.retuneMs}
          unit=" ms"
          onChange={(retuneMs) => controller.setPitch({ retuneMs })}
        />
        <p className="-mt-2 text-xs text-zinc-400 sm:ml-31">
          0 ms is the hard "robot" effect; slower is more natural.
        </p>
        <Slider
          label="Humanize"
          value={settings.humanize}
          {...PITCH_LIMITS.humanize}
          unit="%"
          onChange={(humanize) => controller.setPitch({ humanize })}
        />
      </div>
      {!vocalLoaded ? (
        <p className="mt-4 text-sm text-zinc-400">Upload a vocal to see its pitch.</p>
      ) : status === 'analysing' && !curve ? (
        <p className="mt-4 text-sm text-zinc-400" role="status">
          Analysing the vocal's pitch… {progress}%
        </p>
      ) : status === 'failed' ? (
        <p className="mt-4 text-sm text-red-400" role="alert">
          The vocal's pitch could not be analysed.
        </p>
      ) : null}
      {curve ? <ClipPitchView curve={curve} settings={settings} clips={vocalClips} /> : null}
      {figures && Number.isFinite(figures.beforeCents) ? (
        <div className="mt-3">
          <ShowNumbers>
            <dl
              className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-xs text-zinc-400"
              data-testid="pitch-numbers"
            >
              <dt>Off the target notes, sung</dt>
              <dd className="tabular-nums text-zinc-200">
                {Math.round(figures.beforeCents)} cents on average
              </dd>
              <dt>Off after the correction</dt>
              <dd className="tabular-nums text-zinc-200">
                {Math.round(figures.afterCents)} cents on average
              </dd>
              <dt>Sung more than 25 cents off</dt>
              <dd className="tabular-nums text-zinc-200">
                {Math.round(figures.offShare * 100)}% of the time
              </dd>
              <dt>Sung notes analysed</dt>
              <dd className="tabular-nums text-zinc-200">{figures.sungSeconds.toFixed(1)} s</dd>
            </dl>
          </ShowNumbers>
        </div>
      ) : null}
    </Card>
  );
});
