/**
 * Issue 26: the adaptive vocal chain's plan. Every stage's settings come from the take's analysis, the
 * genre's vocal target and the stage's amount (0..1, the manual mode's "turn it down or off"); the mixdown
 * (src/audio/render/mix-vocal-chain.ts) runs the plan and fills the report ("What the mix did").
 */
import type { Genre } from '../../../shared/genres';
import { VOCAL_CHAIN_STAGES, type VocalChainStage } from '../../../shared/vocal-chain-stages';
import type { BiquadDesign } from '../biquad';
import type { CompressorParams } from '../compressor';
import type { VocalAnalysis } from './analyse-vocal';
import type { DynamicBandParams } from './dynamic-band';
import {
  BALANCE_BANDS,
  type BalanceBand,
  type GenreVocalTarget,
  MAX_EQ_MOVE_DB,
  vocalTargetFor,
} from './genre-vocal-targets';
import type { RideOptions } from './rider';

export { VOCAL_CHAIN_STAGES, type VocalChainStage };
/** Per stage 0..1 (absent: 1). All 0: the mixdown is today's fixed chain, bit for bit. */
export type VocalChainAmounts = Partial<Record<VocalChainStage, number>>;

export const stageAmount = (amounts: VocalChainAmounts | undefined, stage: VocalChainStage): number =>
  Math.min(1, Math.max(0, amounts?.[stage] ?? 1));

export const chainIsOn = (genre: Genre | undefined, amounts: VocalChainAmounts | undefined): boolean =>
  genre !== undefined && VOCAL_CHAIN_STAGES.some((s) => stageAmount(amounts, s) > 0);

/** Noise reduction at full amount: the floor of the Wiener gain (decision 180). */
export const MAX_NOISE_REDUCTION_DB = 18;
/** Breaths are lowered by this at full amount. */
export const BREATH_LOWER_DB = -10;
/** The rider's range at full amount (decision 181). */
export const RIDE_UP_DB = 9;
export const RIDE_DOWN_DB = 6;

export interface EqMove {
  band: BalanceBand | 'highpass';
  design: BiquadDesign;
  /** Dynamic moves cut only while the band is over its threshold. */
  dynamic?: DynamicBandParams;
}

export interface VocalChainPlan {
  genre: Genre;
  target: GenreVocalTarget;
  amounts: Record<VocalChainStage, number>;
  ride: RideOptions;
  eq: EqMove[];
  deEsser: DynamicBandParams | null;
  /** The compressor, its threshold relative to the voice's loudness at that point (LUFS + offset). */
  compressorOffsetDb: number;
  compressor: Omit<CompressorParams, 'thresholdDb'>;
}

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));
const round1 = (x: number) => Math.round(x * 10) / 10;

export const vocalChainPlan = (
  analysis: VocalAnalysis,
  genre: Genre,
  amountsIn: VocalChainAmounts | undefined,
): VocalChainPlan => {
  const amounts = Object.fromEntries(VOCAL_CHAIN_STAGES.map((s) => [s, stageAmount(amountsIn, s)])) as Record<
    VocalChainStage,
    number
  >;
  const target = vocalTargetFor(genre);
  const off = Object.fromEntries(analysis.balance.map((b) => [b.band, b.offTargetDb])) as Record<
    BalanceBand,
    number
  >;
  // EQ: the high-pass stays (rumble is never wanted); each band moves a share of the way to the target, within
  // MAX_EQ_MOVE_DB. Harshness over the target is cut dynamically (only when it flares), under it lifted.
  const a = amounts.eq;
  const eq: EqMove[] = [{ band: 'highpass', design: { kind: 'highpass', frequency: 80, q: Math.SQRT1_2 } }];
  for (const band of BALANCE_BANDS) {
    const o = off[band.band] ?? 0;
    if (band.band === 'harsh') {
      if (o > 1) {
        eq.push({
          band: 'harsh',
          design: {
            kind: 'peaking',
            frequency: band.centreHz,
            q: 1,
            gainDb: -round1(Math.min(o, MAX_EQ_MOVE_DB) * a),
          },
          dynamic: {
            centreHz: band.centreHz,
            q: 1,
            thresholdDb: analysis.sibilance.vowelMedianDb - 12,
            slope: 0.5,
            maxCutDb: Math.min(o, MAX_EQ_MOVE_DB) * a,
          },
        });
      } else if (o < -1) {
        const gainDb = round1(clamp(-0.5 * o, 0, 3) * a);
        if (gainDb >= 0.5)
          eq.push({ band: 'harsh', design: { kind: 'peaking', frequency: band.centreHz, q: 1, gainDb } });
      }
      continue;
    }
    if (band.band === 'air') {
      const gainDb = round1(clamp(-0.5 * o, -MAX_EQ_MOVE_DB, 4) * a);
      if (Math.abs(gainDb) >= 0.5)
        eq.push({ band: 'air', design: { kind: 'highshelf', frequency: band.centreHz, slope: 1, gainDb } });
      continue;
    }
    const gainDb = round1(clamp(-0.6 * o, -MAX_EQ_MOVE_DB, 3) * a);
    if (Math.abs(gainDb) >= 0.5)
      eq.push({ band: band.band, design: { kind: 'peaking', frequency: band.centreHz, q: 1.2, gainDb } });
  }
  // De-esser on the found band: centre its geometric middle, Q its width; the threshold 8 dB under the vowels'
  // median, 4:1 above it, at most the genre's depth.
  const s = analysis.sibilance;
  const centre = Math.sqrt(s.loHz * s.hiHz);
  const deEsser: DynamicBandParams | null =
    amounts.deEsser > 0 && s.frames > 0
      ? {
          centreHz: centre,
          q: clamp(centre / Math.max(1, s.hiHz - s.loHz), 0.7, 3),
          thresholdDb: s.vowelMedianDb - 8,
          slope: 0.75,
          maxCutDb: target.deEssDepthDb * amounts.deEsser,
        }
      : null;
  // Compression from the genre and the crest factor: a peaky take (crest over 18 dB) gets a lower threshold.
  const c = target.compression * amounts.compression;
  const crestExtra = Math.max(0, analysis.crestDb - 18) * 0.5;
  return {
    genre,
    target,
    amounts,
    ride: { maxUpDb: RIDE_UP_DB * amounts.riding, maxDownDb: RIDE_DOWN_DB * amounts.riding },
    eq,
    deEsser,
    compressorOffsetDb: 10 - 8 * c - crestExtra * amounts.compression,
    compressor: { ratio: 1 + 4 * c, kneeDb: 6, attackMs: 4, releaseMs: 90 },
  };
};

/** "What the mix did": every move with its number (mixer-page shows them). */
export interface VocalChainReport {
  genre: Genre;
  /** Mean gain over the pauses from the noise reduction, dB (negative: removed). */
  noiseRemovedDb: number;
  breathsLowered: number;
  breathLowerDb: number;
  clicksRepaired: number;
  clippedRepaired: number;
  ridingMinDb: number;
  ridingMaxDb: number;
  eqMoves: { band: EqMove['band']; frequencyHz: number; gainDb: number; dynamic: boolean }[];
  deEssBandHz: [number, number] | null;
  deEssMaxDb: number;
  deEssMeanDb: number;
  compressorMaxDb: number;
  compressorRatio: number;
  reverbDecaySeconds: number;
  reverbWet: number;
  delaySeconds: number;
  delayWet: number;
  tempoBpm: number | null;
  spaceDuckMaxDb: number;
  unmaskingAmount: number;
  unmaskingMaxDb: number;
}
