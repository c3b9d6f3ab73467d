/**
 * What the mastering screen calls: resolves the settings and loudness target from the mode and preset
 * (automatic: the preset's settings and target; manual: the sliders, target -20..-8 LUFS from Loudness),
 * then renders in the master worker with progress by real stages and cancellation.
 */
import {
  type MasteringMode,
  type MasteringSettings,
  manualTargetLufs,
  PRESETS,
  type PresetId,
} from '../../shared/mastering';
import type { MasteringProgress, MasteringReport } from '../dsp/mastering-chain';
import { type MasteringStatus, masteringStatus } from '../dsp/mastering-status';
import { MasterClient } from '../workers/master-client';

export interface MasterRequest {
  mode: MasteringMode;
  preset: PresetId;
  /** The manual sliders; ignored in automatic mode. */
  settings?: MasteringSettings;
}

export const resolveMastering = (
  request: MasterRequest,
): { settings: MasteringSettings; targetLufs: number } => {
  const preset = PRESETS[request.preset];
  if (request.mode === 'manual' && request.settings) {
    return { settings: request.settings, targetLufs: manualTargetLufs(request.settings.loudness) };
  }
  return { settings: preset.settings, targetLufs: preset.targetLufs };
};

export interface MasterRenderResult {
  channels: Float32Array[];
  sampleRate: number;
  report: MasteringReport;
}

let sharedClient: MasterClient | null = null;

/** Masters decoded channels in the worker. The caller's channels are copied (the source stays playable). */
export const renderMasterInWorker = async (
  channels: Float32Array[],
  sampleRate: number,
  request: MasterRequest,
  options: {
    signal?: AbortSignal;
    onProgress?: (progress: MasteringProgress) => void;
    /** The spec's status line for each stage as it starts. */
    onStatus?: (status: MasteringStatus) => void;
    client?: MasterClient;
  } = {},
): Promise<MasterRenderResult> => {
  if (!options.client && !sharedClient) sharedClient = new MasterClient();
  const client = options.client ?? sharedClient!;
  const { settings, targetLufs } = resolveMastering(request);
  const presetName = PRESETS[request.preset].name;
  let lastStage: string = 'analysing';
  options.onStatus?.(masteringStatus('analysing', presetName));
  const result = await client.master(channels, sampleRate, {
    settings,
    targetLufs,
    signal: options.signal,
    onProgress: (progress) => {
      options.onProgress?.(progress);
      if (progress.stage !== lastStage) {
        lastStage = progress.stage;
        options.onStatus?.(masteringStatus(progress.stage, presetName));
      }
    },
  });
  options.onStatus?.(masteringStatus('done', presetName));
  return { channels: result.channels, sampleRate, report: result.report };
};

/**
 * The loudness-stage gain a render with this request would apply to these channels, for the live
 * AudioWorklet (`MasteringChain.setGainDb`), so playback is as loud as the download (decision 052).
 */
export const planLiveGainDb = async (
  channels: Float32Array[],
  sampleRate: number,
  request: MasterRequest,
  options: { signal?: AbortSignal; client?: MasterClient } = {},
): Promise<number> => {
  if (!options.client && !sharedClient) sharedClient = new MasterClient();
  const client = options.client ?? sharedClient!;
  const { settings, targetLufs } = resolveMastering(request);
  const plan = await client.plan(channels, sampleRate, { settings, targetLufs, signal: options.signal });
  return plan.gainDb;
};
