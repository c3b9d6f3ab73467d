/**
 * One 'Master Track' run: the master worker renders (progress by its real stages); the result becomes a
 * playable AudioBuffer and the mastered state. Its measurement (integrated loudness, range, true peak, bands
 * in the meter worker) and its waveform overview follow in the background and fill the panel when ready.
 * The status line shows the spec's step for each stage as the work enters it; the bar follows the work.
 */

import type { MasteringSettings } from '../mastering-constants';
import type { Analysis, JobStatus } from '../mastering-state';
import type { VersionsOutput } from '../versions/versions-job';
import { copyChannels, toAudioBufferInSlices, touchedAudioBuffer } from './chunked-copy';
import {
  type BandLevel,
  MasterClient,
  type MasteringProgress,
  type MasteringReport,
  MasterPairClient,
  MeterClient,
  masteringStatus,
  pairRenderAvailable,
  RpcRemoteError,
  sharedCopiesInSlices,
  type ToneChoice,
  type TrackAnalysis,
  WorkerCrashedError,
  yieldToEventLoop,
} from './engine-api';
import { buildOverview, type Overview } from './overview';
import { primeSignal } from './prime-signal';

export type JobFailure =
  | { kind: 'init' }
  | { kind: 'crashed' }
  | { kind: 'effects'; message: string }
  | { kind: 'aborted' };

export interface JobOutput {
  buffer: AudioBuffer;
  report: MasteringReport;
  /** The measurement and overview of the master, still running when the output arrives. */
  details: Promise<{ overview: Overview; analysis: Analysis }>;
  /** Issue 18: the versions, when the master was made from a mix's stems. */
  versions?: VersionsOutput;
}

export interface MasterJobSpec {
  settings: MasteringSettings;
  targetLufs: number;
  name: string;
  /** The adaptive chain's choice; absent: the spec chain (the simplified fallback). */
  tone?: ToneChoice;
  /** The source's analysis made when it loaded (of exactly these channels): the render skips that pass. */
  inputAnalysis?: TrackAnalysis;
  /** The source's band levels from the meter when it loaded (the report's input bands): not measured again. */
  inputBands?: BandLevel[];
}

let master: MasterClient | null = null;
let pair: MasterPairClient | null = null;
let meter: MeterClient | null = null;
/** Workers start lazily: the route itself loads no worker until someone masters or loads audio. */
export const masterClient = (): MasterClient => {
  master ??= new MasterClient();
  return master;
};
/** The two-worker render, where the page is cross-origin isolated on two cores or more (decision 141). */
const pairClient = (): MasterPairClient | null => {
  if (!pairRenderAvailable()) return null;
  pair ??= new MasterPairClient();
  return pair;
};
export const meterClient = (): MeterClient => {
  meter ??= new MeterClient();
  return meter;
};

export const classifyFailure = (error: unknown, signal: AbortSignal): JobFailure => {
  if (signal.aborted || (error instanceof Error && error.name === 'AbortError')) return { kind: 'aborted' };
  if (error instanceof WorkerCrashedError) return { kind: 'crashed' };
  if (error instanceof RpcRemoteError) return { kind: 'effects', message: error.message };
  if (error instanceof Error && /worker/i.test(error.message)) return { kind: 'init' };
  return { kind: 'effects', message: error instanceof Error ? error.message : String(error) };
};

const channelsOf = (b: AudioBuffer) =>
  Array.from({ length: b.numberOfChannels }, (_, c) => b.getChannelData(c));

/** Seconds of the loaded track the warm-up renders: enough for V8 to optimise every kernel of the chain. */
export const WARM_UP_SECONDS = 10;
let warming: AbortController | null = null;
/**
 * The loaded track already on shared memory for the two-worker render, copied while the page waited: the
 * first render after the load takes it (and overwrites it), so a click no longer waits for the copy (about
 * 50 ms at 4 minutes). One at a time, for that render only: it costs no memory the render would not take.
 */
let prepared: { source: AudioBuffer; channels: Float32Array[] } | null = null;

/**
 * Readies the render while the page shows a freshly loaded track (decision 158): starts its workers and
 * masters the track's first seconds with `job`'s chain, discarding the result. V8 runs a kernel unoptimised
 * until it has run a while and compiles it beside the job; on two cores that both render, the compile waits.
 * A warm render of 4 minutes took about 15 % less. A real render stops the warm-up at once. On two workers
 * it first copies the track onto shared memory for the first render (`prepared`).
 */
export const warmUpMastering = async (
  source: AudioBuffer,
  job: Omit<MasterJobSpec, 'name' | 'inputAnalysis'>,
  signal: AbortSignal,
  /** The whole track's analysis from the load: the warm-up then skips analysing its head (decision 295). */
  track?: TrackAnalysis,
): Promise<void> => {
  warming?.abort();
  const controller = new AbortController();
  warming = controller;
  const stop = () => controller.abort();
  signal.addEventListener('abort', stop);
  try {
    const frames = Math.min(source.length, Math.round(WARM_UP_SECONDS * source.sampleRate));
    if (frames === 0) return;
    const head = channelsOf(source).map((c) => c.slice(0, frames));
    // Handed the whole track's analysis as its input's, the warm-up plans the chain the click will run and
    // spends no time analysing a head whose result is thrown away: it is done sooner, so a quick click
    // less often waits for its last steps (only its report's input figures are not the head's own).
    const request = {
      settings: job.settings,
      targetLufs: job.targetLufs,
      tone: job.tone,
      inputAnalysis: track,
      signal: controller.signal,
    };
    const two = pairClient();
    // The shared copy first: a click during the warm-up stops it, and the render then still finds the copy
    // (made after the render, a click on a freshly loaded track waited for the copy too, decision 295).
    if (two) {
      const channels = await sharedCopiesInSlices(channelsOf(source), controller.signal);
      prepared = { source, channels };
      // Another file (or none) from now on: the copy goes with the track it was made of.
      signal.addEventListener('abort', () => {
        if (prepared?.source === source) prepared = null;
      });
      await two.master(head, source.sampleRate, request);
    } else await masterClient().master(head, source.sampleRate, { ...request, transfer: true });
  } catch {
    // A warm-up that was stopped or failed costs nothing: the real render starts its workers as before.
  } finally {
    signal.removeEventListener('abort', stop);
    if (warming === controller) warming = null;
  }
};

/** Seconds of generated music the prime masters (decision 298). */
export const PRIME_SECONDS = 6;
let primed = false;

/**
 * Readies the two-worker render before there is a track to warm it with (decision 298): when a file starts
 * to load, starts the two workers and masters a few seconds of generated music with the chain the screen
 * would use now, discarding the result, so V8 has compiled the chain's code by the time the track is ready.
 * Once per page: the workers, and the code V8 optimised in them, live as long as the page does. The single
 * worker is not primed: it analyses the loaded track, which would wait behind the prime. Like the warm-up it
 * is stopped by anything that needs the workers (the track's warm-up, a render).
 */
export const primeMastering = (job: Omit<MasterJobSpec, 'name' | 'inputAnalysis'>): void => {
  const two = primed ? null : pairClient();
  if (!two) return;
  primed = true;
  const controller = new AbortController();
  warming = controller;
  const rate = 44_100;
  void primeSignal(PRIME_SECONDS, rate)
    .then((music) => {
      controller.signal.throwIfAborted();
      return two.master(music, rate, {
        settings: job.settings,
        targetLufs: job.targetLufs,
        tone: job.tone,
        signal: controller.signal,
      });
    })
    .catch(() => {
      // A prime that was stopped or failed costs nothing: the track's warm-up or the render start cold.
    })
    .finally(() => {
      if (warming === controller) warming = null;
    });
};

export const runMasterJob = async (
  source: AudioBuffer,
  job: MasterJobSpec,
  onStatus: (status: JobStatus) => void,
  signal: AbortSignal,
): Promise<JobOutput> => {
  warming?.abort();
  let message = masteringStatus('analysing', job.name).message;
  let percent = 0;
  onStatus({ percent, message, running: true });
  // Handed the page's analysis, the render reports 'building' at once: one turn of the event loop lets the
  // spec's first step reach the page before it (spec 4's sequence starts with it).
  await yieldToEventLoop();
  const request = {
    settings: job.settings,
    targetLufs: job.targetLufs,
    tone: job.tone,
    inputAnalysis: job.inputAnalysis,
    inputBands: job.inputBands,
    signal,
    // Only what the user can see changing re-renders the page (its work competes with the render's workers).
    onProgress: (p: MasteringProgress) => {
      const next = masteringStatus(p.stage, job.name).message;
      const nextPercent = Math.round(p.fraction * 99);
      if (next === message && nextPercent === percent) return;
      message = next;
      percent = nextPercent;
      onStatus({ percent, message, running: true });
    },
  };
  // The source stays playable: the workers get a copy, made without blocking the page (the pair copies onto
  // shared memory itself; the single worker's copy is moved over).
  const two = pairClient();
  const shared = prepared?.source === source ? prepared.channels : undefined;
  prepared = null;
  // The master's AudioBuffer is made and written once while the workers render, once the page's copy for
  // them is done (decision 298): the page then only copies the result into it.
  let target: Promise<AudioBuffer | null> = Promise.resolve(null);
  const touch = () => {
    target = touchedAudioBuffer(source.numberOfChannels, source.length, source.sampleRate, signal).catch(
      () => null,
    );
  };
  const rendered = two
    ? await two.master(channelsOf(source), source.sampleRate, { ...request, shared, onCopied: touch })
    : await masterClient().master(await copyChannels(channelsOf(source), signal), source.sampleRate, {
        ...request,
        transfer: true,
      });
  return outputOf(rendered.channels, source.sampleRate, rendered.report, signal, true, await target);
};

/**
 * A rendered master as the page keeps it: a playable AudioBuffer now, its measurement and overview in the
 * background. `transfer`: the channels may move to the meter worker (they are not needed afterwards).
 */
export const outputOf = async (
  channels: Float32Array[],
  sampleRate: number,
  report: MasteringReport,
  signal: AbortSignal,
  transfer: boolean,
  /** An AudioBuffer of the result's shape made while it rendered (`touchedAudioBuffer`), to fill. */
  target?: AudioBuffer | null,
): Promise<JobOutput> => {
  const buffer = await toAudioBufferInSlices(channels, sampleRate, target);
  signal.throwIfAborted();
  // The meter worker measures while the page draws the overview.
  const details = Promise.all([
    meterClient().measure(channels, sampleRate, { bands: true, foldDown: true, transfer, signal }),
    yieldToEventLoop().then(() => buildOverview(channelsOf(buffer), undefined, signal)),
  ]).then(([measured, overview]) => ({
    overview,
    analysis: { loudness: measured.loudness, bands: measured.bands ?? [], foldDown: measured.foldDown },
  }));
  return { buffer, report, details };
};

/** The original's numbers, measured once after it loads: the meter's, and the engine's one-pass analysis. */
export const analyseSource = async (
  source: AudioBuffer,
  signal: AbortSignal,
): Promise<{ analysis: Analysis; overview: Overview; track: TrackAnalysis }> => {
  const overview = await buildOverview(channelsOf(source), undefined, signal);
  const track = masterClient().analyse(channelsOf(source), source.sampleRate, signal);
  return { overview, analysis: await measureSource(source, signal), track: await track };
};

/** The meter's reading of a source (loudness, bands, stereo fold-down), from a copy: the source stays playable. */
export const measureSource = async (source: AudioBuffer, signal: AbortSignal): Promise<Analysis> => {
  const work = await copyChannels(channelsOf(source), signal);
  const measured = await meterClient().measure(work, source.sampleRate, {
    bands: true,
    foldDown: true,
    transfer: true,
    signal,
  });
  return { loudness: measured.loudness, bands: measured.bands ?? [], foldDown: measured.foldDown };
};

export type MasterOutcome =
  | { ok: true; output: JobOutput; simplified: boolean }
  | { ok: false; failure: JobFailure };

/**
 * Runs the job; when the chain itself fails, tries once more with loudness and limiting alone (neutral chain
 * settings) — spec 4's 'simplified processing' — rather than handing back the untouched original.
 */
export const masterWithFallback = async (
  source: AudioBuffer,
  job: MasterJobSpec,
  onStatus: (status: JobStatus) => void,
  signal: AbortSignal,
): Promise<MasterOutcome> => {
  try {
    return { ok: true, output: await runMasterJob(source, job, onStatus, signal), simplified: false };
  } catch (error) {
    const failure = classifyFailure(error, signal);
    if (failure.kind !== 'effects') return { ok: false, failure };
  }
  const neutral = {
    compression: 0,
    brightness: 50,
    warmth: 50,
    stereoWidth: 50,
    loudness: job.settings.loudness,
  };
  try {
    return {
      ok: true,
      output: await runMasterJob(source, { ...job, settings: neutral, tone: undefined }, onStatus, signal),
      simplified: true,
    };
  } catch (error) {
    return { ok: false, failure: classifyFailure(error, signal) };
  }
};
