import { Button } from '../../../components/ui/button';
import { Card, CardDescription, CardTitle } from '../../../components/ui/card';
import { PlainSentence, useShowNumbers } from '../../../components/ui/show-numbers';
import { db, signedDb } from '../common/audio-numbers';
import { useMasterView, type ViewedMaster } from '../common/master-view';
import { type PlatformPlayback, platformTable, SPOTIFY_LOUD_LIMITER } from '../engine/engine-api';
import type { PlayAs } from '../player/play-as';
import { platformSentence } from './platform-sentence';

const RULE_TEXT: Record<PlatformPlayback['platform']['rule'], string> = {
  'peak-limited': 'up and down (up only within headroom)',
  'down-only': 'down only',
  limiter: 'up and down, limiter catches peaks',
};

/** Up, down or as is; and how far short of its level a rule (headroom, down-only) left it. */
const verdict = (row: PlatformPlayback): string => {
  const held = row.heldBackDb > 0.05 ? ` (${db(row.heldBackDb)} dB short of its level)` : '';
  if (row.direction === 'none') return `plays as is${held}`;
  return `${row.direction === 'up' ? 'turned up' : 'turned down'}${held}`;
};

/** Spotify Loud's row, once its version was rendered: what the limiter left, measured. */
function LoudResult({ result }: { result: ViewedMaster }) {
  const v = result.variants['spotify-loud'];
  if (!v) return null;
  if (v.status === 'working') return <span className="text-zinc-400">limiting… {v.percent} %</span>;
  if (v.status !== 'ready') return <span className="text-red-300">{v.message}</span>;
  return (
    <span className="text-zinc-300" data-testid="spotify-loud-measured">
      measured after its limiter: {db(v.lufs)} LUFS, {db(v.truePeakDbtp)} dBTP
    </span>
  );
}

function PlatformRow({
  row,
  result,
  active,
  open,
}: {
  row: PlatformPlayback;
  result: ViewedMaster;
  active: boolean;
  /** The numbers are shown (decision 253): the name, the gain and Play always are. */
  open: boolean;
}) {
  const view = useMasterView();
  const { platform } = row;
  const choice: PlayAs = { kind: 'platform', id: platform.id };
  return (
    <li
      className="grid grid-cols-[minmax(0,1fr)_auto] items-center gap-3 border-t border-zinc-800 py-2"
      data-testid={`platform-${platform.id}`}
      data-gain={row.gainDb.toFixed(2)}
      data-warning={row.headroomWarning ? 'true' : 'false'}
    >
      <div className="grid gap-1 sm:grid-cols-[minmax(0,10rem)_minmax(0,1fr)] sm:gap-3">
        <div>
          <div className="font-medium text-zinc-100" title={platform.source}>
            {platform.name}
          </div>
          <div className="text-xs text-zinc-400" hidden={!open}>
            {db(platform.targetLufs, 0)} LUFS · {RULE_TEXT[platform.rule]}
          </div>
        </div>
        <div className="grid gap-0.5 text-sm tabular-nums">
          <span className="text-zinc-200">
            <span data-testid={`platform-${platform.id}-gain`}>{signedDb(row.gainDb)} dB</span> ·{' '}
            {verdict(row)}
            <span hidden={!open}> · plays at {db(row.playedLufs)} LUFS</span>
          </span>
          {row.limiterOverDb > 0 ? (
            <span className="text-xs text-zinc-400" hidden={!open}>
              its limiter ({db(SPOTIFY_LOUD_LIMITER.ceilingDb, 0)} dB, {SPOTIFY_LOUD_LIMITER.attackMs} ms
              attack, {SPOTIFY_LOUD_LIMITER.releaseMs} ms decay) takes up to {db(row.limiterOverDb)} dB off
              the peaks
            </span>
          ) : null}
          {platform.id === 'spotify-loud' ? (
            <span className="text-xs" hidden={!open}>
              <LoudResult result={result} />
            </span>
          ) : null}
          {row.headroomWarning ? (
            <span
              className="text-xs text-amber-300"
              data-testid={`platform-${platform.id}-warning`}
              hidden={!open}
            >
              True peak {db(row.playedTruePeakDbtp - row.gainDb)} dBTP leaves less headroom than the{' '}
              {db(platform.ceilingDbtp, 0)} dBTP it asks for: its lossy encode may clip
            </span>
          ) : null}
        </div>
      </div>
      <Button
        variant={active ? 'primary' : 'outline'}
        aria-pressed={active}
        onClick={() => view?.playAs(active ? { kind: 'master' } : choice)}
        aria-label={
          active ? `Back to the master (now playing as ${platform.name})` : `Play as ${platform.name}`
        }
      >
        {active ? 'Playing' : 'Play'}
      </Button>
    </li>
  );
}

/**
 * "How it will play" (issue 19): what each streaming platform's loudness normalisation does to this master,
 * from the engine meter's reading of it, with one click to hear it that way (decision 125).
 */
export function PlatformPanel() {
  const view = useMasterView();
  const result = view?.master;
  const measured = result?.analysis?.loudness;
  if (!result) return null;
  if (!measured || !Number.isFinite(measured.integratedLufs))
    return (
      <Card data-testid="platform-panel" data-state="measuring">
        <CardTitle>How it will play</CardTitle>
        <p className="text-sm text-zinc-400">Measuring the master…</p>
      </Card>
    );
  return (
    <PlatformReady result={result} lufs={measured.integratedLufs} truePeakDbtp={measured.truePeakDbtp} />
  );
}

function PlatformReady({
  result,
  lufs,
  truePeakDbtp,
}: {
  result: ViewedMaster;
  lufs: number;
  truePeakDbtp: number;
}) {
  const playing = useMasterView()?.playing ?? null;
  const numbers = useShowNumbers();
  const rows = platformTable(lufs, truePeakDbtp);
  const active = (id: string) => playing?.kind === 'platform' && playing.id === id;
  return (
    <Card
      className="grid gap-3"
      data-testid="platform-panel"
      data-state="ready"
      data-lufs={lufs}
      data-true-peak={truePeakDbtp}
    >
      <div>
        <CardTitle>How it will play</CardTitle>
        <PlainSentence>{platformSentence(rows)}</PlainSentence>
      </div>
      {numbers.button}
      <CardDescription hidden={!numbers.open}>
        This master measures {db(lufs)} LUFS with a true peak of {db(truePeakDbtp)} dBTP. Each service turns
        it up or down to its own level; Play hears it that way, with the original (A) at the same loudness.
      </CardDescription>
      <ul className="grid" id={numbers.id}>
        {rows.map((row) => (
          <PlatformRow
            key={row.platform.id}
            row={row}
            result={result}
            active={active(row.platform.id)}
            open={numbers.open}
          />
        ))}
      </ul>
      <p className="text-xs text-zinc-400" hidden={!numbers.open}>
        Rules from each service's published loudness pages; where a service does not publish one (Apple's
        headroom, Amazon's and Deezer's turn-up) the table assumes the cautious case. Hover a name for its
        source.
      </p>
    </Card>
  );
}
