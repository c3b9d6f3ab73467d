import { MIX_STYLES } from '../../../audio/model/mix-styles';
import type { LibraryItem } from '../../../shared/api/library';

/** The library page's words (issue 30). */
export const LIBRARY_TEXT = {
  title: 'Library',
  intro:
    'Your uploads, mixes and masters, newest first. Rename, delete, reopen a mix in the mixer, or download a paid master again.',
  search: 'Search your library',
  // The empty state's sentence around its two links: [before, Mixer, between, Mastering, after].
  empty: [
    'Nothing here yet: upload tracks in the ',
    'Mixer',
    ', or master a track on the ',
    'Mastering',
    ' page.',
  ],
  noMatch: (q: string) => `Nothing in your library matches "${q}".`,
  kind: { upload: 'Upload', mix: 'Mix', session: 'Saved session', master: 'Master' } satisfies Record<
    LibraryItem['kind'],
    string
  >,
  confirmDelete: (name: string) => `Delete "${name}"? Its stored files go too; this cannot be undone.`,
  deleted: (name: string) => `"${name}" was deleted`,
  renamed: 'Renamed',
  redownloadNote: (until: string) => `Download again without a charge until ${until}`,
  expiredNote: 'The files were kept for 30 days and are gone; the settings and figures stay.',
} as const;

export const styleLabel = (vocalShare: number): string =>
  Object.values(MIX_STYLES).find((s) => s.vocalShare === vocalShare)?.name ?? `${vocalShare}% vocals`;

export const formatBytes = (n: number): string => {
  if (n >= 1024 ** 3) return `${+(n / 1024 ** 3).toFixed(1)} GB`;
  if (n >= 1024 ** 2) return `${(n / 1024 ** 2).toFixed(1)} MB`;
  // Nothing stored reads 0 KB (an empty library said '1 KB of 2 GB used'); a few bytes still read 1 KB.
  if (n <= 0) return '0 KB';
  return `${Math.max(1, Math.round(n / 1024))} KB`;
};

export const formatSeconds = (s: number): string =>
  `${Math.floor(s / 60)}:${String(Math.round(s % 60)).padStart(2, '0')}`;
