import { useMemo } from 'react';
import type { AlbumPlan } from './album-engine';
import { useAlbumState, useAlbumStore } from './use-album';

/**
 * The album's loudness before mastering (issue 31: the loudest song at the preset's target, the others at
 * their intended distance below it): the plan's estimate per track, which the user may replace.
 */
export function AlbumLoudnessPlan() {
  const store = useAlbumStore();
  const { tracks, preset, genre } = useAlbumState();
  // biome-ignore lint/correctness/useExhaustiveDependencies: the plan changes with the tracks, preset and genre.
  const plan = useMemo((): AlbumPlan | null => {
    try {
      return store.master.plan();
    } catch {
      return null;
    }
  }, [store, tracks, preset, genre]);
  if (!plan) return null;
  return (
    <div className="mt-4 overflow-x-auto" data-testid="album-loudness-plan">
      <table className="w-full text-left text-sm">
        <caption className="mb-2 text-left text-sm text-zinc-300">
          Loudness plan: the loudest song at {plan.targetLufs.toFixed(1)} LUFS, the others their distance
          below it (at most {plan.spreadLimitLu} LU). Leave a distance empty for the plan's estimate.
        </caption>
        <thead className="text-xs text-zinc-400">
          <tr>
            <th scope="col" className="py-1 pr-2 font-medium">
              Track
            </th>
            <th scope="col" className="px-2 py-1 font-medium">
              LU under the loudest
            </th>
            <th scope="col" className="py-1 pl-2 text-right font-medium">
              Target (LUFS)
            </th>
          </tr>
        </thead>
        <tbody>
          {tracks.map((t, i) => {
            const planned = plan.tracks[i];
            return (
              <tr key={t.key} className="border-t border-zinc-800">
                <th scope="row" className="max-w-40 truncate py-1 pr-2 font-medium text-zinc-100">
                  {i + 1}. {t.title}
                </th>
                <td className="px-2 py-1">
                  <input
                    type="number"
                    min={0}
                    max={plan.spreadLimitLu}
                    step={0.5}
                    value={t.distanceLu ?? ''}
                    placeholder={planned ? planned.distanceLu.toFixed(1) : ''}
                    aria-label={`LU under the loudest, track ${i + 1}`}
                    onChange={(e) => store.tracks.setDistance(t.key, e.target.value)}
                    className="h-9 w-24 rounded-md border border-zinc-700 bg-zinc-900 px-2 text-sm text-zinc-50 focus-visible:outline-2 focus-visible:outline-violet-400"
                  />
                </td>
                <td
                  className="py-1 pl-2 text-right tabular-nums text-zinc-200"
                  data-testid="album-planned-lufs"
                >
                  {planned ? planned.targetLufs.toFixed(1) : '…'}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
