import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import type { MixVersion } from '../../../../shared/mix-versions';
import { Button } from '../../../components/ui/button';
import { Card, CardTitle } from '../../../components/ui/card';
import { ProgressBar } from '../../../components/ui/progress-bar';
import { USER_QUERY_KEY } from '../../../lib/query-client';
import { masterMetaOf } from '../../library/master-meta';
import { Waveform } from '../common/waveform';
import { DownloadDialog } from '../download/download-dialog';
import { type DownloadPhase, downloadMaster } from '../download/download-flow';
import type { ExportFormat, ExportRate } from '../engine/engine-api';
import { checkDownload, setupName } from '../mastering-rules';
import { TEXT } from '../mastering-texts';
import { playAsLabel } from '../player/play-as';
import { type Access, notify, useMasteringState, useStore } from '../use-mastering';

/** After mastering: the master's waveform, Play/Stop, A/B, and Download (or the disabled 'Upgrade Required'). */
export function MasteredCard({ access }: { access: Access }) {
  const store = useStore();
  const state = useMasteringState();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [dialog, setDialog] = useState(false);
  const [saving, setSaving] = useState<{ percent: number; phase: DownloadPhase } | null>(null);
  const abort = useRef<AbortController | null>(null);
  const position = useCallback(() => store.player.position(), [store]);
  const result = store.current();
  const name = setupName(state);
  const canDownload = access.user?.hasSubscription === true || !access.user;

  const startDownload = () => {
    const check = checkDownload({
      user: access.user,
      hasMaster: result !== null,
      credits: access.credits,
      devMode: access.devMode,
    });
    if (!check.ok) {
      notify(check.notice);
      if (check.redirectToAuth) setTimeout(() => navigate('/auth'), 2000);
      return;
    }
    setDialog(true);
  };

  const download = async (formats: ExportFormat[], rate: ExportRate, versions: MixVersion[]) => {
    setDialog(false);
    setSaving({ percent: 0, phase: 'encoding' });
    const controller = new AbortController();
    abort.current = controller;
    await downloadMaster(
      result,
      formats,
      rate,
      {
        devMode: access.devMode,
        notify,
        trackId: state.source?.trackId ?? null,
        keep: result ? masterMetaOf(state, result) : undefined,
        signal: controller.signal,
        onProgress: (f, phase) => setSaving({ percent: Math.round(f * 100), phase }),
        onSpent: (user) => {
          if (user) queryClient.setQueryData(USER_QUERY_KEY, user);
          void queryClient.invalidateQueries({ queryKey: USER_QUERY_KEY });
        },
      },
      versions,
    );
    abort.current = null;
    setSaving(null);
  };

  const playing = state.playing === 'mastered';
  return (
    <Card className="grid gap-4" data-testid="mastered-card" data-state={result ? 'mastered' : 'missing'}>
      <div className="flex items-center justify-between gap-2">
        <CardTitle>Mastered Track</CardTitle>
        <span className="text-sm text-violet-300">{name}</span>
      </div>
      {result ? (
        <Waveform
          overview={result.overview}
          label="Mastered waveform"
          tone="master"
          position={position}
          duration={result.buffer.duration}
          active={playing}
        />
      ) : (
        <p className="text-sm text-zinc-400">Not mastered with {name} yet: press Master Track.</p>
      )}
      <div className="flex flex-wrap items-center gap-2">
        {playing ? (
          <Button variant="secondary" onClick={() => store.playback.stop()}>
            Stop
          </Button>
        ) : (
          <Button
            variant="secondary"
            onClick={() => void store.playback.playMastered()}
            aria-label="Play mastered"
          >
            Play
          </Button>
        )}
        <Button
          variant={state.listen === 'original' ? 'primary' : 'outline'}
          onClick={() => store.playback.toggleListen()}
          aria-pressed={state.listen === 'original'}
          title="Switch between the original and the master at equal loudness (key B)"
          aria-keyshortcuts="B"
          data-testid="ab-switch"
        >
          {/* What plays, not a riddle: 'A: Original (B)' read as A and B at once (issue 30). */}
          Listening to {state.listen === 'original' ? 'A: Original' : `B: ${playAsLabel(state.playAs)}`}
        </Button>
        {canDownload ? (
          <Button onClick={startDownload} disabled={saving !== null} data-testid="download-button">
            {saving !== null
              ? `${saving.phase === 'zipping' ? 'Packing ZIP...' : 'Preparing files...'} ${saving.percent}%`
              : 'Download'}
          </Button>
        ) : (
          <>
            <Button disabled>{TEXT.upgradeRequired}</Button>
            {/* The moment a free user is most ready to pay: a way on next to the spec's dead button. */}
            <Link
              to="/pricing"
              data-testid="upgrade-link"
              className="text-sm text-violet-300 underline underline-offset-4 hover:text-violet-200"
            >
              See plans to download
            </Link>
          </>
        )}
      </div>
      {saving !== null ? (
        <div className="grid gap-1" data-testid="download-progress" data-phase={saving.phase}>
          <ProgressBar percent={saving.percent} label="Download" />
          <div className="flex items-center justify-between text-xs text-zinc-400">
            <span>
              {saving.phase === 'zipping' ? 'Packing the versions into one ZIP' : 'Encoding the files'} ·{' '}
              {saving.percent}%
            </span>
            <Button variant="outline" onClick={() => abort.current?.abort()}>
              Cancel
            </Button>
          </div>
        </div>
      ) : null}
      <p className="text-xs text-zinc-400">
        A/B plays the original and the master in sync, the louder one turned down to match: you judge the
        sound, not the volume.
      </p>
      <DownloadDialog
        open={dialog}
        onOpenChange={setDialog}
        sourceRate={result?.buffer.sampleRate ?? 44_100}
        hasVersions={result?.versions != null}
        onDownload={(f, rate, versions) => void download(f, rate, versions)}
      />
    </Card>
  );
}
