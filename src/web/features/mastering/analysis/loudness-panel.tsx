import { Link } from 'react-router';
import { Card, CardDescription, CardTitle } from '../../../components/ui/card';
import { PlainSentence, ShowNumbers } from '../../../components/ui/show-numbers';
import { conformanceLine } from '../../../lib/meter-conformance';
import { loudnessSentence } from '../common/plain-sentences';
import type { Analysis } from '../mastering-state';
import { useMasteringState, useStore } from '../use-mastering';
import { SpectrumPicture } from './spectrum-picture';

const fmt = (v: number | undefined, digits = 1): string =>
  v === undefined ? '…' : Number.isFinite(v) ? v.toFixed(digits) : '-∞';

interface Row {
  label: string;
  unit: string;
  testId: string;
  read: (a: Analysis) => number;
}

const ROWS: Row[] = [
  { label: 'Integrated loudness', unit: 'LUFS', testId: 'lufs', read: (a) => a.loudness.integratedLufs },
  { label: 'True peak', unit: 'dBTP', testId: 'true-peak', read: (a) => a.loudness.truePeakDbtp },
  { label: 'Loudness range', unit: 'LU', testId: 'lra', read: (a) => a.loudness.loudnessRangeLu },
  { label: 'Max short-term', unit: 'LUFS', testId: 'short-term', read: (a) => a.loudness.maxShortTermLufs },
];

/** BS.1770-4 numbers and the seven bands of spec 9, original and master side by side (engine meter). */
export function LoudnessPanel() {
  const store = useStore();
  const state = useMasteringState();
  const original = state.source?.analysis ?? undefined;
  const result = store.current();
  const master = result?.analysis ?? undefined;
  const none = result ? '…' : '—';
  if (!state.source) return null;
  const bandNames = (original ?? master)?.bands.map((b) => b.name) ?? [];
  const cell = (a: Analysis | undefined, read: (a: Analysis) => number, digits = 1) =>
    a ? fmt(read(a), digits) : '…';
  return (
    <Card className="grid gap-3" data-testid="loudness-panel">
      <div>
        <CardTitle>Loudness and spectrum</CardTitle>
        {original ? (
          <PlainSentence>{loudnessSentence(original.loudness, master?.loudness ?? null)}</PlainSentence>
        ) : (
          <p className="mt-1 text-sm text-zinc-400">Measuring…</p>
        )}
      </div>
      {original ? <SpectrumPicture original={original.bands} master={master?.bands ?? null} /> : null}
      {/* The numbers one click away on every screen (decision 253). */}
      <ShowNumbers>
        <div>
          <CardDescription>
            Measured with the engine's ITU-R BS.1770-4 / EBU R128 meter
            {result ? ` · target ${result.targetLufs.toFixed(1)} LUFS, ceiling -1 dBTP` : ''}
          </CardDescription>
          <Link
            to="/meter-conformance"
            className="text-xs text-violet-300 underline-offset-2 hover:underline"
            data-testid="conformance-link"
          >
            {conformanceLine()}
          </Link>
        </div>
        <table className="w-full text-sm tabular-nums">
          <thead>
            <tr className="text-left text-zinc-400">
              <th className="py-1 font-medium">Measure</th>
              <th className="py-1 text-right font-medium">Original</th>
              <th className="py-1 text-right font-medium">Master</th>
            </tr>
          </thead>
          <tbody className="text-zinc-200">
            {ROWS.map((r) => (
              <tr key={r.testId} className="border-t border-zinc-800">
                <th scope="row" className="py-1 text-left font-normal">
                  {r.label} ({r.unit})
                </th>
                <td className="py-1 text-right" data-testid={`original-${r.testId}`}>
                  {cell(original, r.read)}
                </td>
                <td className="py-1 text-right" data-testid={`master-${r.testId}`}>
                  {master ? cell(master, r.read) : none}
                </td>
              </tr>
            ))}
            {bandNames.map((name, i) => (
              <tr key={name} className="border-t border-zinc-800">
                <th scope="row" className="py-1 text-left font-normal">
                  {name} (dB)
                </th>
                <td className="py-1 text-right">{original ? fmt(original.bands[i]?.levelDb) : '…'}</td>
                <td className="py-1 text-right">{master ? fmt(master.bands[i]?.levelDb) : none}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </ShowNumbers>
    </Card>
  );
}
