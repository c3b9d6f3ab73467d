/**
 * Issue 26, space: the vocal's reverb (the mixdown's own FDN reverb, sized by genre) and a ping-pong delay
 * timed from the song's tempo, both returns ducked while the voice sings so the words stay clear and the
 * space blooms in the gaps. Without a tempo the delay falls back to a short slap (110 ms), which suits any
 * tempo, at a lower level.
 */
import { VocalReverb } from '../../render/mix-reverb';
import type { GenreVocalTarget } from './genre-vocal-targets';

export interface SpaceParams {
  reverbWet: number;
  reverbDecaySeconds: number;
  preDelaySeconds: number;
  delaySeconds: number;
  delayWet: number;
  delayFeedback: number;
  /** The returns are lowered by up to this while the voice sings, dB. */
  duckDb: number;
  /** Voice envelope level (dBFS) at and above which the full duck applies (10 dB under it: none). */
  duckFullAtDb: number;
}

export const SLAP_SECONDS = 0.11;

export const spaceParamsFor = (
  target: GenreVocalTarget,
  tempoBpm: number | undefined,
  voiceLevelDb: number,
  amount: number,
): SpaceParams => {
  const beat = tempoBpm && tempoBpm >= 40 && tempoBpm <= 240 ? 60 / tempoBpm : null;
  // The delay on the genre's note value; halved or doubled into 90 ms-900 ms, where a vocal delay lives.
  let delaySeconds = beat ? target.delayBeats * beat : SLAP_SECONDS;
  while (delaySeconds > 0.9) delaySeconds /= 2;
  while (delaySeconds < 0.09) delaySeconds *= 2;
  return {
    reverbWet: target.reverbWet * amount,
    reverbDecaySeconds: target.reverbDecaySeconds,
    // Pre-delay a 64th note (10-40 ms): the consonant lands before the room answers.
    preDelaySeconds: beat ? Math.min(0.04, Math.max(0.01, beat / 16)) : 0.02,
    delaySeconds,
    delayWet: (beat ? target.delayWet : target.delayWet * 0.6) * amount,
    delayFeedback: beat ? target.delayFeedback : 0.1,
    duckDb: 8 * amount,
    duckFullAtDb: voiceLevelDb,
  };
};

/** Adds the ducked returns of `voice[start..end)` to `left` and `right` over the same range. */
export class VocalSpaceFx {
  readonly #reverb: VocalReverb;
  readonly #wetL: Float32Array;
  readonly #wetR: Float32Array;
  readonly #dL: Float32Array;
  readonly #dR: Float32Array;
  #pos = 0;
  #lpL = 0;
  #lpR = 0;
  #env = 0;
  readonly #lpCoef: number;
  readonly #attack: number;
  readonly #release: number;
  readonly #params: SpaceParams;
  /** Deepest duck applied, dB (report). */
  maxDuckDb = 0;

  constructor(sampleRate: number, params: SpaceParams, block: number) {
    this.#params = params;
    const d = Math.max(1, Math.round(params.delaySeconds * sampleRate));
    // The delay lines live in the reverb's WebAssembly kernel when it has one: the loop below runs there.
    this.#reverb = new VocalReverb(
      sampleRate,
      {
        decay: params.reverbDecaySeconds,
        damping: 0.35,
        wet: params.reverbWet,
        preDelay: params.preDelaySeconds,
      },
      d,
    );
    this.#wetL = new Float32Array(block);
    this.#wetR = new Float32Array(block);
    this.#dL = new Float32Array(d);
    this.#dR = new Float32Array(d);
    // Repeats darken: a one-pole low-pass near 4 kHz in the feedback.
    this.#lpCoef = 1 - Math.exp((-2 * Math.PI * 4000) / sampleRate);
    this.#attack = 1 - Math.exp(-1 / (0.01 * sampleRate));
    this.#release = 1 - Math.exp(-1 / (0.35 * sampleRate));
    const { under, over, fullGain } = this.#duckBounds();
    this.#reverb.kernel?.setSpace({
      lpc: this.#lpCoef,
      attack: this.#attack,
      release: this.#release,
      feedback: params.delayFeedback,
      delayWet: params.delayWet,
      under,
      over,
      fullGain,
      duckDb: params.duckDb,
      from: params.duckFullAtDb - 10,
    });
  }

  /**
   * Envelopes surely under the duck's range (none) or over it (all of it), a hair of margin for the
   * logarithm's rounding: no logarithm or power to take there (decision 270).
   */
  #duckBounds(): { under: number; over: number; fullGain: number } {
    const { duckDb, duckFullAtDb } = this.#params;
    return {
      under: 10 ** ((duckFullAtDb - 10) / 10) * (1 - 1e-9),
      over: 10 ** (duckFullAtDb / 10) * (1 + 1e-9),
      fullGain: 10 ** (-duckDb / 20),
    };
  }

  process(voice: Float32Array, left: Float32Array, right: Float32Array, start: number, end: number): void {
    const n = end - start;
    for (let off = 0; off < n; off += this.#wetL.length) {
      const m = Math.min(this.#wetL.length, n - off);
      this.#block(voice, left, right, start + off, m);
    }
  }

  #block(voice: Float32Array, left: Float32Array, right: Float32Array, s: number, m: number): void {
    const kernel = this.#reverb.kernel;
    if (kernel) {
      kernel.spaceBlock(voice, left, right, s, m, VocalReverb.flush);
      this.maxDuckDb = kernel.maxDuckDb;
      return;
    }
    const wl = this.#wetL.subarray(0, m);
    const wr = this.#wetR.subarray(0, m);
    wl.fill(0);
    wr.fill(0);
    this.#reverb.process(voice.subarray(s, s + m), wl, wr, 0, m);
    const { delayWet, delayFeedback, duckDb, duckFullAtDb } = this.#params;
    const dL = this.#dL;
    const dR = this.#dR;
    const len = dL.length;
    let pos = this.#pos;
    let lpL = this.#lpL;
    let lpR = this.#lpR;
    let env = this.#env;
    const lpc = this.#lpCoef;
    const attack = this.#attack;
    const release = this.#release;
    let duckGain = this.#duckGain;
    const { under, over, fullGain } = this.#duckBounds();
    let maxDuck = this.maxDuckDb;
    for (let k = 0; k < m; k++) {
      const v = voice[s + k]!;
      // Ping-pong: the voice enters the left line; each line feeds the other.
      const yl = dL[pos]!;
      const yr = dR[pos]!;
      lpL += lpc * (yl - lpL);
      lpR += lpc * (yr - lpR);
      dL[pos] = v + delayFeedback * lpR;
      dR[pos] = delayFeedback * lpL;
      pos = pos + 1 === len ? 0 : pos + 1;
      const p = v * v;
      // Branch-free attack/release, the same values as choosing by the sign (decision 270).
      const d = p - env;
      env += Math.max(d, 0) * attack + Math.min(d, 0) * release;
      if ((k & 15) === 0) {
        if (env < under) duckGain = 1;
        else if (env > over) {
          if (duckDb > maxDuck) maxDuck = duckDb;
          duckGain = fullGain;
        } else {
          const levelDb = 10 * Math.log10(env + 1e-20);
          const duck = duckDb * Math.min(1, Math.max(0, (levelDb - (duckFullAtDb - 10)) / 10));
          if (duck > maxDuck) maxDuck = duck;
          duckGain = 10 ** (-duck / 20);
        }
      }
      left[s + k]! += duckGain * (wl[k]! + delayWet * yl);
      right[s + k]! += duckGain * (wr[k]! + delayWet * yr);
    }
    this.#duckGain = duckGain;
    this.#pos = pos;
    this.#lpL = lpL;
    this.#lpR = lpR;
    this.#env = env;
    this.maxDuckDb = maxDuck;
  }

  #duckGain = 1;
}
