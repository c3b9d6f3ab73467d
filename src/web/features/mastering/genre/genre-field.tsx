import { GENRE_LABELS, GENRES } from '../../../../shared/genres';
import { PlainSentence, ShowNumbers } from '../../../components/ui/show-numbers';
import { SelectField } from '../common/form-controls';
import { useMasteringState, useStore } from '../use-mastering';
import { GENRE_TEXT, genreShown } from './genre-choice';
import { genreSentence } from './genre-sentence';

/** The value of the field's first entry: the default (the mix's genre or the suggestion). */
const DEFAULT_VALUE = 'default';

/**
 * Issue 28: the genre whose tonal target and dynamics profile the master aims at. The first entry is the
 * default — the genre the mix was made for in the mixer, else the one the analysis suggests — and says so.
 */
export function GenreField() {
  const store = useStore();
  const state = useMasteringState();
  if (!state.source) return null;
  const shown = genreShown(state);
  const used = store.current()?.report.adaptive?.genre?.genre;
  const defaultLabel =
    shown.source === 'mix' && state.source.arrangement?.genre
      ? `${GENRE_LABELS[state.source.arrangement.genre]} (from the mix)`
      : shown.suggestion
        ? `${GENRE_LABELS[shown.suggestion.genre]} (suggested)`
        : 'Suggested from the analysis';
  const mixGenre = state.source.arrangement?.genre ?? null;
  const sentence = genreSentence(shown, mixGenre);
  const reason = (
    <p className="text-xs text-zinc-400" data-testid="genre-reason">
      {shown.source === 'mix' && mixGenre
        ? GENRE_TEXT.fromMix(mixGenre)
        : shown.suggestion
          ? GENRE_TEXT.soundsLike(shown.suggestion)
          : GENRE_TEXT.waiting}
    </p>
  );
  return (
    <div
      className="grid gap-1"
      data-testid="genre-panel"
      data-genre={shown.genre ?? ''}
      data-source={shown.source}
    >
      <SelectField
        id="mastering-genre"
        label={GENRE_TEXT.label}
        value={state.genre ?? DEFAULT_VALUE}
        onChange={(v) => store.genre.setGenre(v)}
      >
        <option value={DEFAULT_VALUE}>{defaultLabel}</option>
        {GENRES.map((g) => (
          <option key={g} value={g}>
            {GENRE_LABELS[g]}
          </option>
        ))}
      </SelectField>
      {sentence ? <PlainSentence className="mt-0 text-sm">{sentence}</PlainSentence> : null}
      {/* The analysis's figures behind the reason, one click away (decision 253). */}
      {sentence ? <ShowNumbers>{reason}</ShowNumbers> : reason}
      {used && shown.genre && used !== shown.genre ? (
        <p className="text-xs text-amber-300" data-testid="genre-remaster">
          {GENRE_TEXT.remaster(used)}
        </p>
      ) : null}
    </div>
  );
}
