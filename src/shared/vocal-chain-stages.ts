/**
 * Issue 26: the adaptive vocal chain's stages, in the order they run. Shared so that the saved mix
 * arrangement can carry each stage's amount (the manual mode) and the engine can run them.
 */
import { z } from 'zod';

export const VOCAL_CHAIN_STAGES = [
  'cleanup',
  'riding',
  'eq',
  'deEsser',
  'compression',
  'space',
  'unmasking',
] as const;
export type VocalChainStage = (typeof VOCAL_CHAIN_STAGES)[number];

/** Per stage 0..1 (absent: 1), as the render takes them; unknown stages are refused. */
export const vocalChainAmountsSchema = z
  .object(Object.fromEntries(VOCAL_CHAIN_STAGES.map((s) => [s, z.number().min(0).max(1).optional()])))
  .strict() as z.ZodType<Partial<Record<VocalChainStage, number>>>;
export type VocalChainAmounts = z.infer<typeof vocalChainAmountsSchema>;
