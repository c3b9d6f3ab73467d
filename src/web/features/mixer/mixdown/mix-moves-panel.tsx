import type { VocalChainReport } from '../../../../audio';
import { PlainSentence, ShowNumbers } from '../../../components/ui/show-numbers';
import { mixMovesSentence } from '../plain-sentences';
import { mixMoves, mixMovesTitle } from './mix-moves';

/** "What the mix did" (issue 26), under the final mix: the vocal chain's every move with its number. */
export function MixMovesPanel({ report }: { report: VocalChainReport }) {
  return (
    <section
      aria-labelledby="mix-moves-title"
      data-testid="mix-moves"
      className="mt-5 border-t border-zinc-800 pt-4"
    >
      <h3 id="mix-moves-title" className="text-sm font-semibold text-zinc-100">
        What the mix did
      </h3>
      <PlainSentence className="mb-2 text-sm">{mixMovesSentence(report)}</PlainSentence>
      <ShowNumbers>
        <p className="text-xs text-zinc-400">{mixMovesTitle(report)}</p>
        <dl className="grid gap-x-4 gap-y-1.5 text-sm sm:grid-cols-[auto_1fr]">
          {mixMoves(report).map((m) => (
            <div key={m.stage} className="contents" data-stage={m.stage}>
              <dt className="text-zinc-400">{m.stage}</dt>
              <dd className="tabular-nums text-zinc-100">{m.text}</dd>
            </div>
          ))}
        </dl>
      </ShowNumbers>
    </section>
  );
}
