import { MIX_STYLES, PREVIEW_ORDER } from '../../../../audio';
import { Button } from '../../../components/ui/button';
import { Card, CardDescription, CardTitle } from '../../../components/ui/card';
import type { FlowState } from '../flow-state';
import type { MixerController } from '../mixer-controller';

/** 'Mix Preview': shown once the sequence is applied and no mixdown exists; one preview plays at a time. */
export function MixPreviewPanel({ controller, flow }: { controller: MixerController; flow: FlowState }) {
  const { status, fraction } = flow.previews;
  return (
    <Card aria-labelledby="preview-title" data-testid="mix-preview" data-state={status}>
      <CardTitle id="preview-title">Mix Preview</CardTitle>
      <CardDescription className="mt-1">
        10-second previews of each style, from 20% into the vocal.
      </CardDescription>
      {status === 'rendering' ? (
        <p className="mt-3 text-sm text-zinc-300" role="status">
          Generating previews... {Math.round(fraction * 100)}%
        </p>
      ) : null}
      <ul className="mt-4 grid gap-3 sm:grid-cols-3">
        {PREVIEW_ORDER.map((id) => {
          const playing = flow.playing === id;
          return (
            <li key={id} className="flex items-center justify-between rounded-lg border border-zinc-800 p-3">
              <span className="text-sm font-medium text-zinc-100">{MIX_STYLES[id].name}</span>
              <Button
                size="sm"
                variant={playing ? 'secondary' : 'outline'}
                disabled={status !== 'ready'}
                aria-label={`${playing ? 'Stop' : 'Play'} ${MIX_STYLES[id].name} preview`}
                data-state={playing ? 'playing' : 'stopped'}
                onClick={() => void controller.togglePreview(id)}
              >
                {playing ? 'Stop' : 'Play'}
              </Button>
            </li>
          );
        })}
      </ul>
    </Card>
  );
}
