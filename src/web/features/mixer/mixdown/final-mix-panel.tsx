import { Link } from 'react-router';
import { Button, buttonClasses } from '../../../components/ui/button';
import { Card, CardDescription, CardTitle } from '../../../components/ui/card';
import { masteringLink } from '../../mastering/source/source-genre';
import { DownloadDialog } from '../download/download-dialog';
import { useMixDownload } from '../download/download-mix';
import type { FlowState } from '../flow-state';
import type { MixerController } from '../mixer-controller';
import { MIXER_TEXT } from '../mixer-messages';
import { formatTime } from '../timeline/time-format';
import { MixAdjust } from './mix-adjust';
import { MixMovesPanel } from './mix-moves-panel';

const BUSY_LABELS = {
  checking: 'Checking...',
  preparing: 'Preparing files...',
  spending: 'Preparing files...',
};

/** 'Final Mix' (spec 2): Play Result/Stop, Download Mix with the format choice, Export to Mastering. */
export function FinalMixPanel({
  controller,
  flow,
  devMode,
}: {
  controller: MixerController;
  flow: FlowState;
  devMode: boolean;
}) {
  const download = useMixDownload(controller, devMode);
  const final = flow.finalMix;
  if (!final) return null;
  const playing = flow.playing === 'final';
  const busy = download.phase !== 'idle' && download.phase !== 'choosing';
  return (
    <Card aria-labelledby="final-title" data-testid="final-mix" data-track-id={final.trackId ?? ''}>
      <CardTitle id="final-title">Final Mix</CardTitle>
      <CardDescription className="mt-1">Length {formatTime(final.durationSeconds, true)}</CardDescription>
      <div className="mt-4 flex flex-wrap items-center gap-3">
        <Button variant="secondary" onClick={() => void controller.toggleFinal()}>
          {playing ? 'Stop' : 'Play Result'}
        </Button>
        <Button onClick={() => void download.start()} disabled={busy}>
          {busy ? BUSY_LABELS[download.phase as keyof typeof BUSY_LABELS] : 'Download Mix'}
        </Button>
        {final.trackId !== null ? (
          <Link to={masteringLink(final.trackId, final.genre)} className={buttonClasses('outline')}>
            Export to Mastering
          </Link>
        ) : (
          <span title={MIXER_TEXT.exportDisabled}>
            <Button variant="outline" disabled title={MIXER_TEXT.exportDisabled}>
              Export to Mastering
            </Button>
          </span>
        )}
      </div>
      {final.report ? <MixMovesPanel report={final.report} /> : null}
      {final.genre ? (
        <MixAdjust
          amounts={flow.vocalChain}
          onChange={(stage, amount) => controller.setVocalChainAmount(stage, amount)}
        />
      ) : null}
      <DownloadDialog
        open={download.phase === 'choosing'}
        onCancel={download.cancel}
        onConfirm={(formats) => void download.confirm(formats)}
      />
    </Card>
  );
}
