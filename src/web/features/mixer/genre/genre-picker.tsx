import { CLOSE_CALL_DB } from '../../../../audio';
import { GENRE_LABELS, GENRES, type Genre } from '../../../../shared/genres';
import { cn } from '../../../lib/cn';
import { effectiveGenre, type FlowState } from '../flow-state';
import type { MixerController } from '../mixer-controller';

const chip = (active: boolean) =>
  cn(
    'rounded-full border px-3 py-1.5 text-sm transition-colors focus-visible:outline-2 focus-visible:outline-violet-400',
    active
      ? 'border-violet-400 bg-violet-950/60 text-zinc-50'
      : 'border-zinc-700 text-zinc-300 hover:border-zinc-500',
  );

/**
 * Issue 26: the genre the mix aims at, chosen at the mix-style step. "Suggested" follows what the beat's
 * analysis heard (with its reasons under it); any other chip is the user's own pick (decision 186).
 */
export function GenrePicker({ controller, flow }: { controller: MixerController; flow: FlowState }) {
  const { beat } = flow;
  const suggestion = beat.result;
  const following = flow.genre === null;
  const aimed: Genre | null = effectiveGenre(flow);
  return (
    <fieldset className="mt-6" data-testid="genre-picker" data-genre={aimed ?? ''}>
      <legend className="text-sm font-semibold text-zinc-100">Genre</legend>
      <p className="mt-1 text-sm text-zinc-400">
        It sets how the vocal is cleaned, compressed, de-essed and placed, and becomes the mastering default.
      </p>
      <div className="mt-3 flex flex-wrap gap-2">
        <button
          type="button"
          aria-pressed={following}
          disabled={!suggestion}
          onClick={() => controller.selectGenre(null)}
          className={cn(chip(following && !!suggestion), !suggestion && 'opacity-60')}
          data-testid="genre-suggested"
        >
          {suggestion
            ? `Suggested: ${GENRE_LABELS[suggestion.genre]}`
            : beat.status === 'listening'
              ? `Suggested: listening to the beat… ${Math.round(beat.fraction * 100)}%`
              : beat.status === 'failed'
                ? 'Suggested: the beat could not be analysed'
                : 'Suggested: after the beat loads'}
        </button>
        {GENRES.map((g) => (
          <button
            key={g}
            type="button"
            aria-pressed={flow.genre === g}
            onClick={() => controller.selectGenre(g)}
            className={chip(flow.genre === g)}
          >
            {GENRE_LABELS[g]}
          </button>
        ))}
      </div>
      {suggestion ? (
        <div className="mt-3 text-sm text-zinc-300" data-testid="genre-why">
          <span className="text-zinc-400">Why {GENRE_LABELS[suggestion.genre]}: </span>
          {suggestion.reasons.map((r) => r.text).join(' · ')}
          {suggestion.marginDb < CLOSE_CALL_DB ? (
            <span className="text-zinc-400">
              {' '}
              (a close call: {GENRE_LABELS[runnerUp(suggestion.scores, suggestion.genre)]} fits almost as
              well)
            </span>
          ) : null}
        </div>
      ) : null}
    </fieldset>
  );
}

const runnerUp = (scores: Record<Genre, number>, best: Genre): Genre =>
  GENRES.filter((g) => g !== best).reduce((a, b) => (scores[b] > scores[a] ? b : a));
