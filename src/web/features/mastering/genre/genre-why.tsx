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

type Band = GenrePlan['bands'][number];

/** The track's cell: amber where it sits outside the range, its place in the title for screen readers. */
function TrackCell({ band }: { band: Band }) {
  const where = place(band.trackDb, band.rangeDb);
  const colour =
    where === 'inside' ? 'text-zinc-300' : where === 'empty' ? 'text-zinc-400' : 'text-amber-300';
  return (
    <td title={where} className={colour}>
      {Number.isFinite(band.trackDb) ? signedDb(band.trackDb) : '–'}
    </td>
  );
}

const RangeCell = ({ band }: { band: Band }) => <td className="text-zinc-400">±{band.rangeDb.toFixed(1)}</td>;

/** The EQ's move: green up, amber down, grey where it left the band alone. */
function MoveCell({ band }: { band: Band }) {
  const colour =
    band.moveDb > 0.05 ? 'text-emerald-300' : band.moveDb < -0.05 ? 'text-amber-300' : 'text-zinc-400';
  return <td className={colour}>{signedDb(band.moveDb)}</td>;
}

const HEAD = 'py-1 text-left font-normal text-zinc-400';

/** From 640 px: one column per octave, a row each for the track, the range and the move. */
function BandsWide({ plan }: { plan: GenrePlan }) {
  return (
    <div className="hidden overflow-x-auto sm:block">
      <table className="w-full text-center text-xs tabular-nums" data-testid="why-genre-table">
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
            <th className={HEAD}>Track</th>
            {plan.bands.map((b) => (
              <TrackCell key={b.hz} band={b} />
            ))}
          </tr>
          <tr data-testid="why-genre-range">
            <th className={HEAD}>Range</th>
            {plan.bands.map((b) => (
              <RangeCell key={b.hz} band={b} />
            ))}
          </tr>
          <tr data-testid="why-genre-move">
            <th className={HEAD}>Move</th>
            {plan.bands.map((b) => (
              <MoveCell key={b.hz} band={b} />
            ))}
          </tr>
        </tbody>
      </table>
    </div>
  );
}

/**
 * On a phone the nine octaves do not fit side by side (at 375 px the numbers ran into each other): one row
 * per octave instead, with the track, the range and the move as its columns.
 */
function BandsNarrow({ plan }: { plan: GenrePlan }) {
  return (
    <table className="w-full text-right text-xs tabular-nums sm:hidden" data-testid="why-genre-bands">
      <thead>
        <tr className="text-zinc-400">
          <th className="py-0.5 text-left font-normal">Hz</th>
          <th className="py-0.5 font-normal">Track</th>
          <th className="py-0.5 font-normal">Range</th>
          <th className="py-0.5 font-normal">Move</th>
        </tr>
      </thead>
      <tbody>
        {plan.bands.map((b) => (
          <tr key={b.hz} data-testid="why-genre-band">
            <th className="py-0.5 text-left font-normal text-zinc-400">{hz(b.hz)}</th>
            <TrackCell band={b} />
            <RangeCell band={b} />
            <MoveCell band={b} />
          </tr>
        ))}
      </tbody>
    </table>
  );
}

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
        <BandsWide plan={plan} />
        <BandsNarrow plan={plan} />
        <p className="text-xs text-zinc-400">
          Track: its level against the {label} target at each octave (dB, overall level removed); Range: how
          far a finished {label} mix may sit from the target; Move: the corrective EQ's gain there.
        </p>
      </div>
    </section>
  );
}
