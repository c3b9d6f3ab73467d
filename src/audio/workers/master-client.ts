import type { MasteringSettings } from '../../shared/mastering';
import type { AdaptivePlan, ToneChoice } from '../dsp/adaptive-plan';
import type { BandLevel } from '../dsp/band-levels';
import type { MasteringProgress, MasteringReport } from '../dsp/mastering-chain';
import type { TrackAnalysis } from '../dsp/track-analysis';
import type { VocalClarity } from '../dsp/vocal-clarity';
import type { VocalSpaceProfile } from '../dsp/vocal-space';
import { copyChannelsInSlices } from '../sliced-copy';
import type { MasterApi } from './master-protocol';
import { buffersOf, RespawningRpcClient } from './worker-rpc';

const defaultFactory = () => new Worker(new URL('./master-worker.ts', import.meta.url), { type: 'module' });

export interface MasterJob {
  settings: MasteringSettings;
  targetLufs: number;
  ceilingDb?: number;
  signal?: AbortSignal;
  onProgress?: (progress: MasteringProgress) => void;
  /** Move the caller's channels to the worker instead of copying them (they are detached afterwards). */
  transfer?: boolean;
  /** The adaptive chain's choice (preset curve, Tone match); absent: the spec chain. */
  tone?: ToneChoice;
  /** The analysis of exactly these channels, made before (when the track loaded): not measured again. */
  inputAnalysis?: TrackAnalysis;
  /** The band levels of exactly these channels, measured when the track loaded: not measured again. */
  inputBands?: BandLevel[];
}

/** The page's side of the master worker. */
export class MasterClient {
  #rpc: RespawningRpcClient<MasterApi>;

  constructor(factory: () => Worker = defaultFactory) {
    this.#rpc = new RespawningRpcClient<MasterApi>(factory);
  }

  async master(
    channels: Float32Array[],
    sampleRate: number,
    job: MasterJob,
  ): Promise<{ channels: Float32Array[]; report: MasteringReport }> {
    const work = job.transfer ? channels : await copyChannelsInSlices(channels);
    return this.#rpc.call(
      'master',
      {
        channels: work,
        sampleRate,
        settings: job.settings,
        targetLufs: job.targetLufs,
        ceilingDb: job.ceilingDb,
        tone: job.tone,
        inputAnalysis: job.inputAnalysis,
        inputBands: job.inputBands,
      },
      { signal: job.signal, onProgress: job.onProgress, transfer: buffersOf(work) },
    );
  }

  /**
   * Issue 18: a mix's versions through one master (decision 150). The stems are moved to the worker (they
   * are detached afterwards); the versions come back as transferred channels.
   */
  async versions(
    stems: { vocals: Float32Array[]; instrumental: Float32Array[] },
    versions: MasterApi['versions']['request']['versions'],
    sampleRate: number,
    job: Omit<MasterJob, 'transfer' | 'ceilingDb'>,
  ): Promise<MasterApi['versions']['response']> {
    return this.#rpc.call(
      'versions',
      {
        vocals: stems.vocals,
        instrumental: stems.instrumental,
        versions,
        sampleRate,
        settings: job.settings,
        targetLufs: job.targetLufs,
        tone: job.tone,
      },
      {
        signal: job.signal,
        onProgress: job.onProgress,
        transfer: buffersOf([...stems.vocals, ...stems.instrumental]),
      },
    );
  }

  /**
   * The loudness-stage gain a render with these settings would apply (the live path plays with it, so the
   * preview is as loud as the download). The channels are copied.
   */
  async plan(
    channels: Float32Array[],
    sampleRate: number,
    job: Omit<MasterJob, 'transfer' | 'ceilingDb' | 'inputAnalysis'> & { analysis?: TrackAnalysis },
  ): Promise<{
    gainDb: number;
    predictedLufs: number;
    processedLufs: number;
    adaptive: AdaptivePlan | null;
  }> {
    const work = await copyChannelsInSlices(channels);
    return this.#rpc.call(
      'plan',
      {
        channels: work,
        sampleRate,
        settings: job.settings,
        targetLufs: job.targetLufs,
        tone: job.tone,
        analysis: job.analysis,
      },
      { signal: job.signal, onProgress: job.onProgress, transfer: buffersOf(work) },
    );
  }

  /**
   * Vocal space (issue 18): a copy of `beat` carved by `vocal` (the caller's stems are left as they are),
   * with the vocal's profile and the vocal-band clarity figure.
   */
  async vocalSpace(
    beat: Float32Array[],
    vocal: Float32Array[],
    sampleRate: number,
    job: {
      amount: number;
      profile?: VocalSpaceProfile;
      signal?: AbortSignal;
      onProgress?: (f: number) => void;
    },
  ): Promise<{ beat: Float32Array[]; profile: VocalSpaceProfile; clarity: VocalClarity }> {
    const b = await copyChannelsInSlices(beat);
    const v = await copyChannelsInSlices(vocal);
    const result = await this.#rpc.call(
      'vocalSpace',
      { beat: b, vocal: v, sampleRate, amount: job.amount, profile: job.profile },
      {
        signal: job.signal,
        onProgress: (p) => job.onProgress?.(p.fraction),
        transfer: [...buffersOf(b), ...buffersOf(v)],
      },
    );
    return { beat: result.beat, profile: result.profile, clarity: result.clarity };
  }

  /** The one-pass analysis of a whole track (spectrum, dynamics, stereo); the channels are copied. */
  async analyse(channels: Float32Array[], sampleRate: number, signal?: AbortSignal): Promise<TrackAnalysis> {
    const work = await copyChannelsInSlices(channels);
    return this.#rpc.call('analyse', { channels: work, sampleRate }, { signal, transfer: buffersOf(work) });
  }

  dispose(): void {
    this.#rpc.dispose();
  }
}
