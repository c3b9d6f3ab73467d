import { GENRE_LABELS } from '../../../../shared/genres';
import { hz, signedDb } from '../common/audio-numbers';
import type { GenrePlan } from '../engine/engine-api';

const SOURCE_WORDS: Record<'chosen' | 'suggested', string> = {
  chosen: 'chosen for this track',
  suggested: 'suggested by the analysis',
};

/** A band's place against the genre's range, in words for the table's title attribute and screen readers. */
const place = (track: number, range: number): 'inside' | 'above' | 'below' | 'empty' =>
  !Number.isFinite(track) ? 'empty' : track > range ? 'above' : track < -range ? 'below' : 'inside';

/**
 * Issue 28, in "Why it sounds like this": the genre target the EQ aimed at, why (how far and how
 * consistently the track left the range), and per octave the track against the target, the range and the
 * move made.
 */
export function GenreWhy({ plan }: { plan: GenrePlan }) {
  const { departure, suggestion } = plan;
  const label = GENRE_LABELS[plan.genre];
  const share = Math.round(plan.share * 100);
  return (
    <section className="grid gap-1" data-testid="why-genre" data-genre={plan.genre}>
      <h3 className="text-sm font-semibold text-zinc-100">Genre target</h3>
      <div className="grid gap-1 text-sm text-zinc-300">
        <p data-testid="why-genre-target">
          Target: {label} ({plan.chosen ? SOURCE_WORDS.chosen : SOURCE_WORDS.suggested}). The analysis says it
          sounds like {GENRE_LABELS[suggestion.genre]}: {suggestion.because}.
        </p>
        <p data-testid="why-genre-decision">
          {departure.confidence <= 0
            ? `The track sits inside the ${label} range (${departure.outsideDb.toFixed(1)} dB outside it on average), so its tone was left as it is: the EQ only evens out the chain's fixed filters.`
            : `The track leaves the ${label} range by ${departure.outsideDb.toFixed(1)} dB on average, ${Math.round(departure.consistency * 100)} % of it in broad, one-sided regions, so the EQ moved it ${share} % of the way to the target.`}
        </p>
        <div className="overflow-x-auto">
          <table
            className="w-full text-center text-[11px] tabular-nums sm:text-xs"
            data-testid="why-genre-table"
          >
            <thead>
              <tr className="text-zinc-400">
                <th className="py-1 text-left font-normal">Hz</th>
                {plan.bands.map((b) => (
                  <th key={b.hz} className="py-1 font-normal">
                    {hz(b.hz)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              <tr data-testid="why-genre-track">
                <th className="py-1 text-left font-normal text-zinc-400">Track</th>
                {plan.bands.map((b) => {
                  const where = place(b.trackDb, b.rangeDb);
                  return (
                    <td
                      key={b.hz}
                      title={where}
                      className={
                        where === 'inside'
                          ? 'text-zinc-300'
                          : where === 'empty'
                            ? 'text-zinc-400'
                            : 'text-amber-300'
                      }
                    >
                      {Number.isFinite(b.trackDb) ? signedDb(b.trackDb) : '–'}
                    </td>
                  );
                })}
              </tr>
              <tr data-testid="why-genre-range">
                <th className="py-1 text-left font-normal text-zinc-400">Range</th>
                {plan.bands.map((b) => (
                  <td key={b.hz} className="text-zinc-400">
                    ±{b.rangeDb.toFixed(1)}
                  </td>
                ))}
              </tr>
              <tr data-testid="why-genre-move">
                <th className="py-1 text-left font-normal text-zinc-400">Move</th>
                {plan.bands.map((b) => (
                  <td
                    key={b.hz}
                    className={
                      b.moveDb > 0.05
                        ? 'text-emerald-300'
                        : b.moveDb < -0.05
                          ? 'text-amber-300'
                          : 'text-zinc-400'
                    }
                  >
                    {signedDb(b.moveDb)}
                  </td>
                ))}
              </tr>
            </tbody>
          </table>
        </div>
        <p className="text-xs text-zinc-400">
          Track: its level against the {label} target at each octave (dB, overall level removed); Range: how
          far a finished {label} mix may sit from the target; Move: the corrective EQ's gain there.
        </p>
      </div>
    </section>
  );
}
