import { useId } from 'react';
import { classifyVocalShare, MIX_STYLES, PREVIEW_ORDER } from '../../../../audio';
import { Card, CardTitle } from '../../../components/ui/card';
import { cn } from '../../../lib/cn';
import type { FlowState } from '../flow-state';
import type { MixerController } from '../mixer-controller';
import { MIXER_TEXT } from '../mixer-messages';
import { GenrePicker } from './genre-picker';

const DESCRIPTIONS = {
  'vocals-forward': 'Vocals on top: 75% vocals, 25% instrumental.',
  balanced: 'An even blend: 50% vocals, 50% instrumental.',
  'instrumental-forward': 'The beat leads: 25% vocals, 75% instrumental.',
} as const;

/** 'Choose Your Mix Style': disabled and dimmed until the sequence is applied (spec 2). */
export function MixStyleCard({ controller, flow }: { controller: MixerController; flow: FlowState }) {
  const volumeId = useId();
  const enabled = flow.applied;
  const current = flow.style ? classifyVocalShare(flow.vocalShare) : null;
  return (
    <Card aria-labelledby="style-title" data-testid="mix-style" data-state={enabled ? 'enabled' : 'disabled'}>
      <CardTitle id="style-title">Choose Your Mix Style</CardTitle>
      {!enabled ? <p className="mt-1 text-sm text-amber-300">{MIXER_TEXT.styleHint}</p> : null}
      <div inert={!enabled} className={cn('mt-4', !enabled && 'pointer-events-none opacity-50 select-none')}>
        <fieldset className="grid gap-3 sm:grid-cols-3">
          <legend className="sr-only">Mix styles</legend>
          {PREVIEW_ORDER.map((id) => (
            <button
              key={id}
              type="button"
              aria-pressed={current === id}
              disabled={!enabled}
              onClick={() => controller.selectStyle(id)}
              className={cn(
                'rounded-lg border p-4 text-left transition-colors focus-visible:outline-2 focus-visible:outline-violet-400',
                current === id
                  ? 'border-violet-400 bg-violet-950/50'
                  : 'border-zinc-700 hover:border-zinc-500',
              )}
            >
              <span className="block font-semibold text-zinc-50">{MIX_STYLES[id].name}</span>
              <span className="mt-1 block text-sm text-zinc-400">{DESCRIPTIONS[id]}</span>
            </button>
          ))}
        </fieldset>
        <GenrePicker controller={controller} flow={flow} />
        <div className="mt-4 flex items-center gap-3">
          <label htmlFor={volumeId} className="text-sm text-zinc-300">
            Output volume
          </label>
          <input
            id={volumeId}
            type="range"
            min={0}
            max={100}
            step={1}
            value={flow.outputVolume}
            disabled={!enabled}
            onChange={(e) => controller.setOutputVolume(Number(e.target.value))}
            className="flex-1 accent-violet-500"
          />
          <span className="w-10 text-right text-sm tabular-nums text-zinc-300">{flow.outputVolume}</span>
        </div>
      </div>
    </Card>
  );
}
