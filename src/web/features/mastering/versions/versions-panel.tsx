import { MIX_VERSION_LABELS, MIX_VERSIONS } from '../../../../shared/mix-versions';
import { Card, CardDescription, CardTitle } from '../../../components/ui/card';
import { ProgressBar } from '../../../components/ui/progress-bar';
import { PlainSentence, ShowNumbers } from '../../../components/ui/show-numbers';
import { TEXT } from '../mastering-texts';
import { useMasteringState, useStore } from '../use-mastering';
import type { VersionsOutput } from './versions-job';
import { versionsSentence } from './versions-sentence';

const db = (v: number) => (Number.isFinite(v) ? `${v.toFixed(1)} dB` : '–');
const dbtp = (v: number) => (Number.isFinite(v) ? `${v.toFixed(1)} dBTP` : '–');

/** Each version's delivered true peak and the safety limiter's deepest cut, once mastered. */
function VersionList({ made }: { made: VersionsOutput | null }) {
  return (
    <ul className="grid gap-2 text-sm">
      {MIX_VERSIONS.map((version) => {
        const report = made?.versions.find((r) => r.version === version);
        return (
          <li
            key={version}
            className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 rounded-md border border-zinc-800 px-3 py-2"
            data-version={version}
          >
            <span className="font-medium text-zinc-100">{MIX_VERSION_LABELS[version]}</span>
            {report ? (
              <span className="text-zinc-400">
                {dbtp(report.truePeakDb)}
                {report.safetyGainDb < -0.01 ? ` · safety limiter ${db(report.safetyGainDb)}` : ''}
              </span>
            ) : (
              <span className="text-zinc-400">not mastered yet</span>
            )}
          </li>
        );
      })}
    </ul>
  );
}

/**
 * Issue 18: the versions of a mixer mix (Main, Instrumental, A cappella, Vocal up, Vocal down). It says
 * where the stems stand, and after mastering what each version's true peak is and where the last safety
 * limiter had to act. A single-file track is told it has none.
 */
export function VersionsPanel() {
  const state = useMasteringState();
  const store = useStore();
  const source = state.source;
  if (!source) return null;
  const stems = source.stems;
  const result = store.current();
  const made = result?.versions ?? null;
  return (
    <Card className="grid gap-3" data-testid="versions-panel" data-state={made ? 'mastered' : stems.status}>
      <CardTitle>{TEXT.versionsTitle}</CardTitle>
      {stems.status === 'none' ? <CardDescription>{TEXT.versionsSingleFile}</CardDescription> : null}
      {stems.status === 'failed' ? (
        <CardDescription>{TEXT.versionsFailed(stems.message)}</CardDescription>
      ) : null}
      {stems.status === 'loading' ? (
        <div className="grid gap-2">
          <CardDescription>{TEXT.versionsLoading}</CardDescription>
          <ProgressBar percent={stems.fraction * 100} label="Stems" />
        </div>
      ) : null}
      {stems.status === 'ready' && !made ? <CardDescription>{TEXT.versionsReady}</CardDescription> : null}
      {made ? (
        <>
          <PlainSentence className="mt-0">{versionsSentence(made.versions)}</PlainSentence>
          <ShowNumbers>
            <VersionList made={made} />
            {made.residualDb != null ? (
              <p
                className="text-xs text-zinc-400"
                data-testid="versions-residual"
                data-residual-db={made.residualDb}
              >
                {TEXT.versionsResidual(made.residualDb)}
              </p>
            ) : null}
          </ShowNumbers>
        </>
      ) : stems.status === 'ready' ? (
        <VersionList made={null} />
      ) : null}
    </Card>
  );
}
