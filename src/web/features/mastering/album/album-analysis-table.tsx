import { useMemo } from 'react';
import { Card, CardDescription, CardTitle } from '../../../components/ui/card';
import { cn } from '../../../lib/cn';
import { type AlbumFigure, type AlbumOverview, albumOverview } from './album-engine';
import { FIGURE_VALUE, outlierWords } from './album-outliers';
import type { AlbumTrack } from './album-state';
import { ALBUM_TEXT } from './album-texts';
import { useAlbumState } from './use-album';

const signed = (v: number, digits: number) => (v >= 0 ? `+${v.toFixed(digits)}` : v.toFixed(digits));

const COLUMNS: { figure: AlbumFigure; label: string; format: (v: number) => string }[] = [
  { figure: 'loudness', label: 'Loudness (LUFS)', format: (v) => (Number.isFinite(v) ? v.toFixed(1) : '-∞') },
  { figure: 'lra', label: 'LRA (LU)', format: (v) => v.toFixed(1) },
  { figure: 'tilt', label: 'Tilt (dB)', format: (v) => signed(v, 1) },
  { figure: 'lowEnd', label: 'Low end (dB)', format: (v) => signed(v, 1) },
];

/** The engine's overview of the analysed tracks (two at least: "the rest" needs one other). */
const overviewOf = (tracks: readonly AlbumTrack[]): AlbumOverview | null => {
  const analysed = tracks.flatMap((t) => (t.analysis ? [{ id: t.key, analysis: t.analysis }] : []));
  return analysed.length >= 2 ? albumOverview(analysed) : null;
};

/**
 * Every track's figures side by side, the ones that depart from the rest marked in colour and said in
 * words (the words are what a screen reader and a colour-blind eye get).
 */
export function AlbumAnalysisTable() {
  const { tracks } = useAlbumState();
  const overview = useMemo(() => overviewOf(tracks), [tracks]);
  if (tracks.length === 0) return null;
  return (
    <Card className="p-4 lg:p-6" data-testid="album-analysis">
      <CardTitle>{ALBUM_TEXT.analysisTitle}</CardTitle>
      <CardDescription className="mt-1">{ALBUM_TEXT.analysisCaption}</CardDescription>
      <div className="mt-4 overflow-x-auto">
        <table className="w-full min-w-[36rem] text-left text-sm">
          <thead className="text-xs text-zinc-400">
            <tr>
              <th scope="col" className="py-2 pr-2 font-medium">
                Track
              </th>
              {COLUMNS.map((c) => (
                <th key={c.figure} scope="col" className="px-2 py-2 text-right font-medium">
                  {c.label}
                </th>
              ))}
              <th scope="col" className="py-2 pl-2 font-medium">
                Departs from the rest
              </th>
            </tr>
          </thead>
          <tbody>
            {tracks.map((t, i) => {
              const figures = overview?.tracks.find((f) => f.id === t.key) ?? null;
              const words = figures && overview ? outlierWords(figures, overview) : [];
              return (
                <tr key={t.key} className="border-t border-zinc-800" data-testid="album-analysis-row">
                  <th scope="row" className="max-w-40 truncate py-2 pr-2 font-medium text-zinc-100">
                    {i + 1}. {t.title}
                  </th>
                  {COLUMNS.map((c) => {
                    const odd = figures?.outliers.includes(c.figure) ?? false;
                    return (
                      <td
                        key={c.figure}
                        data-testid={`album-${c.figure}`}
                        data-outlier={odd ? 'true' : undefined}
                        className={cn(
                          'px-2 py-2 text-right tabular-nums',
                          odd ? 'font-semibold text-amber-300' : 'text-zinc-200',
                        )}
                      >
                        {figures ? c.format(FIGURE_VALUE[c.figure](figures)) : '…'}
                      </td>
                    );
                  })}
                  <td className="py-2 pl-2 text-zinc-200" data-testid="album-outliers">
                    {figures ? words.map((w) => w.words).join('; ') || '—' : ''}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      {/* On a narrow screen the table scrolls sideways; the outliers are said again below it, in full. */}
      <ul className="mt-3 grid gap-1 text-sm text-zinc-200 sm:hidden" data-testid="album-outliers-list">
        {tracks.map((t, i) => {
          const figures = overview?.tracks.find((f) => f.id === t.key);
          const words = figures && overview ? outlierWords(figures, overview) : [];
          return words.length > 0 ? (
            <li key={t.key}>
              <span className="font-medium text-amber-300">
                {i + 1}. {t.title}:
              </span>{' '}
              {words.map((w) => w.words).join('; ')}
            </li>
          ) : null;
        })}
      </ul>
    </Card>
  );
}
