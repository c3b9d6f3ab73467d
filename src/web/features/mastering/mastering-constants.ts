/** Shared mastering constants, re-exported so the screen's files import them from one place. */
import { PLANS } from '../../../shared/plans';

export {
  DEFAULT_CUSTOM_SETTINGS,
  MASTERING_MODES,
  type MasteringMode,
  type MasteringSettings,
  manualTargetLufs,
  PRESET_IDS,
  PRESETS,
  type PresetId,
  TRUE_PEAK_CEILING_DBTP,
} from '../../../shared/mastering';

/** Which plans may use manual mastering, from the one plans table (src/shared/plans.ts). */
export const PLANS_MANUAL_NOTE = {
  pro: PLANS.pro.manualMastering,
  unlimited: PLANS.unlimited.manualMastering,
} as const;

export const SLIDERS = [
  { key: 'compression', label: 'Compression' },
  { key: 'brightness', label: 'Brightness' },
  { key: 'warmth', label: 'Warmth' },
  { key: 'stereoWidth', label: 'Stereo Width' },
  { key: 'loudness', label: 'Loudness' },
] as const;
