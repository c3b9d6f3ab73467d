/**
 * The spec-9 mastering chain up to (not including) the loudness stage, as one streaming kernel:
 * high-pass 30 Hz -> compressor -> warmth low shelf 200 Hz -> brightness high shelf 8 kHz -> peaking 3 kHz
 * -> mid/side width. The AudioWorklet (live) and the Worker (offline render) both run this class, so what
 * the user hears while moving a slider is what the download renders.
 */
import type { MasteringSettings } from '../../shared/mastering';
import { BiquadCascade, type BiquadCoefficients, designBiquad } from './biquad';
import { Compressor, type CompressorParams, compressorParamsFor } from './compressor';
import { applyStereoWidth } from './stereo-width';

export interface MasteringChainParams {
  highpass: BiquadCoefficients;
  lowShelf: BiquadCoefficients;
  highShelf: BiquadCoefficients;
  peaking: BiquadCoefficients;
  compressor: CompressorParams;
  stereoWidth: number;
  /** The gains in dB, for display and tests. */
  warmthDb: number;
  brightnessDb: number;
  presenceDb: number;
}

/** Warmth and brightness 0..100 map linearly to -6..+6 dB around 50 (spec 9: "plus or minus 6 dB"). */
export const shelfGainDb = (value: number): number => ((Math.min(100, Math.max(0, value)) - 50) / 50) * 6;

/** Spec 9: the 3 kHz peaking filter's gain is min(brightness / 25, 3) dB. */
export const presenceGainDb = (brightness: number): number => Math.min(Math.max(0, brightness) / 25, 3);

export const masteringChainParams = (
  settings: MasteringSettings,
  sampleRate: number,
): MasteringChainParams => {
  const warmthDb = shelfGainDb(settings.warmth);
  const brightnessDb = shelfGainDb(settings.brightness);
  const presenceDb = presenceGainDb(settings.brightness);
  return {
    highpass: designBiquad({ kind: 'highpass', frequency: 30, q: Math.SQRT1_2 }, sampleRate),
    lowShelf: designBiquad({ kind: 'lowshelf', frequency: 200, gainDb: warmthDb }, sampleRate),
    highShelf: designBiquad({ kind: 'highshelf', frequency: 8000, gainDb: brightnessDb }, sampleRate),
    peaking: designBiquad({ kind: 'peaking', frequency: 3000, gainDb: presenceDb, q: 1 }, sampleRate),
    compressor: compressorParamsFor(settings.compression),
    stereoWidth: settings.stereoWidth,
    warmthDb,
    brightnessDb,
    presenceDb,
  };
};

export class MasteringProcessor {
  readonly sampleRate: number;
  readonly channelCount: number;
  #highpass: BiquadCascade;
  #eq: BiquadCascade;
  #compressor: Compressor;
  #width = 50;

  constructor(sampleRate: number, channelCount: number, settings: MasteringSettings) {
    this.sampleRate = sampleRate;
    this.channelCount = channelCount;
    this.#highpass = new BiquadCascade(1, channelCount);
    this.#eq = new BiquadCascade(3, channelCount);
    const params = masteringChainParams(settings, sampleRate);
    this.#compressor = new Compressor(sampleRate, params.compressor);
    this.#apply(params);
  }

  /** New settings keep the filters' and detector's state, so a slider move does not click. */
  update(settings: MasteringSettings): void {
    this.#apply(masteringChainParams(settings, this.sampleRate));
  }

  #apply(params: MasteringChainParams): void {
    this.#highpass.setSection(0, params.highpass);
    this.#eq.setSection(0, params.lowShelf);
    this.#eq.setSection(1, params.highShelf);
    this.#eq.setSection(2, params.peaking);
    this.#compressor.setParams(params.compressor);
    this.#width = params.stereoWidth;
  }

  reset(): void {
    this.#highpass.reset();
    this.#eq.reset();
    this.#compressor.reset();
  }

  /** Processes `channels[c][start..end)` in place. */
  process(channels: readonly Float32Array[], start: number, end: number): void {
    const count = Math.min(this.channelCount, channels.length);
    if (count === 2) {
      this.#highpass.processStereo(channels[0]!, channels[1]!, start, end);
      this.#compressor.process(channels, start, end);
      this.#eq.processStereo(channels[0]!, channels[1]!, start, end);
    } else {
      for (let c = 0; c < count; c++) this.#highpass.process(channels[c]!, c, start, end);
      this.#compressor.process(channels, start, end);
      for (let c = 0; c < count; c++) this.#eq.process(channels[c]!, c, start, end);
    }
    applyStereoWidth(channels, this.#width, start, end);
  }
}
