import { MIX_STAGE_MESSAGES } from '../../../../audio';
import { Button } from '../../../components/ui/button';
import { ProgressBar } from '../../../components/ui/progress-bar';
import { bothLoaded, type FlowState } from '../flow-state';
import type { MixerController } from '../mixer-controller';
import { MIXER_NOTICES } from '../mixer-messages';

/**
 * Create Mixdown: enabled once both tracks are loaded and the sequence applied. While it runs, the stage
 * the worker is in and its real progress show, with Cancel.
 */
export function MixdownSection({ controller, flow }: { controller: MixerController; flow: FlowState }) {
  const loaded = bothLoaded(flow);
  const { running, stage, fraction } = flow.mixdown;
  const percent = Math.round(fraction * 100);
  return (
    <section aria-label="Mixdown" data-testid="mixdown" data-state={running ? 'running' : 'idle'}>
      <div className="flex flex-wrap items-center gap-3">
        <Button
          size="lg"
          onClick={() => void controller.mixdown.run()}
          disabled={!loaded || !flow.applied || running}
        >
          {running ? 'Creating Mixdown...' : 'Create Mixdown'}
        </Button>
        {running ? (
          <Button variant="outline" onClick={() => controller.mixdown.cancel()}>
            Cancel
          </Button>
        ) : null}
        {!loaded ? (
          <p className="text-sm text-zinc-400" data-testid="missing-tracks">
            <span className="font-semibold text-amber-300">{MIXER_NOTICES.missingTracks.title}:</span>{' '}
            {MIXER_NOTICES.missingTracks.description}
          </p>
        ) : null}
      </div>
      {running ? (
        <div className="mt-3 max-w-xl">
          <p className="text-sm text-zinc-200" role="status" data-testid="mixdown-stage">
            {stage ? MIX_STAGE_MESSAGES[stage] : ''}
          </p>
          <ProgressBar percent={percent} label="Mixdown progress" className="mt-2 h-2 rounded-full" />
        </div>
      ) : null}
    </section>
  );
}
