import { useState } from 'react';
import { Link } from 'react-router';
import type { LibraryItem, LibraryMaster } from '../../../shared/api/library';
import { Badge } from '../../components/ui/badge';
import { Button, buttonClasses } from '../../components/ui/button';
import { Input } from '../../components/ui/input';
import { formatDate } from '../../lib/format';
import { formatBytes, formatSeconds, LIBRARY_TEXT, styleLabel } from './library-texts';

export interface ItemActions {
  rename: (item: LibraryItem, name: string) => Promise<void>;
  remove: (item: LibraryItem) => Promise<void>;
  redownload: (master: LibraryMaster) => Promise<void>;
}

/** One line of what the item is: its arrangement, settings or figures, in words. */
function Details({ item }: { item: LibraryItem }) {
  switch (item.kind) {
    case 'upload':
      return (
        <>
          {item.trackType === 'mixed'
            ? 'Mixed track'
            : item.trackType === 'vocals'
              ? 'Vocals'
              : 'Instrumental'}
          {' · '}
          {formatBytes(item.sizeBytes)}
        </>
      );
    case 'mix':
      return (
        <>
          {styleLabel(item.vocalShare)} · output {item.outputVolume}% · {item.clipCount}{' '}
          {item.clipCount === 1 ? 'clip' : 'clips'} · {formatSeconds(item.seconds)}
          {item.genre ? ` · ${item.genre}` : ''}
        </>
      );
    case 'session':
      return (
        <>
          {item.style
            ? styleLabel({ 'vocals-forward': 75, balanced: 50, 'instrumental-forward': 25 }[item.style])
            : 'No style yet'}{' '}
          · output {item.outputVolume}% · {item.clipCount} {item.clipCount === 1 ? 'clip' : 'clips'}
        </>
      );
    case 'master':
      return <MasterDetails master={item} />;
  }
}

const figure = (v: unknown, unit: string) => (typeof v === 'number' ? `${v} ${unit}` : null);

function MasterDetails({ master }: { master: LibraryMaster }) {
  const f = master.figures;
  // An album download (issue 31) says so: its figures are per track, its files one ZIP.
  if (typeof f.tracks === 'number') return <AlbumDetails master={master} tracks={f.tracks} />;
  const parts = [
    `Preset ${master.preset}`,
    master.genre ? `genre ${master.genre}` : null,
    master.referenceName ? `reference ${master.referenceName}` : null,
    figure(f.lufs, 'LUFS'),
    figure(f.truePeakDbtp, 'dBTP'),
    figure(f.loudnessRangeLu, 'LU range'),
  ].filter(Boolean);
  const settings = Object.entries(master.settings)
    .map(([k, v]) => `${k} ${String(v)}`)
    .join(', ');
  return (
    <>
      {parts.join(' · ')}
      <span className="block text-xs text-zinc-400">
        Paid for: {master.versions.join(', ')} in {master.formats.join(', ')}
        {settings ? ` · settings: ${settings}` : ''}
      </span>
    </>
  );
}

function AlbumDetails({ master, tracks }: { master: LibraryMaster; tracks: number }) {
  const continuous = master.figures.continuous;
  // Stored as JSON (PostgreSQL's jsonb orders keys its own way): in the record's order again by number.
  const perTrack = Object.entries(master.figures)
    .filter(([k]) => /^\d+\. /.test(k))
    .sort(([a], [b]) => Number.parseInt(a, 10) - Number.parseInt(b, 10));
  return (
    <>
      {[`Album of ${tracks} tracks`, `preset ${master.preset}`, master.genre ? `genre ${master.genre}` : null]
        .filter(Boolean)
        .join(' · ')}
      <span className="block text-xs text-zinc-400">
        Paid for: {tracks} tracks in {master.formats.join(', ')}
        {typeof continuous === 'string' && continuous !== 'none'
          ? `, and the whole record in ${continuous} with its CUE sheet`
          : ''}
        , in one ZIP
      </span>
      {perTrack.length > 0 ? (
        <span className="block text-xs text-zinc-400">
          {perTrack.map(([k, v]) => `${k}: ${String(v)}`).join(' · ')}
        </span>
      ) : null}
    </>
  );
}

/** Where an item reopens: a mix or session in the mixer, an upload or mix on the mastering page. */
function OpenLinks({ item }: { item: LibraryItem }) {
  const link = buttonClasses('outline', 'sm');
  if (item.kind === 'session')
    return (
      <Link className={link} to={`/mixer?session=${item.id}`}>
        Open in Mixer
      </Link>
    );
  if (item.kind === 'mix')
    return (
      <>
        <Link className={link} to={`/mixer?mix=${item.id}`}>
          Open in Mixer
        </Link>
        <Link className={link} to={`/mastering?trackId=${item.id}`}>
          Master it
        </Link>
      </>
    );
  if (item.kind === 'upload')
    return (
      <Link className={link} to={`/mastering?trackId=${item.id}`}>
        Master it
      </Link>
    );
  return null;
}

export function LibraryItemRow({ item, actions }: { item: LibraryItem; actions: ItemActions }) {
  const [editing, setEditing] = useState(false);
  const [name, setName] = useState(item.name);
  const [busy, setBusy] = useState(false);
  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    try {
      await work();
    } finally {
      setBusy(false);
    }
  };
  const downloadable = item.kind === 'master' && item.files.length > 0;
  return (
    <li
      className="grid gap-3 rounded-xl border border-zinc-800 bg-zinc-900/60 p-4"
      data-testid="library-item"
      data-kind={item.kind}
    >
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0 flex-1">
          {editing ? (
            <form
              className="flex flex-wrap gap-2"
              onSubmit={(e) => {
                e.preventDefault();
                void run(async () => {
                  await actions.rename(item, name);
                  setEditing(false);
                });
              }}
            >
              <Input
                aria-label={`New name for ${item.name}`}
                value={name}
                onChange={(e) => setName(e.target.value)}
                maxLength={200}
                className="min-w-0 flex-1"
                autoFocus
              />
              <Button type="submit" size="sm" disabled={busy || !name.trim()}>
                Save
              </Button>
              <Button size="sm" variant="ghost" onClick={() => setEditing(false)}>
                Cancel
              </Button>
            </form>
          ) : (
            <h2 className="truncate font-semibold text-zinc-50">{item.name}</h2>
          )}
          <p className="mt-1 text-sm text-zinc-300">
            <Details item={item} />
          </p>
        </div>
        <div className="flex flex-col items-end gap-1 text-right">
          <Badge>{LIBRARY_TEXT.kind[item.kind]}</Badge>
          <span className="text-xs text-zinc-400">{formatDate(item.createdAt)}</span>
        </div>
      </div>
      {item.kind === 'master' ? (
        <p className="text-xs text-zinc-300">
          {downloadable ? LIBRARY_TEXT.redownloadNote(formatDate(item.keptUntil)) : LIBRARY_TEXT.expiredNote}
        </p>
      ) : null}
      <div className="flex flex-wrap gap-2">
        <OpenLinks item={item} />
        {downloadable ? (
          <Button size="sm" disabled={busy} onClick={() => void run(() => actions.redownload(item))}>
            Download again
          </Button>
        ) : null}
        <Button size="sm" variant="ghost" disabled={busy} onClick={() => setEditing(true)}>
          Rename
        </Button>
        <Button
          size="sm"
          variant="ghost"
          disabled={busy}
          onClick={() => void run(() => actions.remove(item))}
        >
          Delete
        </Button>
      </div>
    </li>
  );
}
