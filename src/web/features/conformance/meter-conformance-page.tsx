import { Card } from '../../components/ui/card';
import { CONFORMANCE_CASES, conformanceLine } from '../../lib/meter-conformance';
import { usePageTitle } from '../../lib/use-page-title';

const signed = (v: number) => (v > 0 ? `+${v.toFixed(1)}` : v.toFixed(1));

/** Each EBU Tech 3341/3342 case our meter was run on: the signal, the expected value and our reading. */
export function MeterConformancePage() {
  usePageTitle('Meter conformance');
  return (
    <div className="mx-auto grid max-w-5xl gap-6 px-4 py-14" data-state="ready">
      <header>
        <h1 className="text-3xl font-bold text-zinc-50">Meter conformance</h1>
        <p className="mt-3 text-zinc-300">
          {conformanceLine()}. Each case's signal is generated as EBU Tech 3341 and Tech 3342 (v4) describe it
          and measured by the same meter the mastering screen uses; cases built on recorded programme material
          are not listed.
        </p>
      </header>
      {/* Scrolls sideways on a phone: focusable so a keyboard can scroll it (axe scrollable-region-focusable). */}
      <Card
        className="overflow-x-auto p-0 focus-visible:outline-2 focus-visible:outline-violet-400"
        role="region"
        aria-label="Conformance cases"
        tabIndex={0}
      >
        <table
          className="w-full min-w-[48rem] text-left text-sm tabular-nums"
          data-testid="conformance-table"
        >
          <thead className="text-zinc-400">
            <tr>
              <th className="px-4 py-2 font-medium">Case</th>
              <th className="px-4 py-2 font-medium">Signal</th>
              <th className="px-4 py-2 font-medium">Measures</th>
              <th className="px-4 py-2 text-right font-medium">Expected</th>
              <th className="px-4 py-2 text-right font-medium">Ours</th>
              <th className="px-4 py-2 font-medium">Result</th>
            </tr>
          </thead>
          <tbody>
            {CONFORMANCE_CASES.map((c) => (
              <tr key={c.id} className="border-t border-zinc-800" data-case={c.id}>
                <td className="px-4 py-2 whitespace-nowrap">
                  {c.standard} #{c.number}
                </td>
                <td className="min-w-64 px-4 py-2 text-zinc-300">{c.signal}</td>
                <td className="px-4 py-2">{c.quantity}</td>
                <td className="px-4 py-2 text-right whitespace-nowrap">
                  {c.unit === 'dBTP' ? signed(c.expected) : c.expected.toFixed(1)} {c.unit}{' '}
                  <span className="text-zinc-400">
                    {c.above === c.below ? `±${c.above}` : `+${c.above}/−${c.below}`}
                  </span>
                </td>
                <td className="px-4 py-2 text-right whitespace-nowrap">
                  {c.measured.toFixed(2)} {c.unit}
                </td>
                <td className={c.pass ? 'px-4 py-2 text-emerald-300' : 'px-4 py-2 text-red-300'}>
                  {c.pass ? 'Pass' : 'Fail'}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </Card>
    </div>
  );
}
