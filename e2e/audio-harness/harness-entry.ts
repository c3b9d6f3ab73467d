/**
 * Browser side of the mastering harness: the real engine modules, driven by e2e specs and benchmarks
 * through `window.audioHarness`.
 */

import type { AdaptivePlan } from '../../src/audio/dsp/adaptive-plan';
import { measureLoudness } from '../../src/audio/dsp/loudness';
import { masteringLatency } from '../../src/audio/dsp/mastering-chain';
import { musicLike, shapedNoise } from '../../src/audio/dsp/test-signals';
import { analyseTrack } from '../../src/audio/dsp/track-analysis';
import { buildMasteringChain, type LevelEvent, type VocalSpaceSetting } from '../../src/audio/graph';
import { MasterClient } from '../../src/audio/workers/master-client';
import {
  MasterPairClient,
  pairRenderAvailable,
  sharedCopiesInSlices,
} from '../../src/audio/workers/master-pair-client';
import { MeterClient } from '../../src/audio/workers/meter-client';
import { RpcClient, type RpcEndpoint, WorkerCrashedError } from '../../src/audio/workers/worker-rpc';
import { type MasteringSettings, PRESETS, type PresetId } from '../../src/shared/mastering';
import { idleStall, masterBench, meterBench, nativeBench, prepare } from './harness-benches';
import { masterWorker, meterWorker, toBuffer } from './harness-workers';

/** Renders `source` through buildMasteringChain (the AudioWorklet) in an OfflineAudioContext. */
const renderWithWorklet = async (
  source: Float32Array[],
  sampleRate: number,
  settings: MasteringSettings,
  gainDb: number,
  onLevel?: (level: LevelEvent) => void,
  change?: { atSeconds: number; settings: MasteringSettings },
  adaptive: AdaptivePlan | null = null,
  stems?: { vocal: Float32Array[]; vocalSpace: VocalSpaceSetting },
) => {
  const frames = source[0]!.length;
  const latency = masteringLatency(sampleRate);
  const ctx = new OfflineAudioContext(2, frames + latency, sampleRate);
  const node = new AudioBufferSourceNode(ctx, { buffer: toBuffer(ctx, source) });
  const chain = await buildMasteringChain(ctx, settings, {
    gainDb,
    onLevel,
    meterIntervalMs: onLevel ? 100 : 0,
    adaptive,
    vocalSpace: stems?.vocalSpace,
  });
  node.connect(chain.input);
  chain.output.connect(ctx.destination);
  node.start(0);
  if (stems) {
    // The vocal stem into the worklet's second input, started on the same frame as the beat.
    const vocal = new AudioBufferSourceNode(ctx, { buffer: toBuffer(ctx, stems.vocal) });
    vocal.connect(chain.input, 0, chain.vocalInput);
    vocal.start(0);
  }
  if (change) {
    void ctx.suspend(change.atSeconds).then(() => {
      chain.update(change.settings);
      void ctx.resume();
    });
  }
  const rendered = await ctx.startRendering();
  return { rendered, latency: chain.latencyFrames };
};

/** `withReference`: reference mastering toward a darker noise track (issue 16, decision 115). */
const equality = async (preset: PresetId, seconds: number, sampleRate: number, withReference = false) => {
  const { settings } = PRESETS[preset];
  const source = musicLike({ seconds, sampleRate, seed: 5 });
  const reference = withReference
    ? analyseTrack(
        shapedNoise({
          sampleRate,
          log2Frames: 19,
          seed: 3,
          shapeDb: (hz) => -1.5 * Math.log2(hz / 100),
          rmsDb: -14,
        }),
        sampleRate,
      )
    : undefined;
  const targetLufs = reference?.integratedLufs ?? PRESETS[preset].targetLufs;
  const tone = reference ? { preset, toneMatch: 100, reference } : undefined;
  const client = new MasterClient(masterWorker);
  const { channels, report } = await client.master(source, sampleRate, { settings, targetLufs, tone });
  client.dispose();
  const { rendered, latency } = await renderWithWorklet(
    source,
    sampleRate,
    settings,
    report.gainDb,
    undefined,
    undefined,
    report.adaptive,
  );
  const frames = source[0]!.length;
  let worst = 0;
  let nonFinite = 0;
  for (let c = 0; c < 2; c++) {
    const live = rendered.getChannelData(c);
    const offline = channels[c]!;
    for (let i = 0; i < frames; i++) {
      const d = Math.abs(live[i + latency]! - offline[i]!);
      if (!Number.isFinite(d)) nonFinite++;
      else if (d > worst) worst = d;
    }
  }
  const measured = measureLoudness(channels, sampleRate);
  return {
    worst,
    nonFinite,
    frames,
    outFrames: channels[0]!.length,
    latency,
    gainDb: report.gainDb,
    integrated: measured.integratedLufs,
    truePeak: measured.truePeakDbtp,
    targetLufs,
    referenceSections: report.adaptive?.sideEqDb?.length ?? 0,
  };
};

/**
 * A vocal-like stem (the browser has no espeak-ng): a gliding 180-300 Hz voice with harmonics to 5 kHz in
 * 2 s phrases with 1 s rests, at `levelDb` under full scale.
 */
const vocalLike = (seconds: number, sampleRate: number, levelDb: number): Float32Array[] => {
  const frames = Math.round(seconds * sampleRate);
  const out = new Float32Array(frames);
  let phase = 0;
  const a = 10 ** (levelDb / 20);
  for (let i = 0; i < frames; i++) {
    const t = i / sampleRate;
    const inPhrase = t % 3;
    if (inPhrase >= 2) continue;
    const env = Math.min(1, inPhrase / 0.05, (2 - inPhrase) / 0.05);
    const f0 = 180 + 120 * (0.5 + 0.5 * Math.sin(2 * Math.PI * 0.4 * t));
    phase += (2 * Math.PI * f0) / sampleRate;
    let v = 0;
    for (let k = 1; k * f0 < 5000; k++) v += Math.sin(k * phase) / k;
    out[i] = a * env * v * 0.3;
  }
  return [out, out.slice()];
};

/**
 * Vocal space (issue 18): the worker's carve + master of beat + vocal gives the samples the worklet plays
 * with the beat on input 0 and the vocal on input 1.
 */
const vocalSpaceEquality = async (amount: number, seconds: number, sampleRate: number) => {
  const { settings, targetLufs } = PRESETS.balanced;
  const beat = musicLike({ seconds, sampleRate, seed: 5 });
  const vocal = vocalLike(seconds, sampleRate, -26);
  const client = new MasterClient(masterWorker);
  const carved = await client.vocalSpace(beat, vocal, sampleRate, { amount });
  const mix = carved.beat.map((c, ch) => Float32Array.from(c, (x, i) => x + vocal[ch]![i]!));
  const { channels, report } = await client.master(mix, sampleRate, { settings, targetLufs });
  client.dispose();
  const { rendered, latency } = await renderWithWorklet(
    beat,
    sampleRate,
    settings,
    report.gainDb,
    undefined,
    undefined,
    null,
    { vocal, vocalSpace: { amount, profile: carved.profile } },
  );
  let worst = 0;
  let nonFinite = 0;
  let carvedAway = 0;
  for (let c = 0; c < 2; c++) {
    const live = rendered.getChannelData(c);
    for (let i = 0; i < mix[0]!.length; i++) {
      const d = Math.abs(live[i + latency]! - channels[c]![i]!);
      if (!Number.isFinite(d)) nonFinite++;
      else if (d > worst) worst = d;
      carvedAway = Math.max(carvedAway, Math.abs(carved.beat[c]![i]! - beat[c]![i]!));
    }
  }
  return { worst, nonFinite, carvedAway, clarityDb: carved.clarity.clarityDb, profile: carved.profile };
};

/** Level readings come every 100 ms, and a settings message changes the sound from that point on. */
const liveControls = async () => {
  const sampleRate = 44100;
  const source = musicLike({ seconds: 4, sampleRate, seed: 8 });
  const levels: LevelEvent[] = [];
  const base = PRESETS.balanced.settings;
  const bright = { ...base, brightness: 100, warmth: 0 };
  const a = await renderWithWorklet(source, sampleRate, base, 0, (l) => levels.push(l));
  const b = await renderWithWorklet(source, sampleRate, base, 0, undefined, {
    atSeconds: 2,
    settings: bright,
  });
  // Port messages from an offline render may trail it: wait until the count stops growing.
  for (let last = -1; last !== levels.length; ) {
    last = levels.length;
    await new Promise((r) => setTimeout(r, 200));
  }
  const diff = (from: number, to: number) => {
    let d = 0;
    const x = a.rendered.getChannelData(0);
    const y = b.rendered.getChannelData(0);
    for (let i = from; i < to; i++) d = Math.max(d, Math.abs(x[i]! - y[i]!));
    return d;
  };
  return {
    readings: levels.length,
    peaksFinite: levels.every((l) => Number.isFinite(l.peak) && l.peak > 0),
    beforeChange: diff(0, 1.9 * sampleRate),
    afterChange: diff(2.1 * sampleRate, 3.9 * sampleRate),
  };
};

/** A real worker that dies: every pending call rejects with WorkerCrashedError. */
const crash = async () => {
  const code = "self.onmessage = () => setTimeout(() => { throw new Error('boom'); }, 20);";
  const url = URL.createObjectURL(new Blob([code], { type: 'text/javascript' }));
  const worker = new Worker(url);
  const client = new RpcClient<{ x: { request: number; response: number; progress: never } }>(
    worker as unknown as RpcEndpoint,
  );
  const results = await Promise.allSettled([client.call('x', 1), client.call('x', 2), client.call('x', 3)]);
  const later = await client.call('x', 4).then(
    () => 'resolved',
    (e) => (e instanceof WorkerCrashedError ? 'crashed' : String(e)),
  );
  URL.revokeObjectURL(url);
  return {
    rejected: results.map((r) =>
      r.status === 'rejected' && r.reason instanceof WorkerCrashedError ? 'crashed' : r.status,
    ),
    later,
    pending: client.pendingCount,
  };
};

/** The meter worker reads what the meter reads in the page; the plan's gain is the render's gain. */
const workersAgree = async () => {
  const sampleRate = 44100;
  const source = musicLike({ seconds: 12, sampleRate, seed: 12 });
  const meter = new MeterClient(meterWorker);
  const inWorker = await meter.measure(source, sampleRate, { bands: true });
  meter.dispose();
  const inPage = measureLoudness(source, sampleRate);
  const master = new MasterClient(masterWorker);
  const { settings, targetLufs } = PRESETS.balanced;
  const plan = await master.plan(source, sampleRate, { settings, targetLufs });
  const render = await master.master(source, sampleRate, { settings, targetLufs });
  master.dispose();
  return {
    integrated: [inWorker.loudness.integratedLufs, inPage.integratedLufs],
    range: [inWorker.loudness.loudnessRangeLu, inPage.loudnessRangeLu],
    truePeak: [inWorker.loudness.truePeakDbtp, inPage.truePeakDbtp],
    bands: inWorker.bands?.length ?? 0,
    returned: inWorker.channels[0]!.length,
    planGain: plan.gainDb,
    renderGain: render.report.gainDb,
  };
};

/**
 * The two-worker render against the one-worker render of the same input (decision 141): how many samples
 * differ and by how much, and whether the reports agree. A cancel halfway stops both workers.
 */
const pairEquality = async (preset: PresetId, seconds: number, channelCount: number, adaptive: boolean) => {
  const source = musicLike({ seconds, sampleRate: 44100, seed: 9 }).slice(0, channelCount);
  const { settings, targetLufs } = PRESETS[preset];
  const tone = adaptive ? { preset } : undefined;
  const single = new MasterClient(masterWorker);
  const one = await single.master(source, 44100, { settings, targetLufs, tone });
  single.dispose();
  const pair = new MasterPairClient(masterWorker);
  const two = await pair.master(source, 44100, { settings, targetLufs, tone });
  let differing = 0;
  let worst = 0;
  for (let c = 0; c < one.channels.length; c++)
    for (let i = 0; i < one.channels[c]!.length; i++) {
      const d = Math.abs(one.channels[c]![i]! - two.channels[c]![i]!);
      if (d !== 0) differing++;
      if (d > worst) worst = d;
    }
  // Cancel while the chain runs: the call rejects with an AbortError, and the pair masters again after it.
  const controller = new AbortController();
  let cancelled = '';
  const stages: string[] = [];
  const running = pair.master(source, 44100, {
    settings,
    targetLufs,
    tone,
    signal: controller.signal,
    onProgress: (p) => {
      stages.push(p.stage);
      if (p.stage === 'processing' && !controller.signal.aborted) controller.abort();
    },
  });
  await running.catch((e: Error) => {
    cancelled = e.name;
  });
  // Again, from a shared copy made before the call (as the page prepares one at load).
  const shared = await sharedCopiesInSlices(source);
  const again = await pair.master(source, 44100, { settings, targetLufs, tone, shared });
  let againDiffering = 0;
  for (let c = 0; c < one.channels.length; c++)
    for (let i = 0; i < one.channels[c]!.length; i++)
      if (one.channels[c]![i] !== again.channels[c]![i]) againDiffering++;
  // With the analysis made at load (as the screen has it) and no copy before: the copy goes on while the
  // front runs (decision 304), against the one-worker render with the same analysis. In slices of 64 frames,
  // a turn of the event loop each, the copy is slower than the front: the front must wait for it. The pair
  // also gets the meter's band levels of the source, as the screen hands them over (decision 307): the
  // one-worker render measures its own, so the same report says they are the same.
  const inputAnalysis = analyseTrack(source, 44100);
  const job = { settings, targetLufs, tone, inputAnalysis };
  const loadedSingle = new MasterClient(masterWorker);
  const oneLoaded = await loadedSingle.master(source, 44100, job);
  loadedSingle.dispose();
  const meter = new MeterClient(meterWorker);
  const inputBands = (await meter.measure(source, 44100, { bands: true })).bands ?? undefined;
  meter.dispose();
  const streamed = await pair.master(source, 44100, { ...job, inputBands, copySlice: 64 });
  let streamedDiffering = 0;
  for (let c = 0; c < oneLoaded.channels.length; c++)
    for (let i = 0; i < oneLoaded.channels[c]!.length; i++)
      if (oneLoaded.channels[c]![i] !== streamed.channels[c]![i]) streamedDiffering++;
  pair.dispose();
  return {
    available: pairRenderAvailable(),
    streamedDiffering,
    sameReportStreamed: JSON.stringify(oneLoaded.report) === JSON.stringify(streamed.report),
    frames: one.channels[0]!.length,
    pairFrames: two.channels[0]!.length,
    differing,
    worst,
    sameReport: JSON.stringify(one.report) === JSON.stringify(two.report),
    cancelled,
    againDiffering,
    againTookCopy: again.channels.every((c, i) => c === shared[i]),
    sameReportAgain: JSON.stringify(one.report) === JSON.stringify(again.report),
  };
};

const harness = {
  equality,
  vocalSpaceEquality,
  liveControls,
  crash,
  workersAgree,
  masterBench,
  pairEquality,
  nativeBench,
  meterBench,
  idleStall,
  prepare,
};
export type AudioHarness = typeof harness;

declare global {
  interface Window {
    audioHarness: AudioHarness;
  }
}

window.audioHarness = harness;
document.body.dataset.state = 'ready';
