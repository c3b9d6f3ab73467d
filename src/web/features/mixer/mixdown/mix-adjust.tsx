import { VOCAL_CHAIN_STAGES, type VocalChainStage } from '../../../../audio';
import type { MixMove } from './mix-moves';

/** Each adaptive stage under the name "What the mix did" gives it. */
export const STAGE_LABELS: Record<VocalChainStage, MixMove['stage']> = {
  cleanup: 'Cleanup',
  riding: 'Level riding',
  eq: 'EQ',
  deEsser: 'De-esser',
  compression: 'Compression',
  space: 'Space',
  unmasking: 'Unmasking',
};

/**
 * Issue 26's manual mode, folded under "What the mix did": each stage's amount 0-100 (100 is what the
 * analysis planned, 0 turns the stage off). The next Create Mixdown uses them; the mix on screen stays as it
 * was made until then.
 */
export function MixAdjust({
  amounts,
  onChange,
}: {
  amounts: Readonly<Record<VocalChainStage, number>>;
  onChange: (stage: VocalChainStage, amount: number) => void;
}) {
  const changed = VOCAL_CHAIN_STAGES.some((s) => amounts[s] !== 100);
  return (
    <details className="mt-3" data-testid="mix-adjust">
      <summary className="cursor-pointer text-sm text-zinc-300">Adjust</summary>
      <p className="mt-1 text-xs text-zinc-400">
        Turn any stage down or off, then Create Mixdown again to hear it.
      </p>
      <div className="mt-2 grid gap-x-4 gap-y-2 text-sm sm:grid-cols-[auto_1fr_auto]">
        {VOCAL_CHAIN_STAGES.map((stage) => {
          const id = `mix-adjust-${stage}`;
          return (
            <div key={stage} className="contents" data-stage={STAGE_LABELS[stage]}>
              <label htmlFor={id} className="text-zinc-400">
                {STAGE_LABELS[stage]}
              </label>
              <input
                id={id}
                type="range"
                min={0}
                max={100}
                step={5}
                value={amounts[stage]}
                onChange={(e) => onChange(stage, Number(e.currentTarget.value))}
                className="accent-emerald-500"
              />
              <output htmlFor={id} className="tabular-nums text-zinc-100">
                {amounts[stage]}
              </output>
            </div>
          );
        })}
      </div>
      {changed ? (
        <button
          type="button"
          className="mt-2 text-xs text-zinc-300 underline"
          onClick={() => {
            for (const s of VOCAL_CHAIN_STAGES) onChange(s, 100);
          }}
        >
          Back to the planned amounts
        </button>
      ) : null}
    </details>
  );
}
