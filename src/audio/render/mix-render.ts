import type { Genre } from '../../shared/genres';
import type { PitchSettings } from '../../shared/pitch-settings';
import { BiquadCascade, designBiquad } from '../dsp/biquad';
import { analyseVocal, type VocalAnalysis } from '../dsp/vocal/analyse-vocal';
import { chainIsOn, type VocalChainAmounts, type VocalChainReport } from '../dsp/vocal/vocal-chain';
import { carveBeat } from '../dsp/vocal-space';
import type { TimelineClip, TRACK_TYPES } from '../model/clip';
import { weightsForShare } from '../model/mix-styles';
import type { SampleWindow } from '../model/preview-window';
import { createVocalCompressor, limitInPlace, measureLufs, measureStemLufs } from './mix-kernels';
import {
  type MixSource,
  organiseChannels,
  organiseStem,
  sourceAsStem,
  stemChannelCount,
} from './mix-organise';
import { correctVocalSource } from './mix-pitch';
import { VocalReverb } from './mix-reverb';
import { type MixProgress, type MixStage, mixProgress } from './mix-stages';
import { MixVocalChain } from './mix-vocal-chain';

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
  /** The song's tempo (SongFacts, issue 27): times the vocal's delay and pre-delay; absent: a slap delay. */
  tempoBpm?: number;
  /**
   * The vocal's analysis (issue 26) over the whole timeline's vocal stem (analyseMixVocal); the render
   * analyses it itself when absent (a preview window should pass it, so it hears what the export does).
   */
  vocalAnalysis?: VocalAnalysis;
}

export interface MixRenderSettings {
  /** 0..100; 75 vocals forward, 50 balanced, 25 instrumental forward. */
  vocalShare: number;
  /** Output volume slider 0..100 (linear gain volume/100 before the limiter). */
  outputVolume: number;
  /**
   * Issue 26: the genre the adaptive vocal chain aims at. Absent (or every stage at 0): today's fixed chain,
   * bit for bit.
   */
  genre?: Genre;
  /** Each adaptive stage's amount 0..1 (absent: 1), the manual mode. */
  vocalChain?: VocalChainAmounts;
  /** Issue 27: pitch correction of the vocal source; absent or amount 0 leaves it untouched. */
  pitch?: PitchSettings;
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
  /** What the adaptive vocal chain did (issue 26), when it ran. */
  vocalChain?: VocalChainReport;
}

export interface MixRenderResult {
  channels: [Float32Array, Float32Array];
  sampleRate: number;
  report: MixReport;
  stems?: MixStems;
}

const dbToGain = (db: number) => 10 ** (db / 20);

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
  const stem = (source: MixSource | null, type: (typeof TRACK_TYPES)[number], channels: 1 | 2) => {
    const clips = clipsOf(input.clips, type);
    return (
      sourceAsStem(source, clips, input.sampleRate, 0, input.length) ??
      organiseChannels(source, clips, input.sampleRate, 0, input.length, channels)
    );
  };
  const vocalsLufs = measureStemLufs(
    stem(input.vocals, 'vocals', stemChannelCount(input.vocals)),
    input.sampleRate,
  );
  const instrumentalLufs = measureStemLufs(stem(input.instrumental, 'instrumental', 2), input.sampleRate);
  return {
    vocalsLufs,
    instrumentalLufs,
    vocalsMatchDb: matchGainDb(vocalsLufs),
    instrumentalMatchDb: matchGainDb(instrumentalLufs),
  };
};

/** The vocal's analysis over the whole timeline (what renderMix analyses when none is given). */
export const analyseMixVocal = (input: MixRenderInput, genre?: Genre): VocalAnalysis | null => {
  if (!input.vocals) return null;
  const clips = clipsOf(input.clips, 'vocals');
  const stem =
    sourceAsStem(input.vocals, clips, input.sampleRate, 0, input.length) ??
    organiseChannels(input.vocals, clips, input.sampleRate, 0, input.length, stemChannelCount(input.vocals));
  return analyseVocal(stem, input.sampleRate, genre);
};

/**
 * The mixdown (and, over a window, a preview): the seven stages of spec 9 as real processing, each reporting
 * progress as it runs. Pure number crunching on Float32Arrays, so it runs in a Worker and in Node alike.
 */
export const renderMix = async (
  rawInput: MixRenderInput,
  settings: MixRenderSettings,
  options: MixRenderOptions = {},
): Promise<MixRenderResult> => {
  // Pitch correction of the vocal source, before the vocal chain (issue 27).
  const input = {
    ...rawInput,
    vocals: await correctVocalSource(rawInput.vocals, settings.pitch, options.signal),
  };
  if (!options.allowMissing && (!input.vocals || !input.instrumental))
    throw new Error(MIX_ERRORS.missingBuffers);
  const sr = input.sampleRate;
  const windowStart = options.window?.start ?? 0;
  const n = options.window
    ? Math.max(0, Math.min(options.window.length, input.length - windowStart))
    : input.length;
  const stages = new Stages(options);

  // 1. Organise the session: every clip at its position, one stem per track. A mono vocal stays one channel
  // up to the reverb: its stereo stem would hold the same samples twice, and each stage before the reverb
  // gives that one channel exactly the values it would give either side (noted at each stage). A stem that
  // is exactly its source (one whole-file clip) is read from the source, never written: the vocal's first
  // write (its gain) goes to fresh arrays, the instrumental's (the final sum) to fresh outputs.
  await stages.enter('organise');
  const vocalClips = clipsOf(input.clips, 'vocals');
  const vocalSource = sourceAsStem(input.vocals, vocalClips, sr, windowStart, n);
  // Issue 26: the adaptive chain works on one mono voice (the mid the fixed chain pans to), so it allocates
  // one channel where the fixed chain copies the source's.
  const chainOn = chainIsOn(settings.genre, settings.vocalChain) && input.vocals !== null;
  const vocals = vocalSource
    ? (chainOn ? [vocalSource[0]!] : vocalSource).map(() => new Float32Array(n))
    : organiseChannels(input.vocals, vocalClips, sr, windowStart, n, stemChannelCount(input.vocals));
  const vocalsIn = vocalSource ?? vocals;
  const analysis = chainOn ? (input.vocalAnalysis ?? analyseMixVocal(input, settings.genre)) : null;
  const chain =
    analysis && settings.genre
      ? new MixVocalChain(analysis, settings.genre, settings.vocalChain, sr, input.tempoBpm, windowStart)
      : null;
  // The beat gives way to the voice: the adaptive chain's carve, or (fixed chain, vocals forward) a static dip.
  const unmask = chain ? chain.unmaskAmount(settings.vocalShare) : 0;
  const dip = !chain && settings.vocalShare > VOCALS_FORWARD_SHARE;
  const carve = unmask > 0;
  await stages.tick(0.5);
  const instClips = clipsOf(input.clips, 'instrumental');
  // The dip and the carve filter the instrumental in place: it needs its own copy then.
  const instSource = dip || carve ? null : sourceAsStem(input.instrumental, instClips, sr, windowStart, n);
  const inst = instSource ?? organiseStem(input.instrumental, instClips, sr, windowStart, n);
  await stages.tick(1);

  // 2. Balance volumes: match the stems' loudness, then apply the style's weights. A one-channel stem is
  // measured as its stereo stem (measureStemLufs). The instrumental's gain is applied where it is first
  // read: its EQ dip when there is one, else the final sum (the same float32 products, one pass fewer).
  await stages.enter('balance');
  const loudness = options.loudness ?? {
    vocalsLufs: measureStemLufs(vocalsIn, sr),
    instrumentalLufs: measureStemLufs(inst, sr),
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
      if (chain) {
        // The mono mid at the mixdown's gain (the pan stage's work, done here for the chain's cleanup).
        const to = vocals[0]!;
        const [l, r] = vocalsIn as [Float32Array, Float32Array?];
        if (r) for (let i = s; i < e; i++) to[i] = 0.5 * (l[i]! + r[i]!) * gV;
        else for (let i = s; i < e; i++) to[i] = l[i]! * gV;
      } else
        for (const [c, to] of vocals.entries()) {
          const from = vocalsIn[c]!;
          for (let i = s; i < e; i++) to[i] = from[i]! * gV;
        }
      if (dip || carve) for (const ch of inst) for (let i = s; i < e; i++) ch[i]! *= gI;
    },
    0.5,
    chain ? 0.6 : 1,
  );

  if (chain) {
    // Issue 26: cleanup (noise print, breaths, clicks, clipped peaks), then the rider's gain curve.
    const voice = vocals[0]!;
    await chain.cleanup(voice, gV, (f) => stages.tick(0.6 + 0.3 * f));
    await stages.blocks(n, (s, e) => chain.ride(voice, s, e), 0.9, 1);
  }

  // 3. Pan: the vocal to the centre (mid of its two sides), the instrumental's width untouched. One channel
  // is its own mid: 0.5 * (v + v) is v exactly.
  await stages.enter('pan');
  const voice = vocals[0]!;
  const side = chain ? undefined : vocals[1];
  if (side)
    await stages.blocks(n, (s, e) => {
      for (let i = s; i < e; i++) voice[i] = 0.5 * (voice[i]! + side[i]!);
    });
  else await stages.tick(1);

  // 4. EQ: vocal high-pass ~80 Hz and a presence lift; a gentle dip in the instrumental's vocal range when
  // the vocal is forward, so the voice sits in the mix without being pushed louder.
  await stages.enter('eq');
  if (chain) {
    // Issue 26: the adaptive EQ and the de-esser on the voice, then the beat's carve where the voice lives.
    await stages.blocks(n, (s, e) => chain.eqAndDeEss(voice, s, e), 0, carve ? 0.5 : 1);
    chain.finishEqAndDeEss(voice);
    if (carve) {
      chain.noteUnmasking(unmask);
      await carveBeat(
        [...inst],
        [voice],
        sr,
        { amount: unmask },
        {
          signal: options.signal,
          onProgress: (f) => options.onProgress?.(mixProgress('eq', 0.5 + 0.5 * f)),
          yieldFn: async () => {
            if (options.between) await options.between();
          },
        },
      );
    }
  }
  const vocalEq = new BiquadCascade(2, 1);
  vocalEq.setSection(0, designBiquad({ kind: 'highpass', frequency: 80, q: Math.SQRT1_2 }, sr));
  vocalEq.setSection(1, designBiquad({ kind: 'peaking', frequency: 3500, q: 0.9, gainDb: 2.5 }, sr));
  const instEq = new BiquadCascade(1, 2);
  instEq.setSection(0, designBiquad({ kind: 'peaking', frequency: 2500, q: 0.8, gainDb: -2.5 }, sr));
  if (!chain)
    await stages.blocks(n, (s, e) => {
      vocalEq.process(voice, 0, s, e);
      if (dip) for (let c = 0; c < 2; c++) instEq.process(inst[c]!, c, s, e);
    });

  // 5. Dynamics: vocal compression; its make-up gain restores the vocal's loudness so the balance holds
  // (applied in the next stage's pass over the vocal).
  await stages.enter('dynamics');
  const before = measureLufs([voice], sr);
  const compressor = chain ? chain.createCompressor(before) : createVocalCompressor(sr, before);
  await stages.blocks(n, (s, e) => compressor.process([voice], s, e), 0, 0.8);
  const after = measureLufs([voice], sr);
  const makeUp = Number.isFinite(before) && Number.isFinite(after) ? dbToGain(before - after) : 1;
  await stages.tick(1);

  // 6. Effects: a light stereo reverb return on the vocal (the dry voice stays centred), a block at a time
  // with the right side in a block-sized buffer; each block goes straight on into the final sum
  // (instrumental at its gain, plus the vocal, times the output volume) while it is in cache.
  await stages.enter('effects');
  const reverb = chain ? null : new VocalReverb(sr);
  const space = chain?.createSpace(before, MIX_BLOCK) ?? null;
  const volume = Math.min(Math.max(settings.outputVolume, 0), 100) / 100;
  const instGain = dip || carve ? 1 : gI;
  const [instL, instR = instL] = inst as [Float32Array, Float32Array?];
  const [outL, outR] = instSource ? [new Float32Array(n), new Float32Array(n)] : [instL, instR];
  const rightBlock = new Float32Array(Math.min(MIX_BLOCK, n));
  const stems: MixStems | undefined = options.stems
    ? {
        vocals: [new Float32Array(n), new Float32Array(n)],
        instrumental: [new Float32Array(n), new Float32Array(n)],
      }
    : undefined;
  await stages.blocks(n, (s, e) => {
    const left = voice.subarray(s, e);
    const right = rightBlock.subarray(0, e - s);
    if (makeUp !== 1) for (let k = 0; k < left.length; k++) left[k]! *= makeUp;
    right.set(left);
    if (reverb) reverb.process(left, left, right, 0, left.length);
    else space?.process(left, left, right, 0, left.length);
    if (stems) {
      // The buses at the output volume, before they are summed (issue 18: the versions' stems);
      // first, since the sum may be written over the instrumental.
      const [vL, vR] = stems.vocals as [Float32Array, Float32Array];
      const [bL, bR] = stems.instrumental as [Float32Array, Float32Array];
      for (let i = s, k = 0; i < e; i++, k++) {
        vL[i] = left[k]! * volume;
        vR[i] = right[k]! * volume;
        bL[i] = Math.fround(instL[i]! * instGain) * volume;
        bR[i] = Math.fround(instR[i]! * instGain) * volume;
      }
    }
    for (let i = s, k = 0; i < e; i++, k++) {
      outL[i] = (Math.fround(instL[i]! * instGain) + left[k]!) * volume;
      outR[i] = (Math.fround(instR[i]! * instGain) + right[k]!) * volume;
    }
  });

  // 7. Final processing: a true-peak limiter over the sum so nothing clips.
  await stages.enter('final');
  // The stems follow the limiter's gain, frame by frame, so that they still sum to the mix.
  const frameGains = stems ? new Float32Array(n) : null;
  await limitInPlace([outL, outR], sr, MIX_CEILING_DBTP, (f) => stages.tick(f), MIX_BLOCK, frameGains);
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
      ...(chain ? { vocalChain: chain.report() } : {}),
    },
  };
};
