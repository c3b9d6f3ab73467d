import { Card, CardDescription, CardTitle } from '../../../components/ui/card';
import { PlainSentence, ShowNumbers } from '../../../components/ui/show-numbers';
import { hz, monoVerdict } from '../common/audio-numbers';
import { analysisSentence } from '../common/plain-sentences';
import { type AdaptivePlan, octaveMovesDb, TONE_EQ_HZ, type TrackAnalysis } from '../engine/engine-api';
import { useMasteringState, useStore } from '../use-mastering';

const db = (v: number, digits = 1): string => (Number.isFinite(v) ? v.toFixed(digits) : '-∞');
const signed = (v: number): string => `${v > 0 ? '+' : v < 0 ? '−' : '±'}${Math.abs(v).toFixed(1)}`;
const clock = (s: number): string => `${Math.floor(s / 60)}:${String(Math.floor(s % 60)).padStart(2, '0')}`;

function Stat({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <div className="rounded-lg bg-zinc-950/60 px-3 py-2">
      <dt className="text-xs text-zinc-400">{label}</dt>
      <dd className="tabular-nums text-zinc-100" data-testid={testId}>
        {value}
      </dd>
    </div>
  );
}

function Findings({ track }: { track: TrackAnalysis }) {
  return (
    <dl className="grid grid-cols-2 gap-2 text-sm sm:grid-cols-3">
      <Stat label="Crest factor" value={`${db(track.crestDb)} dB`} testId="analysis-crest" />
      <Stat label="Peak to loudness" value={`${db(track.plrDb)} dB`} testId="analysis-plr" />
      <Stat label="Loudness range" value={`${db(track.loudnessRangeLu)} LU`} testId="analysis-lra" />
      <Stat
        label="Mono bass (< 120 Hz)"
        value={`${track.lowEndCorrelation.toFixed(2)} · ${monoVerdict(track.lowEndCorrelation)}`}
        testId="analysis-low-end"
      />
      <Stat
        label="Stereo width (highs)"
        value={`${Math.round((track.stereo.at(-1)?.width ?? 0) * 100)} %`}
        testId="analysis-width"
      />
      <Stat
        label="Loudest 30 s"
        value={`from ${clock(track.loudest.startSeconds)}`}
        testId="analysis-loudest"
      />
    </dl>
  );
}

/** The tone moves the adaptive chain made, per octave (issue 16). */
function ToneMoves({ adaptive }: { adaptive: AdaptivePlan }) {
  return (
    <div className="grid gap-2" data-testid="analysis-eq">
      <p className="text-sm text-zinc-300">
        Tone match {Math.round(adaptive.toneMatch * 100)} % toward the{' '}
        {adaptive.matched === 'reference' ? 'reference' : 'target curve'}
        {adaptive.bassMonoHz > 0 ? `, bass below ${adaptive.bassMonoHz} Hz kept mono` : ''}
      </p>
      <ol className="grid grid-cols-9 gap-1 text-center text-[11px] tabular-nums">
        {octaveMovesDb(adaptive.toneEqDb, adaptive.eqGrid).map((g, i) => {
          const f = TONE_EQ_HZ[i]!;
          return (
            <li key={f} className="grid gap-0.5 rounded bg-zinc-950/60 py-1">
              <span
                className={g > 0.05 ? 'text-emerald-300' : g < -0.05 ? 'text-amber-300' : 'text-zinc-400'}
              >
                {signed(g)}
              </span>
              <span className="text-zinc-400">{hz(f)}</span>
            </li>
          );
        })}
      </ol>
    </div>
  );
}

/**
 * What the engine's analysis found in the original and, once mastered, the tone moves the adaptive chain
 * made (issue 16; the why panel of issue "Deliver like a mastering studio" will take these over).
 */
export function AnalysisSummary() {
  const store = useStore();
  const state = useMasteringState();
  const track = state.source?.track;
  if (!state.source) return null;
  const adaptive = store.current()?.report.adaptive ?? null;
  return (
    <Card className="grid gap-3" data-testid="analysis-summary" data-state={track ? 'ready' : 'loading'}>
      <div>
        <CardTitle>Track analysis</CardTitle>
        {track ? (
          <PlainSentence>{analysisSentence(track)}</PlainSentence>
        ) : (
          <p className="mt-1 text-sm text-zinc-400">Analysing…</p>
        )}
      </div>
      {track ? (
        <ShowNumbers>
          <CardDescription>
            Spectrum, dynamics and stereo image of the original, measured in one pass
          </CardDescription>
          <Findings track={track} />
          {adaptive ? <ToneMoves adaptive={adaptive} /> : null}
        </ShowNumbers>
      ) : null}
    </Card>
  );
}
