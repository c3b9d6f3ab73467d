import { useState } from 'react';
import { MIX_VERSION_LABELS, MIX_VERSIONS, type MixVersion } from '../../../../shared/mix-versions';
import { Button } from '../../../components/ui/button';
import { Card, CardDescription, CardTitle } from '../../../components/ui/card';
import { Dialog, DialogClose, DialogContent } from '../../../components/ui/dialog';
import { ProgressBar } from '../../../components/ui/progress-bar';
import { ChoiceBox, withChoice } from '../download/choice-box';
import { MORE_OPTIONS, SPEC_OPTIONS } from '../download/format-options';
import type { ExportFormat } from '../engine/engine-api';
import type { Access } from '../use-mastering';
import { albumCostText } from './album-rules';
import { allMastered } from './album-state';
import { ALBUM_TEXT } from './album-texts';
import { useAlbumState, useAlbumStore } from './use-album';

const OPTIONS = [...SPEC_OPTIONS, ...MORE_OPTIONS];
/** The versions besides the Main (the Main is the record's own track). */
const EXTRA_VERSIONS = MIX_VERSIONS.filter((v) => v !== 'main');

/** Formats for every track, the continuous file with its CUE sheet, the cost, then one confirmed charge. */
export function AlbumDownloadCard({ access }: { access: Access }) {
  const store = useAlbumStore();
  const state = useAlbumState();
  const [formats, setFormats] = useState<ExportFormat[]>(['wav']);
  const [continuous, setContinuous] = useState(false);
  const [continuousFormat, setContinuousFormat] = useState<'wav' | 'flac16'>('flac16');
  const [confirming, setConfirming] = useState(false);
  const [versions, setVersions] = useState<MixVersion[]>([]);
  if (state.tracks.length < 2) return null;
  const count = state.tracks.length;
  const cost = access.devMode ? `${count} developer credits` : albumCostText(count, access.credits);
  const ordered = OPTIONS.map((o) => o.format).filter((f) => formats.includes(f));
  const busy = state.download?.running === true;
  // Issue 18 inside the album: the mixes mastered from their stems offer their versions, at no extra cost.
  const mixes = state.tracks.filter((t) => state.masters[t.key]?.versions).length;
  const withVersions = mixes > 0 && versions.length > 0;
  const start = () => {
    setConfirming(false);
    void store.download.download({
      formats: ordered,
      continuous: continuous ? continuousFormat : null,
      versions: withVersions ? EXTRA_VERSIONS.filter((v) => versions.includes(v)) : [],
    });
  };
  return (
    <Card className="p-4 lg:p-6" data-testid="album-download">
      <CardTitle>{ALBUM_TEXT.downloadTitle}</CardTitle>
      <CardDescription className="mt-1" data-testid="album-cost">
        {ALBUM_TEXT.cost(cost)}
      </CardDescription>
      <fieldset className="mt-4 grid gap-2 sm:grid-cols-2" disabled={busy}>
        <legend className="mb-2 text-sm font-medium text-zinc-200">Every track in</legend>
        {OPTIONS.map((o) => (
          <ChoiceBox
            key={o.format}
            dense
            label={o.label}
            caption={o.caption}
            checked={formats.includes(o.format)}
            onChange={(on) => setFormats((f) => withChoice(f, o.format, on))}
          />
        ))}
      </fieldset>
      {mixes > 0 ? (
        <fieldset className="mt-4 grid gap-2 sm:grid-cols-2" disabled={busy} data-testid="album-versions">
          <legend className="mb-2 text-sm font-medium text-zinc-200">
            {ALBUM_TEXT.versionsLegend(mixes)}
          </legend>
          {EXTRA_VERSIONS.map((v) => (
            <ChoiceBox
              key={v}
              dense
              label={MIX_VERSION_LABELS[v]}
              checked={versions.includes(v)}
              onChange={(on) => setVersions((x) => withChoice(x, v, on))}
            />
          ))}
        </fieldset>
      ) : null}
      <div className="mt-4 grid gap-2">
        <label className="flex min-h-10 items-center gap-3 text-sm text-zinc-100">
          <input
            type="checkbox"
            className="size-4 accent-violet-500"
            checked={continuous}
            disabled={busy}
            onChange={(e) => setContinuous(e.target.checked)}
          />
          {ALBUM_TEXT.continuous}
        </label>
        {continuous ? (
          <label className="grid max-w-xs gap-1 text-sm text-zinc-200">
            {ALBUM_TEXT.continuousFormat}
            <select
              value={continuousFormat}
              disabled={busy}
              onChange={(e) => setContinuousFormat(e.target.value as 'wav' | 'flac16')}
              className="h-10 rounded-md border border-zinc-700 bg-zinc-900 px-3 text-sm text-zinc-50"
            >
              <option value="flac16">FLAC 16-bit</option>
              <option value="wav">WAV 16-bit</option>
            </select>
          </label>
        ) : null}
      </div>
      <div className="mt-4 flex flex-wrap items-center gap-3">
        <Button
          disabled={busy || ordered.length === 0 || !allMastered(state)}
          onClick={() => setConfirming(true)}
          data-testid="album-download-button"
        >
          {ALBUM_TEXT.download}
        </Button>
        {busy ? (
          <Button variant="outline" onClick={() => store.download.cancel()}>
            {ALBUM_TEXT.cancel}
          </Button>
        ) : null}
        {!allMastered(state) ? <span className="text-sm text-zinc-400">Master the album first.</span> : null}
      </div>
      {access.devMode ? null : <p className="mt-2 text-xs text-zinc-400">{ALBUM_TEXT.kept}</p>}
      {state.download ? (
        <div className="mt-3 grid gap-1" data-testid="album-download-progress">
          <ProgressBar percent={state.download.percent} label="Album download progress" />
          <p className="text-sm text-zinc-300">
            {state.download.phase === 'encoding'
              ? 'Making the files...'
              : state.download.phase === 'zipping'
                ? 'Packing the ZIP...'
                : 'Charging the album...'}
          </p>
        </div>
      ) : null}
      <Dialog open={confirming} onOpenChange={setConfirming}>
        <DialogContent
          title={ALBUM_TEXT.confirmTitle}
          description={`${count} tracks in ${ordered.length} format(s)${withVersions ? `, the mixes' versions too` : ''}${continuous ? ', plus the continuous record with its CUE sheet' : ''}, in one ZIP. ${ALBUM_TEXT.cost(cost)}`}
        >
          <div className="mt-4 flex justify-end gap-2">
            <DialogClose asChild>
              <Button variant="outline">{ALBUM_TEXT.cancel}</Button>
            </DialogClose>
            <Button onClick={start} data-testid="album-confirm">
              {ALBUM_TEXT.confirm(cost)}
            </Button>
          </div>
        </DialogContent>
      </Dialog>
    </Card>
  );
}
