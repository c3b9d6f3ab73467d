/**
 * The mastering screen's status line (spec 4, 'Mastering'), driven by the render's real stages instead of
 * the original's 700 ms timer: each stage shows the spec's step as it starts.
 */
import type { MasteringStage } from './mastering-chain';

export interface MasteringStatus {
  percent: number;
  message: string;
}

const STEPS: Record<MasteringStage, (preset: string) => MasteringStatus> = {
  analysing: () => ({ percent: 0, message: 'Analyzing audio characteristics...' }),
  spectrum: () => ({ percent: 10, message: 'Analyzing frequency spectrum...' }),
  building: () => ({ percent: 25, message: 'Creating multiple masters...' }),
  processing: (preset) => ({ percent: 50, message: `Applying ${preset} mastering...` }),
  loudness: () => ({ percent: 75, message: 'Converting processed audio...' }),
  limiting: () => ({ percent: 90, message: 'Finalizing mastered track...' }),
};

/** Status for a stage, or the final one when `stage` is 'done'. `preset` is the display name (e.g. 'Balanced'). */
export const masteringStatus = (stage: MasteringStage | 'done', preset: string): MasteringStatus =>
  stage === 'done' ? { percent: 100, message: `${preset} mastering complete!` } : STEPS[stage](preset);
