/**
 * buildLivePitchVocal: the live pitch-corrected vocal (issue 27, decision 260) as a Web Audio source node (an
 * AudioWorkletNode with no input and a stereo output), for a live AudioContext and an OfflineAudioContext alike.
 */
import type { LivePitchPlan } from '../dsp/pitch/corrected-source';
import type { TimelineClip } from '../model/clip';
import { PITCH_PROCESSOR_NAME, type PitchNodeEvent, type PitchNodeMessage } from './pitch-messages';

export interface LivePitchReading {
  /** Frames played since the last reading. */
  frames: number;
  /** The largest change the correction made to the samples played (0: the dry vocal). */
  moved: number;
}

export interface LivePitchVocal {
  node: AudioWorkletNode;
  /** Hands the worklet the vocal source (transferred: pass a copy the page no longer needs); null removes it. */
  setSource(channels: Float32Array[] | null, sampleRate: number): Promise<void>;
  /** A new correction; resolves when the worklet holds it. Null: the dry vocal. */
  setPlan(plan: LivePitchPlan | null): Promise<void>;
  /** Clips with positions in frames of the context's clock (see PitchNodeMessage 'play'). */
  play(clips: TimelineClip[]): void;
  stop(): void;
  dispose(): void;
}

const loaded = new WeakMap<BaseAudioContext, Promise<void>>();

/** The worklet module's URL, bundled by Vite as its own ES module (a dynamic import, see mastering-chain-node). */
const bundledWorkletUrl = async (): Promise<string> =>
  (await import('./pitch.worklet.ts?worker&url')).default;

export const loadPitchWorklet = async (ctx: BaseAudioContext, workletUrl?: string): Promise<void> => {
  let promise = loaded.get(ctx);
  if (!promise) {
    promise = (async () => ctx.audioWorklet.addModule(workletUrl ?? (await bundledWorkletUrl())))();
    loaded.set(ctx, promise);
  }
  return promise;
};

export const buildLivePitchVocal = async (
  ctx: BaseAudioContext,
  options: { workletUrl?: string; onReading?: (reading: LivePitchReading) => void } = {},
): Promise<LivePitchVocal> => {
  await loadPitchWorklet(ctx, options.workletUrl);
  const node = new AudioWorkletNode(ctx, PITCH_PROCESSOR_NAME, {
    numberOfInputs: 0,
    numberOfOutputs: 1,
    outputChannelCount: [2],
  });
  // Acknowledgements come back in the order the messages went (one port, one thread).
  const waiting: Record<'source' | 'plan', (() => void)[]> = { source: [], plan: [] };
  node.port.onmessage = (event: MessageEvent<PitchNodeEvent>) => {
    const data = event.data;
    if (data.type === 'live') options.onReading?.({ frames: data.frames, moved: data.moved });
    else waiting[data.type].shift()?.();
  };
  const post = (message: PitchNodeMessage, transfer: Transferable[] = []) =>
    node.port.postMessage(message, transfer);
  const acknowledged = (type: 'source' | 'plan', message: PitchNodeMessage, transfer?: Transferable[]) =>
    new Promise<void>((resolve) => {
      waiting[type].push(resolve);
      post(message, transfer);
    });
  return {
    node,
    setSource: (channels, sampleRate) =>
      acknowledged(
        'source',
        { type: 'source', channels, sampleRate },
        channels?.map((c) => c.buffer as ArrayBuffer) ?? [],
      ),
    setPlan: (plan) => acknowledged('plan', { type: 'plan', plan }),
    play: (clips) => post({ type: 'play', clips }),
    stop: () => post({ type: 'stop' }),
    dispose: () => {
      post({ type: 'dispose' });
      node.port.onmessage = null;
      node.disconnect();
    },
  };
};
