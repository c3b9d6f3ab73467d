/**
 * buildMasteringChain: the mastering chain as a Web Audio sub-graph (an AudioWorkletNode running our
 * kernels, then a playback-only master volume), for a live AudioContext and an OfflineAudioContext alike.
 */
import type { MasteringSettings } from '../../shared/mastering';
import type { AdaptivePlan } from '../dsp/adaptive-plan';
import { masteringLatency } from '../dsp/mastering-chain';
import {
  MASTERING_PROCESSOR_NAME,
  type MasteringNodeEvent,
  type MasteringNodeMessage,
  type MasteringProcessorOptions,
  type VocalSpaceSetting,
} from './mastering-messages';

export interface LevelEvent {
  rms: number;
  peak: number;
  rmsDb: number;
  peakDb: number;
}

export interface MasteringChainOptions {
  /** Loudness-stage gain in dB, as planned by the offline analysis (see the master worker's 'plan'). */
  gainDb?: number;
  /** Level readings every this many ms (spec: 100); 0 turns the meter off. */
  meterIntervalMs?: number;
  onLevel?: (level: LevelEvent) => void;
  /** Playback volume 0-100 (spec: gain volume/100 x 0.8); omit for unity (renders, tests). */
  volume?: number;
  /** Where the worklet module is served; defaults to Vite's bundled URL. */
  workletUrl?: string;
  /** The render's adaptive stages (from the master worker's plan); absent: the spec chain until set. */
  adaptive?: AdaptivePlan | null;
  /** Vocal space (issue 18): amount and the vocal's profile; it acts once a vocal is connected. */
  vocalSpace?: VocalSpaceSetting | null;
}

export interface MasteringChain {
  /** Connect sources here (a whole track, or the beat of a mix with stems). */
  input: AudioNode;
  /** The vocal stem goes to this input of `input`: `vocal.connect(chain.input, 0, chain.vocalInput)`. */
  vocalInput: number;
  /** Connect this to the destination. */
  output: AudioNode;
  worklet: AudioWorkletNode;
  /** The limiter's lookahead: output frame n is input frame n - latencyFrames. */
  latencyFrames: number;
  update(settings: MasteringSettings): void;
  setGainDb(gainDb: number): void;
  /** The analysis-driven stages (tone EQ, mono bass) the render would apply; filters keep their state. */
  setAdaptive(plan: AdaptivePlan | null): void;
  /** Vocal space amount and profile (null: off); the carve's state is kept, so no click. */
  setVocalSpace(setting: VocalSpaceSetting | null): void;
  setVolume(volume: number): void;
  dispose(): void;
}

const loaded = new WeakMap<BaseAudioContext, Map<string, Promise<void>>>();

/**
 * The worklet module's URL: Vite bundles it as its own ES module (`?worker&url`). A dynamic import, so that
 * tools which bundle without Vite (the boundary test, the e2e harness) can still read this file.
 */
const bundledWorkletUrl = async (): Promise<string> =>
  (await import('./mastering.worklet.ts?worker&url')).default;

/** Adds the worklet module to a context once (per URL). */
export const loadMasteringWorklet = async (ctx: BaseAudioContext, workletUrl?: string): Promise<void> => {
  const url = workletUrl ?? (await bundledWorkletUrl());
  let byUrl = loaded.get(ctx);
  if (!byUrl) {
    byUrl = new Map();
    loaded.set(ctx, byUrl);
  }
  let promise = byUrl.get(url);
  if (!promise) {
    promise = ctx.audioWorklet.addModule(url);
    byUrl.set(url, promise);
  }
  return promise;
};

/** Volume 0-100 to the spec's playback gain (volume/100 x 0.8). */
export const playbackGain = (volume: number): number => (Math.min(100, Math.max(0, volume)) / 100) * 0.8;

export const buildMasteringChain = async (
  ctx: BaseAudioContext,
  settings: MasteringSettings,
  options: MasteringChainOptions = {},
): Promise<MasteringChain> => {
  await loadMasteringWorklet(ctx, options.workletUrl);
  const processorOptions: MasteringProcessorOptions = {
    settings,
    gainDb: options.gainDb ?? 0,
    meterIntervalMs: options.meterIntervalMs ?? (options.onLevel ? 100 : 0),
    adaptive: options.adaptive ?? null,
    vocalSpace: options.vocalSpace ?? null,
  };
  const worklet = new AudioWorkletNode(ctx, MASTERING_PROCESSOR_NAME, {
    // 0: the track or the beat; 1: the vocal stem (the vocal-space sidechain, added after the carve).
    numberOfInputs: 2,
    numberOfOutputs: 1,
    outputChannelCount: [2],
    channelCount: 2,
    channelCountMode: 'explicit',
    channelInterpretation: 'speakers',
    processorOptions,
  });
  const volume = new GainNode(ctx, { gain: options.volume === undefined ? 1 : playbackGain(options.volume) });
  worklet.connect(volume);
  const chain: MasteringChain = {
    input: worklet,
    vocalInput: 1,
    output: volume,
    worklet,
    latencyFrames: masteringLatency(ctx.sampleRate),
    update: (next) => post({ type: 'settings', settings: next }),
    setGainDb: (gainDb) => post({ type: 'gain', gainDb }),
    setAdaptive: (plan) => post({ type: 'adaptive', plan }),
    setVocalSpace: (setting) => post({ type: 'vocalSpace', setting }),
    setVolume: (v) => volume.gain.setTargetAtTime(playbackGain(v), ctx.currentTime, 0.01),
    dispose: () => {
      post({ type: 'dispose' });
      worklet.port.onmessage = null;
      worklet.disconnect();
      volume.disconnect();
    },
  };
  function post(message: MasteringNodeMessage) {
    worklet.port.postMessage(message);
  }
  worklet.port.onmessage = (event: MessageEvent<MasteringNodeEvent>) => {
    const data = event.data;
    if (data.type === 'level') options.onLevel?.(data);
  };
  return chain;
};
