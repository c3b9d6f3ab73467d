/**
 * The mastering harness's benchmarks (bench/audio-master.bench.ts drives them through `window.audioHarness`):
 * the render in fresh workers, the spec chain from native nodes, the meter, and the page's idle stall.
 */

import type { BandLevel } from '../../src/audio/dsp/band-levels';
import type { MasteringProgress } from '../../src/audio/dsp/mastering-chain';
import { masteringChainParams } from '../../src/audio/dsp/mastering-processor';
import { musicLike } from '../../src/audio/dsp/test-signals';
import type { TrackAnalysis } from '../../src/audio/dsp/track-analysis';
import { MasterClient } from '../../src/audio/workers/master-client';
import { MasterPairClient, sharedCopiesInSlices } from '../../src/audio/workers/master-pair-client';
import { MeterClient } from '../../src/audio/workers/meter-client';
import { PRESETS, type PresetId } from '../../src/shared/mastering';
import { PRIME_SECONDS, WARM_UP_SECONDS } from '../../src/web/features/mastering/engine/master-job';
import { primeSignal } from '../../src/web/features/mastering/engine/prime-signal';
import { measureStalls } from '../audio-harness-shared/harness-stalls';
import { masterWorker, meterWorker, toBuffer } from './harness-workers';

const signals = new Map<string, Float32Array[]>();
const signal = (seconds: number) => {
  const key = String(seconds);
  if (!signals.has(key)) signals.set(key, musicLike({ seconds, sampleRate: 44100, seed: 1 }));
  return signals.get(key)!;
};

/**
 * One master render in fresh workers (cold JIT, as a user's one-shot export is); `adaptive`: issue 16's
 * chain; `pair`: the two-worker render (decision 141); `loaded`: the analysis was made when the track loaded
 * (as the screen does), so the render skips that pass; `ready` (with `pair` and `loaded`): also what else the
 * screen has done by the time a loaded track's Master Track is clicked, before the timed call: the workers
 * primed on a few seconds of generated music (decision 298) and warmed on the track's first 10 s (decision
 * 158), and the track copied onto shared memory (decision 295).
 */
export const masterBench = async (
  seconds: number,
  preset: PresetId,
  adaptive = false,
  pair = false,
  loaded = false,
  ready = false,
) => {
  const source = signal(seconds);
  const { settings, targetLufs } = PRESETS[preset];
  const client = pair ? new MasterPairClient(masterWorker) : new MasterClient(masterWorker);
  // Start the workers (module load) before timing: the app keeps its workers alive between jobs.
  await client.master([new Float32Array(4096), new Float32Array(4096)], 44100, { settings, targetLufs: -14 });
  let inputAnalysis: TrackAnalysis | undefined;
  let inputBands: BandLevel[] | undefined;
  if (loaded) {
    // What the screen has when a track has loaded: the engine's analysis and the meter's band levels.
    const analyser = new MasterClient(masterWorker);
    inputAnalysis = await analyser.analyse(source, 44100);
    analyser.dispose();
    const meter = new MeterClient(meterWorker);
    inputBands = (await meter.measure(source, 44100, { bands: true })).bands ?? undefined;
    meter.dispose();
  }
  // As the app calls it: the client copies the decoded channels to the worker(s) in slices (part of the job).
  const tone = adaptive ? { preset } : undefined;
  let shared: Float32Array[] | undefined;
  if (ready && client instanceof MasterPairClient) {
    // What master-job.ts's primeMastering and warmUpMastering do on the screen, in their order.
    await client.master(await primeSignal(PRIME_SECONDS, 44100), 44100, { settings, targetLufs, tone });
    const head = source.map((c) => c.slice(0, WARM_UP_SECONDS * 44100));
    await client.master(head, 44100, { settings, targetLufs, tone, inputAnalysis });
    shared = await sharedCopiesInSlices(source);
  }
  // When each stage was first reported, from the call (where the wall time goes, per stage).
  const stages: Record<string, number> = {};
  let started = 0;
  const onProgress = (p: MasteringProgress) => {
    stages[p.stage] ??= performance.now() - started;
  };
  const run = await measureStalls(() => {
    started = performance.now();
    return client.master(source, 44100, {
      settings,
      targetLufs,
      tone,
      inputAnalysis,
      inputBands,
      onProgress,
      shared,
    });
  });
  client.dispose();
  return {
    stages,
    ms: run.ms,
    longestMs: run.longestMs,
    longTaskMs: run.longTaskMs,
    gainDb: run.result.report.gainDb,
    // What the render planned, for the benchmark's equal-work ffmpeg graph (the same EQ sections and bands).
    toneEqDb: run.result.report.adaptive?.toneEqDb ?? null,
    bandDynamics: run.result.report.adaptive?.bandDynamics ?? null,
  };
};

/** The spec's chain from native nodes (biquads + DynamicsCompressor as compressor and as limiter). */
export const nativeBench = async (seconds: number, preset: PresetId, gainDb: number) => {
  const source = signal(seconds);
  const { settings } = PRESETS[preset];
  const p = masteringChainParams(settings, 44100);
  const run = await measureStalls(async () => {
    const ctx = new OfflineAudioContext(2, source[0]!.length, 44100);
    const src = new AudioBufferSourceNode(ctx, { buffer: toBuffer(ctx, source) });
    const hp = new BiquadFilterNode(ctx, { type: 'highpass', frequency: 30, Q: Math.SQRT1_2 });
    const comp = new DynamicsCompressorNode(ctx, {
      threshold: p.compressor.thresholdDb,
      ratio: p.compressor.ratio,
      knee: p.compressor.kneeDb,
      attack: p.compressor.attackMs / 1000,
      release: p.compressor.releaseMs / 1000,
    });
    const low = new BiquadFilterNode(ctx, { type: 'lowshelf', frequency: 200, gain: p.warmthDb });
    const high = new BiquadFilterNode(ctx, { type: 'highshelf', frequency: 8000, gain: p.brightnessDb });
    const peak = new BiquadFilterNode(ctx, { type: 'peaking', frequency: 3000, Q: 1, gain: p.presenceDb });
    // Mid/side width: L' = a L + b R, R' = b L + a R with a = (1 + w) / 2, b = (1 - w) / 2.
    const w = settings.stereoWidth / 50;
    const split = new ChannelSplitterNode(ctx, { numberOfOutputs: 2 });
    const merge = new ChannelMergerNode(ctx, { numberOfInputs: 2 });
    const gains = [(1 + w) / 2, (1 - w) / 2, (1 - w) / 2, (1 + w) / 2].map(
      (g) => new GainNode(ctx, { gain: g }),
    );
    const volume = new GainNode(ctx, { gain: 10 ** (gainDb / 20) });
    const limiter = new DynamicsCompressorNode(ctx, {
      threshold: -1,
      knee: 0,
      ratio: 20,
      attack: 0.001,
      release: 0.05,
    });
    src.connect(hp).connect(comp).connect(low).connect(high).connect(peak).connect(split);
    split.connect(gains[0]!, 0).connect(merge, 0, 0);
    split.connect(gains[1]!, 1).connect(merge, 0, 0);
    split.connect(gains[2]!, 0).connect(merge, 0, 1);
    split.connect(gains[3]!, 1).connect(merge, 0, 1);
    merge.connect(volume).connect(limiter).connect(ctx.destination);
    src.start(0);
    return ctx.startRendering();
  });
  return { ms: run.ms, longestMs: run.longestMs, longTaskMs: run.longTaskMs };
};

/** Full meter (I, LRA, true peak) in a fresh worker. */
export const meterBench = async (seconds: number) => {
  const source = signal(seconds);
  const client = new MeterClient(meterWorker);
  await client.measure([new Float32Array(44100), new Float32Array(44100)], 44100);
  const run = await measureStalls(() => client.measure(source, 44100));
  client.dispose();
  const l = run.result.loudness;
  return {
    ms: run.ms,
    longestMs: run.longestMs,
    longTaskMs: run.longTaskMs,
    integrated: l.integratedLufs,
    range: l.loudnessRangeLu,
    truePeak: l.truePeakDbtp,
  };
};

/** The main thread's longest stall while the page does nothing for `ms`: the machine's noise floor. */
export const idleStall = async (ms: number) =>
  (await measureStalls(() => new Promise((resolve) => setTimeout(resolve, Math.min(ms, 10_000))))).longestMs;

export const prepare = (seconds: number) => {
  signal(seconds);
  return true;
};
