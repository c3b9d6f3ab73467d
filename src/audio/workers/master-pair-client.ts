/**
 * The mastering render on two workers (decision 141), with the same result as MasterClient.master on one,
 * bit for bit. The channels are copied once onto SharedArrayBuffers that both workers and the page see:
 * 1. the analysis in halves: one worker measures the levels, the other the spectrum and the band levels;
 * 2. the chain runs as a pipeline: the front half in one worker, the back half (and the measurement of
 *    what it produces) in the other, blocks handed over through shared memory (block-handover.ts);
 * 3. the loudness solve in the back, where the measurement is; the front finds half of the block true peaks of
 *    every gain it tries (true-peak-share.ts) and measures the input's band levels for the report;
 * 4. both apply the final gain and limiter gains, each on half of the track.
 * With the analysis made at load and no copy made before, the copy goes on while the front already runs on
 * the frames copied so far (decision 304).
 * The master comes back on that shared memory, not copied again: a page fills its AudioBuffer from it with
 * TypedArray.set (AudioBuffer.copyToChannel refuses shared memory) and a worker reads it without a copy.
 * Needs cross-origin isolation (SharedArrayBuffer); `pairRenderAvailable()` says whether it is there.
 */
import { bandLevelExcerpt } from '../dsp/band-levels';
import { BlockHandover, createHandoverMemory } from '../dsp/block-handover';
import { mergeCompressorDynamics } from '../dsp/dynamics-stats';
import { createPlanSplitMemory } from '../dsp/limiter-plan-split';
import { truePeakStorage } from '../dsp/loudness-target';
import {
  BLOCK,
  checkRenderInput,
  MASTERING_STAGES,
  type MasteringProgress,
  type MasteringReport,
  type MasterRenderOptions,
  masteringReport,
  renderSteps,
} from '../dsp/mastering-chain';
import type { ChainHalfSetup } from '../dsp/mastering-pipeline';
import { FRONT_BANDS } from '../dsp/multiband-compressor';
import { combineAnalysis } from '../dsp/track-analysis';
import { closePeakShare, createPeakShareMemory } from '../dsp/true-peak-share';
import { yieldToEventLoop } from '../event-loop';
import type { MasterJob } from './master-client';
import type { MasterApi } from './master-protocol';
import { RespawningRpcClient } from './worker-rpc';

const defaultFactory = () => new Worker(new URL('./master-worker.ts', import.meta.url), { type: 'module' });

/** Two cores and shared memory: the two-worker render can run. */
export const pairRenderAvailable = (): boolean =>
  typeof SharedArrayBuffer !== 'undefined' &&
  (globalThis as { crossOriginIsolated?: boolean }).crossOriginIsolated === true &&
  (globalThis.navigator?.hardwareConcurrency ?? 1) >= 2;

/**
 * Copies channels onto SharedArrayBuffers for the workers, a slice at a time with a turn of the event loop in
 * between. A page can make the copy before the render (`PairJob.shared`) while it waits for a click.
 */
export const sharedCopiesInSlices = async (
  channels: readonly Float32Array[],
  signal?: AbortSignal,
  chunk = 1 << 19,
): Promise<Float32Array[]> => {
  const copies = sharedBuffersFor(channels);
  await copyInSlices(channels, copies, signal, chunk);
  return copies;
};

const sharedBuffersFor = (channels: readonly Float32Array[]): Float32Array[] =>
  channels.map((c) => new Float32Array(new SharedArrayBuffer(c.length * 4)));

/** Fills `copies` from `channels` a slice at a time, telling `copied` how far after each slice. */
const copyInSlices = async (
  channels: readonly Float32Array[],
  copies: readonly Float32Array[],
  signal?: AbortSignal,
  chunk = 1 << 19,
  copied?: (end: number) => void,
): Promise<void> => {
  const frames = channels[0]?.length ?? 0;
  for (let start = 0; start < frames; start += chunk) {
    const end = Math.min(frames, start + chunk);
    for (let c = 0; c < channels.length; c++) copies[c]!.set(channels[c]!.subarray(start, end), start);
    copied?.(end);
    await yieldToEventLoop();
    signal?.throwIfAborted();
  }
};

/** As MasterClient's job; the channels are always copied (onto shared memory). */
export type PairJob = Omit<MasterJob, 'transfer'> & {
  /** sharedCopiesInSlices of exactly these channels, made before: the render takes it and overwrites it. */
  shared?: Float32Array[];
  /** Frames per slice of the copy made in the call (default 2^19); tests make it small and slow. */
  copySlice?: number;
  /** Called once the workers have the whole input (the page's copy is done, or there was none to make). */
  onCopied?: () => void;
};

export class MasterPairClient {
  readonly #workers: [RespawningRpcClient<MasterApi>, RespawningRpcClient<MasterApi>];

  constructor(factory: () => Worker = defaultFactory) {
    this.#workers = [
      new RespawningRpcClient<MasterApi>(factory),
      new RespawningRpcClient<MasterApi>(factory),
    ];
  }

  /** Masters a copy of `channels`; the result's channels are on SharedArrayBuffers (see above). */
  async master(
    channels: Float32Array[],
    sampleRate: number,
    job: PairJob,
  ): Promise<{ channels: Float32Array[]; report: MasteringReport }> {
    checkRenderInput(channels);
    const [a, b] = this.#workers;
    const { signal } = job;
    const options: MasterRenderOptions = {
      settings: job.settings,
      targetLufs: job.targetLufs,
      ceilingDb: job.ceilingDb,
      tone: job.tone,
    };
    // Progress from both workers, never moving backwards: neither in fraction nor in stage (the front's last
    // 'processing' report can arrive at the very fraction where the back's 'loudness' already began).
    let shown = 0;
    let shownStage = 0;
    const onProgress = (p: MasteringProgress) => {
      const stage = MASTERING_STAGES.indexOf(p.stage);
      if (p.fraction < shown || stage < shownStage) return;
      shown = p.fraction;
      shownStage = stage;
      job.onProgress?.(p);
    };
    // With the analysis made at load and no copy made before, the copy goes on while the front already runs
    // on the frames copied so far (decision 304): the chain's first blocks overlap the copy's last slices.
    const streamIn = !job.shared && job.inputAnalysis !== undefined;
    const work =
      job.shared ??
      (streamIn ? sharedBuffersFor(channels) : await sharedCopiesInSlices(channels, signal, job.copySlice));
    if (work.length !== channels.length || work[0]?.length !== channels[0]?.length)
      throw new RangeError('the shared copy is not of these channels');
    signal?.throwIfAborted();
    const frames = work[0]!.length;
    const call = { signal };

    // The report's band levels of the input: the page's, measured when the track loaded, or measured by the
    // front in a pause of the loudness solve from the few frames they read (the chain overwrites `work`).
    const bandsInput = job.inputBands ? null : bandLevelExcerpt(channels);

    onProgress({ stage: 'analysing', fraction: 0 });
    // The analysis in two halves (levels | spectrum), unless made at load.
    const analyse = async () => {
      const [levels, spectrum] = await Promise.all([
        a.call('trackLevels', { channels: work, sampleRate }, call),
        b.call('trackSpectrum', { channels: work }, call),
      ]);
      return combineAnalysis(levels, spectrum);
    };
    const own = job.inputAnalysis ?? (await analyse());
    onProgress({ stage: 'building', fraction: 0.08 });

    const setup: ChainHalfSetup = { sampleRate, channels: work.length, frames, options, analysis: own };
    const memory = createHandoverMemory(work.length, BLOCK, true);
    const handover = new BlockHandover(memory);
    if (streamIn) handover.streamInput();
    else job.onCopied?.();
    // A cancel, or either side failing, stops the other (it may be waiting on the hand-over).
    // The loudness solve's share, once made: closed on a cancel too (a worker may be waiting on it).
    let closeShare = () => {};
    const stop = () => {
      handover.stop();
      closeShare();
    };
    signal?.addEventListener('abort', stop);
    try {
      const failed = (e: unknown) => {
        stop();
        throw e;
      };
      const [frontDynamics, { measurement, start, adaptive, dynamics: backDynamics }] = await Promise.all([
        a.call('chainFront', { channels: work, setup, memory }, { signal, onProgress }).catch(failed),
        b.call('chainBack', { channels: work, setup, memory }, { signal, onProgress }).catch(failed),
        streamIn
          ? copyInSlices(channels, work, signal, job.copySlice, (end) => handover.inputCopied(end)).then(
              () => job.onCopied?.(),
              failed,
            )
          : undefined,
      ]);
      // The loudness solve in the back; the front finds half of the block true peaks of every gain it tries
      // (claimed chunk by chunk, decision 317), plans the later part of each limiter plan (decision 318) and
      // measures the input's band levels in between.
      renderSteps({ onProgress }).report('loudness', 0);
      const blocks = measurement.sampleMax.length;
      const share = createPeakShareMemory(createPlanSplitMemory(blocks, sampleRate, start.limiter));
      closeShare = () => closePeakShare(share);
      const head = { start, storage: truePeakStorage(blocks, true), share };
      const [solution, bands] = await Promise.all([
        b
          .call('solveLoudness', { channels: work, measurement, setup, head }, { signal, onProgress })
          .catch((e) => {
            closeShare();
            throw e;
          }),
        a
          .call(
            'helpSolve',
            {
              channels: work,
              sampleMax: measurement.sampleMax,
              head,
              sampleRate,
              bands: bandsInput ?? undefined,
            },
            { signal, transfer: bandsInput?.map((c) => c.buffer) },
          )
          .catch((e) => {
            closeShare();
            throw e;
          }),
      ]);
      const inputBands = job.inputBands ?? bands;
      if (!inputBands) throw new Error('The input band levels were not measured.');
      const half = Math.floor(frames / BLOCK / 2) * BLOCK;
      const gains = { channels: work, gainDb: solution.gainDb, boundaryGains: solution.plan.boundaryGains };
      await Promise.all([
        a.call('applyLimiter', { ...gains, from: 0, to: half }, { signal }),
        b.call('applyLimiter', { ...gains, from: half, to: frames }, { signal, onProgress }),
      ]);
      const report = masteringReport(
        work,
        sampleRate,
        options,
        { own, analysis: own, bands: inputBands, adaptive },
        solution,
        mergeCompressorDynamics(frontDynamics, backDynamics, FRONT_BANDS),
      );
      return { channels: work, report };
    } finally {
      signal?.removeEventListener('abort', stop);
    }
  }

  dispose(): void {
    for (const w of this.#workers) w.dispose();
  }
}
