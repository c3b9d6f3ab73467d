import { PlainSentence, ShowNumbers } from '../../../components/ui/show-numbers';
import { RangeField } from '../common/form-controls';
import { TEXT } from '../mastering-texts';
import { useMasteringState, useStore } from '../use-mastering';
import { formatVocalClarity } from './vocal-space-job';
import { vocalSpaceSentence } from './vocal-space-sentence';

/**
 * Issue 18 "Vocal space": shown only for a mixer mix whose stems are loaded. The figure is the engine's
 * measurement of the stems for the amount shown (the vocal-band ratio while the vocal sings, before/after).
 */
export function VocalSpaceControl() {
  const store = useStore();
  const { source, vocalSpace } = useMasteringState();
  if (source?.stems.status !== 'ready') return null;
  const { amount, clarity, measuring } = vocalSpace;
  const current = clarity && clarity.amount === amount ? clarity : null;
  const state = amount === 0 ? 'off' : measuring || !current ? 'measuring' : 'ready';
  return (
    <fieldset
      className="grid gap-2 border-t border-zinc-800 pt-4"
      data-testid="vocal-space"
      data-state={state}
    >
      <legend className="sr-only">{TEXT.vocalSpace}</legend>
      <RangeField
        id="vocal-space"
        label={TEXT.vocalSpace}
        value={amount}
        suffix={amount === 0 ? ` (${TEXT.vocalSpaceOff})` : undefined}
        onChange={(v) => store.vocalSpace.setAmount(v)}
      />
      <p className="text-sm text-zinc-400">{TEXT.vocalSpaceHelp}</p>
      {amount > 0 ? (
        <div className="grid gap-0.5" aria-live="polite">
          {current && !measuring ? (
            <>
              <PlainSentence className="mt-0 text-sm">
                {vocalSpaceSentence(current.clarityDb, current.before.ratioDb)}
              </PlainSentence>
              <ShowNumbers className="gap-0.5">
                <p className="text-sm font-semibold text-emerald-300" data-testid="vocal-clarity">
                  {formatVocalClarity(current.clarityDb)}
                </p>
                <p className="text-xs text-zinc-400" data-testid="vocal-clarity-ratio">
                  {TEXT.vocalSpaceRatio(current.before.ratioDb, current.after.ratioDb)}
                </p>
              </ShowNumbers>
            </>
          ) : (
            <p className="text-sm text-zinc-400">{TEXT.vocalSpaceMeasuring}</p>
          )}
          <p className="text-xs text-zinc-400">{TEXT.vocalSpaceLive}</p>
        </div>
      ) : null}
    </fieldset>
  );
}
