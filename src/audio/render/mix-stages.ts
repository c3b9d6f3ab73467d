/** The seven mixdown stages of spec 9, in order, with the status line each shows while it really runs. */
export const MIX_STAGES = ['organise', 'balance', 'pan', 'eq', 'dynamics', 'effects', 'final'] as const;
export type MixStage = (typeof MIX_STAGES)[number];

export const MIX_STAGE_MESSAGES: Readonly<Record<MixStage, string>> = {
  organise: 'Organizing session...',
  balance: 'Balancing volumes...',
  pan: 'Panning tracks...',
  eq: 'Applying EQ...',
  dynamics: 'Processing dynamics...',
  effects: 'Adding effects...',
  final: 'Final processing...',
};

/** Rough share of the render's time each stage takes, so the overall bar moves evenly. */
const STAGE_WEIGHTS: Readonly<Record<MixStage, number>> = {
  organise: 1,
  balance: 2,
  pan: 0.5,
  eq: 1,
  dynamics: 2,
  effects: 2,
  final: 3,
};

export interface MixProgress {
  stage: MixStage;
  /** 0..1 within the stage. */
  stageFraction: number;
  /** 0..1 over the whole render. */
  overall: number;
}

const TOTAL = MIX_STAGES.reduce((n, s) => n + STAGE_WEIGHTS[s], 0);

export const mixProgress = (stage: MixStage, stageFraction: number): MixProgress => {
  let before = 0;
  for (const s of MIX_STAGES) {
    if (s === stage) break;
    before += STAGE_WEIGHTS[s];
  }
  const f = Math.min(Math.max(stageFraction, 0), 1);
  return { stage, stageFraction: f, overall: (before + f * STAGE_WEIGHTS[stage]) / TOTAL };
};
