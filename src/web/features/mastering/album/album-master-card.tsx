import { GENRE_LABELS, GENRES, type Genre } from '../../../../shared/genres';
import { Button } from '../../../components/ui/button';
import { Card, CardDescription, CardTitle } from '../../../components/ui/card';
import { ProgressBar } from '../../../components/ui/progress-bar';
import { SelectField } from '../common/form-controls';
import { PRESET_IDS, PRESETS, type PresetId } from '../mastering-constants';
import type { Access } from '../use-mastering';
import { AlbumLoudnessPlan } from './album-loudness-plan';
import { MIN_ALBUM_TRACKS } from './album-rules';
import type { AlbumState } from './album-state';
import { ALBUM_TEXT } from './album-texts';
import { AlbumTrackManual } from './album-track-manual';
import { AlbumTrackPanels } from './album-track-panels';
import { useAlbumState, useAlbumStore } from './use-album';

const ready = (s: AlbumState) =>
  s.tracks.length >= MIN_ALBUM_TRACKS && s.tracks.every((t) => t.load.status === 'ready');

/** One genre and preset for the record, Master Album with its progress and Cancel, and each track's result. */
export function AlbumMasterCard({ access }: { access: Access }) {
  const store = useAlbumStore();
  const state = useAlbumState();
  const { render } = state;
  const running = render?.running === true;
  return (
    <Card className="p-4 lg:p-6" data-testid="album-master">
      <CardTitle>{ALBUM_TEXT.masterTitle}</CardTitle>
      <CardDescription className="mt-1">
        One genre target and one preset for the whole record; per-track corrections only where a track departs
        from the album's own balance.
      </CardDescription>
      <div className="mt-4 grid gap-3 sm:grid-cols-2">
        <SelectField
          id="album-genre"
          label="Genre"
          value={state.genre ?? ''}
          disabled={running}
          onChange={(v) => store.master.setGenre(v === '' ? null : (v as Genre))}
        >
          <option value="">Suggested from the album</option>
          {GENRES.map((g) => (
            <option key={g} value={g}>
              {GENRE_LABELS[g]}
            </option>
          ))}
        </SelectField>
        <SelectField
          id="album-preset"
          label="Preset"
          value={state.preset}
          disabled={running}
          onChange={(v) => store.master.setPreset(v as PresetId)}
        >
          {PRESET_IDS.map((p) => (
            <option key={p} value={p}>
              {PRESETS[p].name}
            </option>
          ))}
        </SelectField>
      </div>
      <p className="mt-2 text-sm text-zinc-400">
        {PRESETS[state.preset].description} The loudest song goes to {PRESETS[state.preset].targetLufs} LUFS.
      </p>
      {state.tracks.some((t) => t.mix) ? (
        <label className="mt-3 flex min-h-10 items-center gap-3 text-sm text-zinc-100">
          <input
            type="checkbox"
            className="size-4 shrink-0 accent-violet-500"
            checked={state.withVersions}
            disabled={running}
            onChange={(e) => store.master.setWithVersions(e.target.checked)}
            data-testid="album-with-versions"
          />
          {ALBUM_TEXT.withVersions}
        </label>
      ) : null}
      {ready(state) ? <AlbumLoudnessPlan /> : null}
      <div className="mt-4 flex flex-wrap items-center gap-3">
        <Button
          onClick={() => void store.master.masterAll()}
          disabled={running || !ready(state)}
          data-testid="album-master-button"
        >
          {ALBUM_TEXT.masterAlbum}
        </Button>
        {running ? (
          <Button variant="outline" onClick={() => store.master.cancel()}>
            {ALBUM_TEXT.cancel}
          </Button>
        ) : null}
      </div>
      {render ? (
        <div
          className="mt-3 grid gap-1"
          data-testid="album-progress"
          data-state={render.running ? 'running' : render.error ? 'failed' : 'done'}
        >
          <ProgressBar percent={render.percent} label="Album mastering progress" />
          <p className="text-sm text-zinc-300" aria-live="polite" data-testid="album-status">
            {render.message}
          </p>
        </div>
      ) : null}
      <AlbumResults access={access} />
    </Card>
  );
}

function AlbumResults({ access }: { access: Access }) {
  const { tracks, masters } = useAlbumState();
  const done = tracks.filter((t) => masters[t.key]);
  if (done.length === 0) return null;
  return (
    <ol className="mt-4 grid gap-2" data-testid="album-results">
      {tracks.map((t, i) => {
        const m = masters[t.key];
        if (!m) return null;
        return (
          <li key={t.key} className="rounded-lg border border-zinc-800 p-2 sm:p-3" data-testid="album-result">
            <div className="flex flex-wrap items-baseline justify-between gap-2 text-sm">
              <span className="font-medium text-zinc-100">
                {i + 1}. {t.title}
              </span>
              <span className="tabular-nums text-zinc-300">
                target <span data-testid="album-target-lufs">{m.targetLufs.toFixed(1)}</span> LUFS · measured{' '}
                <span data-testid="album-measured-lufs">
                  {m.measuredLufs === null ? '…' : m.measuredLufs.toFixed(1)}
                </span>{' '}
                LUFS
              </span>
            </div>
            <details className="mt-1 text-sm text-zinc-300">
              <summary className="cursor-pointer text-violet-300">The album's plan for this track</summary>
              <ul className="mt-1 list-disc space-y-1 pl-5" data-testid="album-why">
                {m.why.map((line) => (
                  <li key={line}>{line}</li>
                ))}
              </ul>
            </details>
            <AlbumTrackManual track={t} index={i} access={access} />
            <AlbumTrackPanels trackKey={t.key} title={t.title} />
          </li>
        );
      })}
    </ol>
  );
}
