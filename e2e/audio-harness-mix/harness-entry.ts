/**
 * The browser side of the mix/codec harness: real engine modules and real workers, driven by Playwright
 * through `window.mixHarness`. Results come back as plain numbers so the specs can assert on them.
 */
import { decodeWav } from '../../src/audio/codecs/wav-decoder';
import { computePeaks } from '../../src/audio/dsp/peaks';
import { MixerEngine } from '../../src/audio/engine/mixer-engine';
import { WebAudioPlayback } from '../../src/audio/engine/web-audio-playback';
import { MIX_STYLES } from '../../src/audio/model/mix-styles';
import { previewWindow } from '../../src/audio/model/preview-window';
import { timelineLength } from '../../src/audio/model/timeline';
import { organiseStem } from '../../src/audio/render/mix-organise';
import { MIX_STAGES } from '../../src/audio/render/mix-stages';
import { EncoderClient } from '../../src/audio/workers/encode-client';
import { MixClient } from '../../src/audio/workers/mix-client';
import { PeaksClient } from '../../src/audio/workers/peaks-client';
import { measureStalls } from '../audio-harness-shared/harness-stalls';
import { pitchHarness } from './harness-pitch';
import { int16Ramp, musicLike, voiceLike } from './harness-signals';
import { studioHarness } from './harness-studio';

const moduleWorker = (name: string) => () => new Worker(`/${name}.js`, { type: 'module' });
const encoder = new EncoderClient(moduleWorker('encode-worker'));
const peaksClient = new PeaksClient(moduleWorker('peaks-worker'));

const decode = async (blob: Blob, sampleRate: number): Promise<AudioBuffer> => {
  const ctx = new OfflineAudioContext(1, 1, sampleRate);
  return ctx.decodeAudioData(await blob.arrayBuffer());
};

/** Checks every MPEG frame header: 11-bit sync, MPEG-1, Layer III; returns the frame count. */
const mpegFrames = (bytes: Uint8Array): number => {
  const bitrates = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320];
  const rates = [44_100, 48_000, 32_000];
  let at = 0;
  let frames = 0;
  while (at + 4 <= bytes.length) {
    if (bytes[at] !== 0xff || (bytes[at + 1]! & 0xfe) !== 0xfa) return -1;
    const bitrate = bitrates[bytes[at + 2]! >>> 4]!;
    const rate = rates[(bytes[at + 2]! >>> 2) & 3]!;
    at += Math.floor((144_000 * bitrate) / rate) + ((bytes[at + 2]! >>> 1) & 1);
    frames++;
  }
  return at === bytes.length ? frames : -1;
};

const maxAbsDiff = (a: Float32Array, b: Float32Array, from = 0, to = Math.min(a.length, b.length)) => {
  let d = 0;
  for (let i = from; i < to; i++) d = Math.max(d, Math.abs(a[i]! - b[i]!));
  return d;
};

/** A clip that plays a whole source from the start of the timeline. */
const wholeClip = (trackType: 'vocals' | 'instrumental', frames: number) => ({
  id: `${trackType}-clip`,
  trackType,
  sourceStart: 0,
  sourceEnd: frames,
  position: 0,
});

/** A fresh mix worker holding both sources, and a whole-source clip of each. */
const mixWorkerWith = async (vocals: Float32Array[], inst: Float32Array[], sampleRate: number) => {
  const mix = new MixClient(moduleWorker('mix-worker'));
  await mix.setSource('vocals', vocals, sampleRate);
  await mix.setSource('instrumental', inst, sampleRate);
  return { mix, clips: [wholeClip('vocals', vocals[0]!.length), wholeClip('instrumental', inst[0]!.length)] };
};

let prepared: (() => Promise<number>) | null = null;

/** Tracks generated once per length and reused by the benchmarks (copies go to the workers). */
const benchTracks = new Map<number, Float32Array[]>();
const benchTrack = (seconds: number, seed = 1) => {
  const key = seconds * 100 + seed;
  if (!benchTracks.has(key)) benchTracks.set(key, musicLike(seconds, 44_100, 2, seed));
  return benchTracks.get(key)!;
};

const harness = {
  /** WAV through the worker, read back by Chromium's decoder and by ours: both must be bit-exact. */
  async wavRoundTrip(frames: number, sampleRate: number) {
    const ints = [int16Ramp(frames, 3), int16Ramp(frames, 4)];
    const floats = ints.map((ch) => Float32Array.from(ch, (v) => v / 32768));
    const progress: number[] = [];
    const blob = await encoder.wav(floats, sampleRate, {
      dither: false,
      onProgress: (f) => progress.push(f),
    });
    const audio = await decode(blob, sampleRate);
    // Chromium turns 16-bit samples into floats asymmetrically (negative / 32768, positive / 32767), so its
    // integers come back with the matching factor.
    let chromiumMismatches = 0;
    for (let c = 0; c < 2; c++) {
      const data = audio.getChannelData(c);
      for (let i = 0; i < frames; i++) {
        const v = data[i]!;
        if (Math.round(v < 0 ? v * 32768 : v * 32767) !== ints[c]![i]) chromiumMismatches++;
      }
    }
    const ours = decodeWav(new Uint8Array(await blob.arrayBuffer()));
    let oursMismatches = 0;
    for (let c = 0; c < 2; c++)
      for (let i = 0; i < frames; i++) if (ours.int16![c]![i] !== ints[c]![i]) oursMismatches++;
    return {
      type: blob.type,
      size: blob.size,
      length: audio.length,
      channels: audio.numberOfChannels,
      sampleRate: audio.sampleRate,
      chromiumMismatches,
      oursMismatches,
      lastProgress: progress.at(-1),
    };
  },

  /** A long dithered WAV from two workers and from one: the bytes must be identical. */
  async wavTwoWorkers(seconds: number, sampleRate: number) {
    const input = musicLike(seconds, sampleRate, 2, 5);
    const one = new Uint8Array(await (await encoder.wav(input, sampleRate, { workers: 1 })).arrayBuffer());
    const progress: number[] = [];
    const blob = await encoder.wav(input, sampleRate, { workers: 2, onProgress: (f) => progress.push(f) });
    const two = new Uint8Array(await blob.arrayBuffer());
    let differing = 0;
    for (let i = 0; i < Math.min(one.length, two.length); i++) if (one[i] !== two[i]) differing++;
    const audio = await decode(blob, sampleRate);
    return {
      sizes: [one.length, two.length],
      differing,
      length: audio.length,
      lastProgress: progress.at(-1),
    };
  },

  async wavErrors() {
    const messages: string[] = [];
    try {
      await encoder.wav([new Float32Array(0)], 44_100);
    } catch (e) {
      messages.push((e as Error).message);
    }
    return messages;
  },

  /** MP3 through the worker, decoded by Chromium. */
  async mp3(seconds: number, sampleRate: number, channelCount: number) {
    const input = musicLike(seconds, sampleRate, channelCount);
    const progress: number[] = [];
    const blob = await encoder.mp3(input, sampleRate, { onProgress: (f) => progress.push(f) });
    const bytes = new Uint8Array(await blob.arrayBuffer());
    const audio = await decode(blob, sampleRate);
    // Gapless: decoded samples line up with the input (correlation at lag 0 over the middle).
    let xy = 0;
    let xx = 0;
    let yy = 0;
    const x = input[0]!;
    const y = audio.getChannelData(0);
    for (let i = Math.floor(x.length / 4); i < Math.floor((3 * x.length) / 4); i++) {
      xy += x[i]! * y[i]!;
      xx += x[i]! * x[i]!;
      yy += y[i]! * y[i]!;
    }
    return {
      type: blob.type,
      bytes: bytes.length,
      frames: mpegFrames(bytes),
      inputLength: input[0]!.length,
      decodedLength: audio.length,
      channels: audio.numberOfChannels,
      correlation: xy / Math.sqrt(xx * yy),
      progressMonotonic: progress.every((p, i) => i === 0 || p >= progress[i - 1]!),
      lastProgress: progress.at(-1),
    };
  },

  async mp3Cancel() {
    const input = musicLike(60, 44_100, 2);
    const controller = new AbortController();
    const started = performance.now();
    try {
      await encoder.mp3(input, 44_100, {
        signal: controller.signal,
        onProgress: (f) => {
          if (f > 0.1) controller.abort();
        },
      });
      return { name: 'resolved', ms: 0, after: '' };
    } catch (e) {
      const ms = performance.now() - started;
      // The worker is still usable after a cancel.
      const after = await encoder.mp3(musicLike(1, 44_100, 1), 44_100);
      return { name: (e as Error).name, ms, after: after.type };
    }
  },

  async peaks(seconds: number) {
    const input = musicLike(seconds, 44_100, 2);
    const reference = await computePeaks(input);
    const levels = await peaksClient.peaks(
      input.map((c) => c.slice()),
      { transfer: true },
    );
    return {
      levels: levels.map((l) => [l.samplesPerPeak, l.min.length]),
      equal: levels.every(
        (l, k) => maxAbsDiff(l.min, reference[k]!.min) === 0 && maxAbsDiff(l.max, reference[k]!.max) === 0,
      ),
    };
  },

  /**
   * Live path vs render path: the engine schedules AudioBufferSourceNodes on an OfflineAudioContext, and the
   * mix renderer's organise stage lays out the same clips; the two must give the same samples.
   */
  async engineMatchesOrganise(sampleRate: number) {
    const seconds = 6;
    const [voice] = voiceLike(seconds, sampleRate);
    const n = timelineLength({ sampleRate, sources: {}, clips: [], selectedId: null });
    const ctx = new OfflineAudioContext(2, n, sampleRate);
    const buffer = ctx.createBuffer(1, voice!.length, sampleRate);
    buffer.copyToChannel(voice as Float32Array<ArrayBuffer>, 0);
    const output = new WebAudioPlayback(ctx);
    output.setBuffer('vocals', buffer);
    // The offline clock stands still until rendering; give the engine that clock.
    const engine = new MixerEngine({ sampleRate, output, setTimer: () => 0, clearTimer: () => {} });
    engine.setPreviewVolume(100);
    engine.setTrack('vocals', seconds);
    engine.selectClip('vocals-clip');
    engine.seek(2.5);
    engine.cutAtPlayhead();
    engine.beginDrag('vocals-clip-2');
    engine.dragTo('vocals-clip-2', 10.004);
    engine.endDrag();
    engine.seek(0);
    engine.play();
    const rendered = await ctx.startRendering();
    const clips = engine.getState().history.present.clips;
    const stem = organiseStem({ channels: [voice!], sampleRate }, clips, sampleRate, 0, n);
    // The engine starts everything START_LEAD_SECONDS after "now".
    const lead = Math.round(0.02 * sampleRate);
    const live = rendered.getChannelData(0).subarray(lead);
    // Compare away from the 2 ms edge fades the render adds at cut points.
    const fade = Math.round(0.002 * sampleRate) + 2;
    const cut = Math.round(2.5 * sampleRate);
    const moved = Math.round(10 * sampleRate);
    const end = moved + (voice!.length - cut);
    return {
      clipIds: clips.map((c) => c.id),
      before: maxAbsDiff(live, stem[0]!, 0, cut - fade),
      gap: maxAbsDiff(live, stem[0]!, cut + fade, moved - fade),
      after: maxAbsDiff(live, stem[0]!, moved + fade, end - fade),
      energyAfter: stem[0]!.subarray(moved + fade, end - fade).reduce((s, v) => s + v * v, 0),
    };
  },

  /** A mixdown in the worker: stages, progress, length, peak, and main-thread stalls. */
  async mixdown(seconds: number, vocalShare: number, outputVolume = 100) {
    const sampleRate = 44_100;
    const vocals = voiceLike(seconds, sampleRate);
    const { mix, clips } = await mixWorkerWith(vocals, musicLike(seconds, sampleRate, 2, 5), sampleRate);
    const length = Math.max(60 * sampleRate, vocals[0]!.length);
    const stages: string[] = [];
    let lastOverall = 0;
    let monotonic = true;
    const { result, ms, longestMs } = await measureStalls(() =>
      mix.mixdown(
        { clips, sampleRate, length },
        { vocalShare, outputVolume },
        {
          onProgress: (p) => {
            if (stages.at(-1) !== p.stage) stages.push(p.stage);
            if (p.overall < lastOverall - 1e-9) monotonic = false;
            lastOverall = p.overall;
          },
        },
      ),
    );
    let peak = 0;
    let nonFinite = 0;
    for (const ch of result.channels) {
      for (let i = 0; i < ch.length; i++) {
        const v = ch[i]!;
        if (!Number.isFinite(v)) nonFinite++;
        else if (Math.abs(v) > peak) peak = Math.abs(v);
      }
    }
    mix.dispose();
    return {
      stages,
      expectedStages: [...MIX_STAGES],
      monotonic,
      lastOverall,
      length: result.channels[0]!.length,
      expectedLength: length,
      peakDb: 20 * Math.log10(peak),
      nonFinite,
      report: result.report,
      ms,
      longestMs,
    };
  },

  async previews() {
    const sampleRate = 44_100;
    const vocals = voiceLike(30, sampleRate);
    const { mix, clips } = await mixWorkerWith(vocals, musicLike(30, sampleRate, 2, 5), sampleRate);
    const window = previewWindow(vocals[0]!.length, sampleRate);
    const order: string[] = [];
    const previews = await mix.previews({ clips, sampleRate, length: 60 * sampleRate }, window, 100, {
      onProgress: (p) => {
        if (p.style && order.at(-1) !== p.style) order.push(p.style);
      },
    });
    mix.dispose();
    return {
      window,
      order,
      styles: previews.map((p) => p.style),
      lengths: previews.map((p) => p.channels[0]!.length),
      shares: previews.map((p) => MIX_STYLES[p.style].vocalShare),
    };
  },
};

/**
 * Benchmarks: each job on a fresh worker (cold, as a one-shot export is), timed from the call to the finished
 * result, with the longest main-thread stall while it ran. The page's copy of the input is made before the
 * clock starts and then transferred.
 */
const bench = {
  /**
   * The same stall measurement over an idle page for `ms`: on a busy machine the OS alone can starve the
   * main thread for longer than 50 ms, and a job's figure means something only next to this baseline.
   */
  async idleStall(ms: number) {
    const { longestMs } = await measureStalls(() => new Promise<void>((done) => setTimeout(done, ms)));
    return longestMs;
  },

  /**
   * Builds a job's input (in its own task, outside the measured run): generating minutes of audio is test
   * set-up, not part of the job.
   */
  prepare(job: 'mp3' | 'wav' | 'peaks' | 'mixdown', seconds: number, workers?: number) {
    const sampleRate = 44_100;
    if (job === 'mixdown') {
      const vocals = [voiceLike(seconds, sampleRate)[0]!];
      const inst = benchTrack(seconds, 3);
      const length = Math.max(60 * sampleRate, inst[0]!.length);
      const clips = [wholeClip('vocals', vocals[0]!.length), wholeClip('instrumental', inst[0]!.length)];
      prepared = async () => {
        const mix = new MixClient(moduleWorker('mix-worker'));
        // Sending the sources is part of the job: the page hands them over once per track.
        await mix.setSource('vocals', vocals, sampleRate);
        await mix.setSource('instrumental', inst, sampleRate);
        const result = await mix.mixdown(
          { clips, sampleRate, length },
          { vocalShare: 50, outputVolume: 100 },
        );
        mix.dispose();
        return result.channels[0]!.length * 8;
      };
      return;
    }
    // The page's own copies, moved to the worker by the job (a one-shot export does exactly this).
    const input = benchTrack(seconds).map((c) => c.slice());
    if (job === 'peaks') {
      prepared = async () => {
        const client = new PeaksClient(moduleWorker('peaks-worker'));
        const levels = await client.peaks(input, { transfer: true });
        client.dispose();
        return levels.length;
      };
      return;
    }
    prepared = async () => {
      const client = new EncoderClient(moduleWorker('encode-worker'));
      try {
        const blob =
          job === 'wav'
            ? await client.wav(input, sampleRate, { transfer: true, workers })
            : await client.mp3(input, sampleRate, { transfer: true, workers });
        return blob.size;
      } finally {
        client.dispose();
      }
    };
  },

  /** Runs the prepared job on a fresh worker (cold): time to result and the longest main-thread gap. */
  async run() {
    const job = prepared;
    prepared = null;
    if (!job) throw new Error('Nothing prepared');
    try {
      const { result, ms, longestMs } = await measureStalls(job);
      return { ms, longestMs, bytes: result, error: null as string | null };
    } catch (e) {
      return { ms: 0, longestMs: 0, bytes: 0, error: (e as Error).message };
    }
  },
};

declare global {
  interface Window {
    mixHarness: typeof harness;
    mixBench: typeof bench;
    studioHarness: ReturnType<typeof studioHarness>;
    pitchHarness: ReturnType<typeof pitchHarness>;
  }
}
window.mixHarness = harness;
window.mixBench = bench;
window.studioHarness = studioHarness(encoder);
window.pitchHarness = pitchHarness(() => new MixClient(moduleWorker('mix-worker')));
document.body.dataset.state = 'ready';
