/**
 * One 'Master Track' run: the master worker renders (progress by its real stages), then the meter worker
 * measures what came out (integrated loudness, range, true peak, bands) and the waveform overview is built.
 * The status line shows the spec's step for each stage as the work enters it; the bar follows the work.
 */

import { toAudioBuffer } from './audio-decode';
import {
  MasterClient,
  type MasteringProgress,
  type MasteringReport,
  MeterClient,
  masteringStatus,
  RpcRemoteError,
  WorkerCrashedError,
} from './engine-api';
import type { MasteringSettings } from './mastering-constants';
import type { Analysis, JobStatus } from './mastering-state';
import { buildOverview, type Overview } from './overview';

/** Share of the bar the render takes; the measurement of the result fills the rest. */
const RENDER_SHARE = 0.9;

export type JobFailure =
  | { kind: 'init' }
  | { kind: 'crashed' }
  | { kind: 'effects'; message: string }
  | { kind: 'aborted' };

export interface JobOutput {
  buffer: AudioBuffer;
  overview: Overview;
  analysis: Analysis;
  report: MasteringReport;
}

let master: MasterClient | null = null;
let meter: MeterClient | null = null;
/** Workers start lazily: the route itself loads no worker until someone masters or loads audio. */
export const masterClient = (): MasterClient => (master ??= new MasterClient());
export const meterClient = (): MeterClient => (meter ??= new MeterClient());

export const classifyFailure = (error: unknown, signal: AbortSignal): JobFailure => {
  if (signal.aborted || (error instanceof Error && error.name === 'AbortError')) return { kind: 'aborted' };
  if (error instanceof WorkerCrashedError) return { kind: 'crashed' };
  if (error instanceof RpcRemoteError) return { kind: 'effects', message: error.message };
  if (error instanceof Error && /worker/i.test(error.message)) return { kind: 'init' };
  return { kind: 'effects', message: error instanceof Error ? error.message : String(error) };
};

export const runMasterJob = async (
  source: AudioBuffer,
  job: { settings: MasteringSettings; targetLufs: number; name: string },
  onStatus: (status: JobStatus) => void,
  signal: AbortSignal,
): Promise<JobOutput> => {
  const channels = Array.from({ length: source.numberOfChannels }, (_, c) => source.getChannelData(c));
  let message = masteringStatus('analysing', job.name).message;
  onStatus({ percent: 0, message, running: true });
  const rendered = await masterClient().master(channels, source.sampleRate, {
    settings: job.settings,
    targetLufs: job.targetLufs,
    signal,
    onProgress: (p: MasteringProgress) => {
      message = masteringStatus(p.stage, job.name).message;
      onStatus({ percent: Math.round(p.fraction * RENDER_SHARE * 100), message, running: true });
    },
  });
  // Still the last stage's step ('Finalizing mastered track...'): the result is measured and drawn.
  const measured = await meterClient().measure(rendered.channels, source.sampleRate, {
    bands: true,
    transfer: true,
    signal,
    onProgress: (f) =>
      onStatus({
        percent: Math.round((RENDER_SHARE + f * (1 - RENDER_SHARE) * 0.9) * 100),
        message,
        running: true,
      }),
  });
  const overview = await buildOverview(measured.channels, undefined, signal);
  const buffer = toAudioBuffer(measured.channels, source.sampleRate);
  return {
    buffer,
    overview,
    analysis: { loudness: measured.loudness, bands: measured.bands ?? [] },
    report: rendered.report,
  };
};

/** The original's numbers, measured once after it loads. */
export const analyseSource = async (
  source: AudioBuffer,
  signal: AbortSignal,
): Promise<{ analysis: Analysis; overview: Overview }> => {
  const channels = Array.from({ length: source.numberOfChannels }, (_, c) => source.getChannelData(c));
  const overview = await buildOverview(channels, undefined, signal);
  const measured = await meterClient().measure(channels, source.sampleRate, { bands: true, signal });
  return { overview, analysis: { loudness: measured.loudness, bands: measured.bands ?? [] } };
};
