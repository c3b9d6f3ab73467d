import { type DragEvent, memo, useId, useRef, useState } from 'react';
import type { TrackType } from '../../../../audio';
import { Spinner } from '../../../components/ui/spinner';
import { cn } from '../../../lib/cn';
import type { TrackSlot } from '../flow-state';
import type { MixerController } from '../mixer-controller';
import { MIXER_TEXT, processingLabel } from '../mixer-messages';
import { formatTime } from '../timeline/time-format';
import { UploadStatus } from './upload-status';

interface UploadBoxProps {
  type: TrackType;
  slot: TrackSlot;
  controller: MixerController;
}

const TITLES: Record<TrackType, string> = { vocals: 'Vocals Track', instrumental: 'Instrumental Track' };
const OTHER: Record<TrackType, string> = { vocals: 'instrumental', instrumental: 'vocals' };

/** One upload box: click or drop a file; processing state; the track's playback volume once loaded. */
export const UploadBox = memo(function UploadBox({ type, slot, controller }: UploadBoxProps) {
  const onFile = (file: File) => controller.loader.upload(type, file);
  const onVolume = (volume: number) => controller.setTrackVolume(type, volume);
  const input = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);
  const volumeId = useId();
  const busy = slot.status === 'processing' || slot.status === 'queued';

  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setOver(false);
    const file = e.dataTransfer.files[0];
    if (file) onFile(file);
  };

  return (
    <section
      aria-label={TITLES[type]}
      data-testid={`upload-${type}`}
      data-state={slot.status}
      className="rounded-xl border border-zinc-800 bg-zinc-900/70 p-5"
    >
      <h2 className="text-lg font-semibold text-zinc-50">{TITLES[type]}</h2>
      <button
        type="button"
        onClick={() => input.current?.click()}
        onDragOver={(e) => {
          e.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={onDrop}
        className={cn(
          'mt-3 flex w-full flex-col items-center justify-center gap-2 rounded-lg border-2 border-dashed px-4 py-8 text-center transition-colors',
          'focus-visible:outline-2 focus-visible:outline-violet-400',
          over ? 'border-violet-400 bg-violet-950/40' : 'border-zinc-700 hover:border-zinc-500',
        )}
      >
        {busy ? (
          <>
            <Spinner />
            <span className="font-medium text-zinc-100">{processingLabel(type)}</span>
            <span className="text-xs text-zinc-400">You can upload the {OTHER[type]} track meanwhile.</span>
          </>
        ) : (
          <>
            <span className="font-medium text-zinc-100">
              {slot.fileName && slot.status === 'loaded'
                ? slot.fileName
                : `Click or drop your ${type} file here`}
            </span>
            <span className="text-xs text-zinc-400">{MIXER_TEXT.supports}</span>
            <span className="text-xs text-zinc-400">{MIXER_TEXT.alsoSupports}</span>
            {slot.status === 'loaded' ? (
              <span className="text-xs text-emerald-300">Loaded · {formatTime(slot.durationSeconds)}</span>
            ) : null}
          </>
        )}
      </button>
      <UploadStatus
        type={type}
        upload={slot.upload}
        onCancel={() => controller.loader.cancelUpload(type)}
        onRetry={() => controller.loader.retryUpload(type)}
      />
      <input
        ref={input}
        type="file"
        accept="audio/*"
        className="sr-only"
        tabIndex={-1}
        aria-label={`${TITLES[type]} file`}
        onChange={(e) => {
          const file = e.target.files?.[0];
          e.target.value = '';
          if (file) onFile(file);
        }}
      />
      <div className="mt-4 flex items-center gap-3">
        <label htmlFor={volumeId} className="text-sm text-zinc-300">
          Volume
        </label>
        <input
          id={volumeId}
          type="range"
          min={0}
          max={100}
          step={1}
          value={slot.volume}
          onChange={(e) => onVolume(Number(e.target.value))}
          className="flex-1 accent-violet-500"
        />
        <span className="w-10 text-right text-sm tabular-nums text-zinc-300">{slot.volume}</span>
      </div>
    </section>
  );
});
