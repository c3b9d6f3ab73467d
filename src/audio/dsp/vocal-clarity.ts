/**
 * The figure "Vocal space" shows (issue 18): the vocal-to-instrumental ratio in the vocal's band
 * (1-5 kHz: order-8 Butterworth high-pass and low-pass, 48 dB per octave) over the moments the vocal
 * sings, before and after the carve. "While the vocal sings" is the carve's own gate: 100 ms blocks whose
 * vocal-band level (the carve's four band-pass filters) reaches the profile's singing threshold.
 */
import { BiquadCascade, designBiquad } from './biquad';
import {
  VOCAL_BAND_HZ,
  VOCAL_SPACE_BANDS,
  type VocalSpaceProfile,
  vocalSpaceBandDesigns,
} from './vocal-space';

const BLOCK_S = 0.1;

export interface VocalBandRatio {
  /** 10 log10(vocal band energy / beat band energy) over the singing blocks, dB; NaN when it never sings. */
  ratioDb: number;
  /** How long the vocal sings, s. */
  singingSeconds: number;
}

export interface VocalClarity {
  before: VocalBandRatio;
  after: VocalBandRatio;
  /** after - before, dB: the "+x.x dB vocal clarity" figure. */
  clarityDb: number;
}

const mono = (channels: readonly Float32Array[], frames: number): Float32Array => {
  if (channels.length === 1) return channels[0]!.slice(0, frames);
  const out = new Float32Array(frames);
  const count = channels.length;
  for (const c of channels) for (let i = 0; i < frames; i++) out[i] = out[i]! + c[i]! / count;
  return out;
};

/** Butterworth Q of each second-order section of an order-8 filter (48 dB per octave, -3 dB at the edge). */
const BUTTERWORTH_8_Q = [1, 3, 5, 7].map((k) => 1 / (2 * Math.sin((k * Math.PI) / 16)));

/** The 1-5 kHz band of a mono signal (a new array): order-8 Butterworth high-pass and low-pass. */
const vocalBand = (signal: Float32Array, sampleRate: number): Float32Array => {
  const out = signal.slice();
  const f = new BiquadCascade(8, 1);
  BUTTERWORTH_8_Q.forEach((q, i) => {
    f.setSection(i, designBiquad({ kind: 'highpass', frequency: VOCAL_BAND_HZ.low, q }, sampleRate));
    f.setSection(4 + i, designBiquad({ kind: 'lowpass', frequency: VOCAL_BAND_HZ.high, q }, sampleRate));
  });
  f.process(out, 0);
  return out;
};

const blockEnergies = (signal: Float32Array, block: number): Float64Array => {
  const blocks = Math.ceil(signal.length / block);
  const out = new Float64Array(blocks);
  for (let b = 0; b < blocks; b++) {
    let sum = 0;
    const end = Math.min(signal.length, (b + 1) * block);
    for (let i = b * block; i < end; i++) sum += signal[i]! * signal[i]!;
    out[b] = sum;
  }
  return out;
};

/** Which 100 ms blocks the vocal sings in (the carve's gate, measured per block). */
export const singingBlocks = (
  vocal: readonly Float32Array[],
  sampleRate: number,
  profile: VocalSpaceProfile,
): { block: number; singing: Uint8Array } => {
  const frames = vocal[0]?.length ?? 0;
  const block = Math.round(BLOCK_S * sampleRate);
  const m = mono(vocal, frames);
  const total = new Float64Array(Math.ceil(frames / block));
  for (const c of vocalSpaceBandDesigns(sampleRate).slice(0, VOCAL_SPACE_BANDS)) {
    const f = new BiquadCascade(1, 1);
    f.setSection(0, c);
    const band = m.slice();
    f.process(band, 0);
    blockEnergies(band, block).forEach((e, b) => {
      total[b] = total[b]! + e;
    });
  }
  const singing = new Uint8Array(total.length);
  total.forEach((e, b) => {
    const n = Math.min(frames, (b + 1) * block) - b * block;
    singing[b] = 10 * Math.log10(e / n + 1e-20) >= profile.singingThresholdDb ? 1 : 0;
  });
  return { block, singing };
};

/** The vocal-band ratio of `vocal` over `beat` while the vocal sings. */
export const vocalBandRatio = (
  vocal: readonly Float32Array[],
  beat: readonly Float32Array[],
  sampleRate: number,
  profile: VocalSpaceProfile,
  gate = singingBlocks(vocal, sampleRate, profile),
): VocalBandRatio => {
  const frames = Math.min(vocal[0]?.length ?? 0, beat[0]?.length ?? 0);
  const v = blockEnergies(vocalBand(mono(vocal, frames), sampleRate), gate.block);
  const b = blockEnergies(vocalBand(mono(beat, frames), sampleRate), gate.block);
  let sv = 0;
  let sb = 0;
  let count = 0;
  for (let i = 0; i < gate.singing.length; i++) {
    if (!gate.singing[i]) continue;
    sv += v[i]!;
    sb += b[i]!;
    count++;
  }
  const singingSeconds = Math.min(frames / sampleRate, count * BLOCK_S);
  return { ratioDb: count > 0 ? 10 * Math.log10((sv + 1e-30) / (sb + 1e-30)) : Number.NaN, singingSeconds };
};

/** Before and after a carve: the ratio with the original beat and with the carved one. */
export const measureVocalClarity = (
  vocal: readonly Float32Array[],
  beatBefore: readonly Float32Array[],
  beatAfter: readonly Float32Array[],
  sampleRate: number,
  profile: VocalSpaceProfile,
): VocalClarity => {
  const gate = singingBlocks(vocal, sampleRate, profile);
  const before = vocalBandRatio(vocal, beatBefore, sampleRate, profile, gate);
  const after = vocalBandRatio(vocal, beatAfter, sampleRate, profile, gate);
  const clarityDb = Number.isFinite(before.ratioDb) ? after.ratioDb - before.ratioDb : 0;
  return { before, after, clarityDb };
};
