import { memo } from 'react';
import type { Genre } from '../../../../shared/genres';
import { Card, CardTitle } from '../../../components/ui/card';
import { PlainSentence } from '../../../components/ui/show-numbers';
import { cn } from '../../../lib/cn';
import type { FlowState } from '../flow-state';
import { vocalSentence } from '../plain-sentences';
import { vocalFindings } from './vocal-findings';

/**
 * Issue 26: what the listening worker heard in the vocal, in plain words, each line opening onto its numbers.
 * Shown from the moment the vocal loads (with the worker's progress) until it is cleared. It takes only the
 * vocal's analysis and the genre (memoised: the mixer's other flow changes leave it as it is, decision 297).
 */
export const VocalAnalysisPanel = memo(function VocalAnalysisPanel({
  vocal,
  genre: aimed,
}: {
  vocal: FlowState['vocal'];
  /** The genre the mix aims at (effectiveGenre), null when none is known. */
  genre: Genre | null;
}) {
  if (vocal.status === 'idle') return null;
  const genre = aimed ?? 'pop';
  const findings = vocal.result ? vocalFindings(vocal.result, genre) : null;
  return (
    <Card aria-labelledby="vocal-analysis-title" data-testid="vocal-analysis" data-state={vocal.status}>
      <CardTitle id="vocal-analysis-title">What we hear in your vocal</CardTitle>
      {vocal.status === 'listening' ? (
        <div className="mt-3" role="status">
          <p className="text-sm text-zinc-300">
            Listening to your vocal… {Math.round(vocal.fraction * 100)}%
          </p>
          <div
            className="mt-2 h-2 overflow-hidden rounded-full bg-zinc-800"
            role="progressbar"
            aria-label="Vocal analysis"
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={Math.round(vocal.fraction * 100)}
          >
            <div
              className="h-full bg-violet-500 transition-[width]"
              style={{ width: `${vocal.fraction * 100}%` }}
            />
          </div>
        </div>
      ) : vocal.status === 'failed' ? (
        <p className="mt-3 text-sm text-amber-300">
          The vocal could not be analysed. The mix still works, with the chain's default settings.
        </p>
      ) : findings ? (
        <>
          <PlainSentence>{vocalSentence(findings)}</PlainSentence>
          <p className="mt-1 text-sm text-zinc-400">Open a line to see its numbers.</p>
          <ul className="mt-3 space-y-2">
            {findings.map((f) => (
              <li key={f.id} data-finding={f.id}>
                <details className="group rounded-lg border border-zinc-800 bg-zinc-950/40 px-3 py-2">
                  <summary className="flex cursor-pointer list-none items-start gap-2 text-sm text-zinc-100">
                    <span
                      aria-hidden
                      className={cn(
                        'mt-1.5 size-2 shrink-0 rounded-full',
                        f.acts ? 'bg-violet-400' : 'bg-emerald-400',
                      )}
                    />
                    <span className="flex-1">{f.text}</span>
                    <span className="text-xs text-zinc-400 group-open:hidden">Numbers</span>
                  </summary>
                  <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 pl-4 text-xs text-zinc-400">
                    {f.numbers.map((n) => (
                      <div key={n.label} className="contents">
                        <dt>{n.label}</dt>
                        <dd className="tabular-nums text-zinc-200">{n.value}</dd>
                      </div>
                    ))}
                  </dl>
                </details>
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </Card>
  );
});
