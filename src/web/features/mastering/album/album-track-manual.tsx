import { PLANS } from '../../../../shared/plans';
import { Button } from '../../../components/ui/button';
import { RangeField, SelectField } from '../common/form-controls';
import { LivePreviewNote, LivePreviewToggle } from '../common/live-preview';
import { ManualLockedHint } from '../controls/manual-locked-hint';
import { PRESETS, SLIDERS } from '../mastering-constants';
import { canUseManual } from '../mastering-rules';
import { TEXT } from '../mastering-texts';
import { LevelMeter } from '../player/level-meter';
import type { Access } from '../use-mastering';
import { sameSliders } from './album-rules';
import type { AlbumTrack } from './album-state';
import { useAlbumState, useAlbumStore } from './use-album';

/**
 * One album track's manual controls (issue 31: "manual controls on Unlimited ... per track"): the single
 * page's mode and five sliders, with its gating and strings (decision 222: locked controls name the plan).
 * A change is rendered for that track alone, under the album's plan: its loudness and tone stay the album's.
 */
export function AlbumTrackManual({
  track,
  index,
  access,
}: {
  track: AlbumTrack;
  index: number;
  access: Access;
}) {
  const store = useAlbumStore();
  const { masters, preset, render, live } = useAlbumState();
  const allowed = canUseManual(access.user);
  const lockedTo = allowed ? undefined : PLANS.unlimited.name;
  const master = masters[track.key];
  const settings = track.manual ?? PRESETS[preset].settings;
  const running = render?.running === true;
  const changed = master !== undefined && !sameSliders(settings, master.settings);
  const id = `album-${track.key}`;
  return (
    <details className="mt-1 text-sm" data-testid="album-track-manual">
      <summary className="cursor-pointer text-violet-300">
        Manual controls<span className="sr-only"> for track {index + 1}</span>
      </summary>
      <div className="mt-3 grid gap-3">
        <SelectField
          id={`${id}-mode`}
          label={`Mode, track ${index + 1}`}
          value={track.manual ? 'manual' : 'automatic'}
          onChange={(v) => store.tracks.setManual(track.key, v === 'manual' ? { ...settings } : null)}
          hint={allowed ? null : <ManualLockedHint />}
        >
          <option value="automatic">{TEXT.modeAutomatic}</option>
          <option value="manual" disabled={!allowed}>
            {TEXT.modeManual}
          </option>
        </SelectField>
        {SLIDERS.map((s) => (
          <RangeField
            key={s.key}
            id={`${id}-${s.key}`}
            label={`${s.label}, track ${index + 1}`}
            value={settings[s.key]}
            lockedTo={lockedTo}
            onChange={(v) => store.tracks.setManual(track.key, { ...settings, [s.key]: v })}
          />
        ))}
        {track.manual ? (
          // The single page's Live preview: this track's original through the live chain, its meter below.
          <div className="grid gap-2" data-testid="album-track-live">
            <LivePreviewToggle
              checked={live === track.key}
              onChange={(on) => void store.live.setLive(track.key, on)}
              label={`for track ${index + 1}`}
            />
            {live === track.key ? (
              <>
                <LivePreviewNote />
                <LevelMeter player={store.live.player} showMute={false} />
              </>
            ) : null}
          </div>
        ) : null}
        <div className="flex flex-wrap items-center gap-3">
          <Button
            variant="outline"
            disabled={!changed || running}
            onClick={() => void store.master.remaster(track.key)}
            data-testid="album-remaster"
          >
            Master track {index + 1} again
          </Button>
          <span className="text-xs text-zinc-400">
            {changed
              ? 'Its loudness and tone stay the album plan’s; only this track is rendered again.'
              : 'Mastered with these settings.'}
          </span>
        </div>
      </div>
    </details>
  );
}
