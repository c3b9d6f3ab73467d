import { BiquadCascade, designBiquad } from '../dsp/biquad';
import type { TimelineClip, TRACK_TYPES } from '../model/clip';
import { weightsForShare } from '../model/mix-styles';
import type { SampleWindow } from '../model/preview-window';
import { createVocalCompressor, limitInPlace, measureLufs } from './mix-kernels';
import { type MixSource, organiseStem } from './mix-organise';
import { VocalReverb } from './mix-reverb';
import { type MixProgress, type MixStage, mixProgress } from './mix-stages';

/** Each stem is brought to this loudness before the style weights apply (decision record 0xx). */
export const STEM_REFERENCE_LUFS = -20;
/** Loudness matching never boosts more than this (near-silent stems would otherwise turn into noise). */
export const MAX_MATCH_BOOST_DB = 24;
export const MAX_MATCH_CUT_DB = -40;
/** Above this vocal share the instrumental gets a dip where the voice lives (spec: vocals forward > 65). */
const VOCALS_FORWARD_SHARE = 65;
/** Samples per block between progress reports and cancellation checks. */
export const MIX_BLOCK = 65_536;
export const MIX_CEILING_DBTP = -1;

export const MIX_ERRORS = {
  missingBuffers: 'Missing vocal or instrumental audio buffers for final mix',
} as const;

export interface MixRenderInput {
  vocals: MixSource | null;
  instrumental: MixSource | null;
  /** Timeline clips in samples at `sampleRate`. */
  clips: readonly TimelineClip[];
  /** The timeline's (and the output's) rate. */
  sampleRate: number;
  /** Output length in samples: the final mix length (max of clip ends, sources, 60 s). */
  length: number;
}

export interface MixRenderSettings {
  /** 0..100; 75 vocals forward, 50 balanced, 25 instrumental forward. */
  vocalShare: number;
  /** Output volume slider 0..100 (linear gain volume/100 before the limiter). */
  outputVolume: number;
}

/** Loudness of the two organised stems, and the gains that bring each to the reference. */
export interface StemLoudness {
  vocalsLufs: number;
  instrumentalLufs: number;
  vocalsMatchDb: number;
  instrumentalMatchDb: number;
}

export interface MixRenderOptions {
  /** Render only this part of the timeline (previews). */
  window?: SampleWindow;
  /** Loudness measured over the whole timeline, so a preview window is balanced like the full mix. */
  loudness?: StemLoudness;
  /** Previews may run before both tracks exist; the mixdown may not. */
  allowMissing?: boolean;
  signal?: AbortSignal;
  onProgress?: (progress: MixProgress) => void;
  /** Awaited between blocks (a worker yields to its event loop here so cancellation gets through). */
  between?: () => Promise<void>;
  /**
   * Also return the two buses (vocal with its reverb, instrumental) after the output volume and the output
   * limiter's gain, which is computed from the sum and applied to both: vocals + instrumental = the mix
   * (the versions of issue 18, decision 150).
   */
  stems?: boolean;
}

/** The mix's two buses, each stereo, summing to the mix. */
export interface MixStems {
  vocals: [Float32Array, Float32Array];
  instrumental: [Float32Array, Float32Array];
}

export interface MixReport extends StemLoudness {
  vocalsGainDb: number;
  instrumentalGainDb: number;
}

export interface MixRenderResult {
  channels: [Float32Array, Float32Array];
  sampleRate: number;
  report: MixReport;
  stems?: MixStems;
}

const dbToGain = (db: number) => 10 ** (db / 20);

/** A copy of `x` times `g`. */
const scaled = (x: Float32Array, g: number): Float32Array => {
  const out = new Float32Array(x.length);
  for (let i = 0; i < x.length; i++) out[i] = x[i]! * g;
  return out;
};

/** Gain that brings a stem measured at `lufs` to the reference (0 dB for silence). */
export const matchGainDb = (lufs: number): number =>
  Number.isFinite(lufs)
    ? Math.min(Math.max(STEM_REFERENCE_LUFS - lufs, MAX_MATCH_CUT_DB), MAX_MATCH_BOOST_DB)
    : 0;

/** Style weights relative to the base 0.5/0.5: balanced is unity, vocals forward 1.5x / 0.5x. */
export const styleGains = (vocalShare: number): { vocals: number; instrumental: number } => {
  const w = weightsForShare(vocalShare);
  return { vocals: w.vocals / 0.5, instrumental: w.instrumental / 0.5 };
};

class Stages {
  #stage: MixStage = 'organise';
  constructor(private readonly options: MixRenderOptions) {}

  async enter(stage: MixStage): Promise<void> {
    this.#stage = stage;
    await this.tick(0);
  }

  async tick(fraction: number): Promise<void> {
    this.options.onProgress?.(mixProgress(this.#stage, fraction));
    if (this.options.between) await this.options.between();
    this.options.signal?.throwIfAborted();
  }

  /** Runs `fn` over [0, n) in blocks, reporting progress from `from` to `to` of the stage. */
  async blocks(n: number, fn: (start: number, end: number) => void, from = 0, to = 1): Promise<void> {
    for (let start = 0; start < n; start += MIX_BLOCK) {
      const end = Math.min(n, start + MIX_BLOCK);
      fn(start, end);
      await this.tick(from + ((to - from) * end) / n);
    }
    if (n === 0) await this.tick(to);
  }
}

const clipsOf = (clips: readonly TimelineClip[], type: (typeof TRACK_TYPES)[number]) =>
  clips.filter((c) => c.trackType === type);

/** Measure the two stems as the mixdown lays them out over the whole timeline. */
export const measureStems = (input: MixRenderInput): StemLoudness => {
  const vocals = organiseStem(
    input.vocals,
    clipsOf(input.clips, 'vocals'),
    input.sampleRate,
    0,
    input.length,
  );
  const vocalsLufs = measureLufs(vocals, input.sampleRate);
  const inst = organiseStem(
    input.instrumental,
    clipsOf(input.clips, 'instrumental'),
    input.sampleRate,
    0,
    input.length,
  );
  const instrumentalLufs = measureLufs(inst, input.sampleRate);
  return {
    vocalsLufs,
    instrumentalLufs,
    vocalsMatchDb: matchGainDb(vocalsLufs),
    instrumentalMatchDb: matchGainDb(instrumentalLufs),
  };
};

/**
 * The mixdown (and, over a window, a preview): the seven stages of spec 9 as real processing, each reporting
 * progress as it runs. Pure number crunching on Float32Arrays, so it runs in a Worker and in Node alike.
 */
export const renderMix = async (
  input: MixRenderInput,
  settings: MixRenderSettings,
  options: MixRenderOptions = {},
): Promise<MixRenderResult> => {
  if (!options.allowMissing && (!input.vocals || !input.instrumental))
    throw new Error(MIX_ERRORS.missingBuffers);
  const sr = input.sampleRate;
  const windowStart = options.window?.start ?? 0;
  const n = options.window
    ? Math.max(0, Math.min(options.window.length, input.length - windowStart))
    : input.length;
  const stages = new Stages(options);

  // 1. Organise the session: every clip at its position, one stereo stem per track.
  await stages.enter('organise');
  const vocals = organiseStem(input.vocals, clipsOf(input.clips, 'vocals'), sr, windowStart, n);
  await stages.tick(0.5);
  const inst = organiseStem(input.instrumental, clipsOf(input.clips, 'instrumental'), sr, windowStart, n);
  await stages.tick(1);

  // 2. Balance volumes: match the stems' loudness, then apply the style's weights.
  await stages.enter('balance');
  const loudness = options.loudness ?? {
    vocalsLufs: measureLufs(vocals, sr),
    instrumentalLufs: measureLufs(inst, sr),
    vocalsMatchDb: 0,
    instrumentalMatchDb: 0,
  };
  if (!options.loudness) {
    loudness.vocalsMatchDb = matchGainDb(loudness.vocalsLufs);
    loudness.instrumentalMatchDb = matchGainDb(loudness.instrumentalLufs);
  }
  await stages.tick(0.5);
  const style = styleGains(settings.vocalShare);
  const gV = dbToGain(loudness.vocalsMatchDb) * style.vocals;
  const gI = dbToGain(loudness.instrumentalMatchDb) * style.instrumental;
  await stages.blocks(
    n,
    (s, e) => {
      for (const ch of vocals) for (let i = s; i < e; i++) ch[i]! *= gV;
      for (const ch of inst) for (let i = s; i < e; i++) ch[i]! *= gI;
    },
    0.5,
    1,
  );

  // 3. Pan: the vocal to the centre (mid of its two sides), the instrumental's width untouched.
  await stages.enter('pan');
  const [voice, scratch] = vocals;
  await stages.blocks(n, (s, e) => {
    for (let i = s; i < e; i++) voice[i] = 0.5 * (voice[i]! + scratch[i]!);
  });

  // 4. EQ: vocal high-pass ~80 Hz and a presence lift; a gentle dip in the instrumental's vocal range when
  // the vocal is forward, so the voice sits in the mix without being pushed louder.
  await stages.enter('eq');
  const vocalEq = new BiquadCascade(2, 1);
  vocalEq.setSection(0, designBiquad({ kind: 'highpass', frequency: 80, q: Math.SQRT1_2 }, sr));
  vocalEq.setSection(1, designBiquad({ kind: 'peaking', frequency: 3500, q: 0.9, gainDb: 2.5 }, sr));
  const dip = settings.vocalShare > VOCALS_FORWARD_SHARE;
  const instEq = new BiquadCascade(1, 2);
  instEq.setSection(0, designBiquad({ kind: 'peaking', frequency: 2500, q: 0.8, gainDb: -2.5 }, sr));
  await stages.blocks(n, (s, e) => {
    vocalEq.process(voice, 0, s, e);
    if (dip) for (let c = 0; c < 2; c++) instEq.process(inst[c]!, c, s, e);
  });

  // 5. Dynamics: vocal compression; its make-up gain restores the vocal's loudness so the balance holds.
  await stages.enter('dynamics');
  const before = measureLufs([voice], sr);
  const compressor = createVocalCompressor(sr, before);
  await stages.blocks(n, (s, e) => compressor.process([voice], s, e), 0, 0.7);
  const after = measureLufs([voice], sr);
  const makeUp = Number.isFinite(before) && Number.isFinite(after) ? dbToGain(before - after) : 1;
  await stages.blocks(
    n,
    (s, e) => {
      for (let i = s; i < e; i++) voice[i]! *= makeUp;
    },
    0.8,
    1,
  );

  // 6. Effects: a light stereo reverb return on the vocal; the dry voice stays centred.
  await stages.enter('effects');
  const reverb = new VocalReverb(sr);
  const left = voice;
  const right = scratch;
  await stages.blocks(n, (s, e) => {
    right.set(left.subarray(s, e), s);
    reverb.process(left, left, right, s, e);
  });

  // 7. Final processing: sum, output volume, then a true-peak limiter so nothing clips.
  await stages.enter('final');
  const volume = Math.min(Math.max(settings.outputVolume, 0), 100) / 100;
  const [outL, outR] = inst;
  // The buses at the output volume, kept before they are summed (only when the stems are asked for).
  const stems: MixStems | undefined = options.stems
    ? {
        vocals: [scaled(left, volume), scaled(right, volume)],
        instrumental: [scaled(outL, volume), scaled(outR, volume)],
      }
    : undefined;
  await stages.blocks(
    n,
    (s, e) => {
      for (let i = s; i < e; i++) {
        outL[i] = (outL[i]! + left[i]!) * volume;
        outR[i] = (outR[i]! + right[i]!) * volume;
      }
    },
    0,
    0.2,
  );
  const frameGains = stems ? new Float32Array(n) : null;
  await limitInPlace(
    [outL, outR],
    sr,
    MIX_CEILING_DBTP,
    (f) => stages.tick(0.2 + 0.8 * f),
    MIX_BLOCK,
    frameGains,
  );
  if (stems && frameGains) {
    for (const ch of [...stems.vocals, ...stems.instrumental])
      for (let i = 0; i < n; i++) ch[i]! *= frameGains[i]!;
  }

  return {
    channels: [outL, outR],
    sampleRate: sr,
    stems,
    report: {
      ...loudness,
      vocalsGainDb: 20 * Math.log10(gV * makeUp || 1e-12),
      instrumentalGainDb: 20 * Math.log10(gI || 1e-12),
    },
  };
};
