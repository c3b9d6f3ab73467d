/** Mix styles and weights (spec 4 'Mix style selection', spec 9 'Mixer'), as data. */
export const MIX_STYLE_IDS = ['vocals-forward', 'balanced', 'instrumental-forward'] as const;
export type MixStyleId = (typeof MIX_STYLE_IDS)[number];

export interface MixWeights {
  readonly vocals: number;
  readonly instrumental: number;
}

export interface MixStyle {
  readonly id: MixStyleId;
  readonly name: string;
  /** Vocal share in percent, as the style buttons set it. */
  readonly vocalShare: number;
  readonly weights: MixWeights;
}

/** The final mix's weights before a style is chosen. */
export const BASE_MIX_WEIGHTS: MixWeights = { vocals: 0.5, instrumental: 0.5 };

export const MIX_STYLES: Readonly<Record<MixStyleId, MixStyle>> = {
  'vocals-forward': {
    id: 'vocals-forward',
    name: 'Vocals Forward',
    vocalShare: 75,
    weights: { vocals: 0.75, instrumental: 0.25 },
  },
  balanced: { id: 'balanced', name: 'Balanced', vocalShare: 50, weights: { vocals: 0.5, instrumental: 0.5 } },
  'instrumental-forward': {
    id: 'instrumental-forward',
    name: 'Instrumental Forward',
    vocalShare: 25,
    weights: { vocals: 0.25, instrumental: 0.75 },
  },
};

/** Order the three previews are generated in (spec 4, Mix flow). */
export const PREVIEW_ORDER: readonly MixStyleId[] = ['vocals-forward', 'balanced', 'instrumental-forward'];

/** Above 65 is vocals forward; 35 to 65 inclusive is balanced; below 35 is instrumental forward. */
export const classifyVocalShare = (share: number): MixStyleId =>
  share > 65 ? 'vocals-forward' : share >= 35 ? 'balanced' : 'instrumental-forward';

/** Weights for any vocal share 0..100 (the two always sum to 1). */
export const weightsForShare = (share: number): MixWeights => {
  const v = Math.min(Math.max(share, 0), 100) / 100;
  return { vocals: v, instrumental: 1 - v };
};
