/** Mastering settings, presets and loudness targets (spec sections 3 and 9; engine issue for targets). */
export interface MasteringSettings {
  compression: number;
  brightness: number;
  warmth: number;
  stereoWidth: number;
  loudness: number;
  /**
   * Manual mode only: how far the corrective EQ moves the track toward the target tonal curve, 0-100 %
   * (decision 112). Absent: the preset's `toneMatch`.
   */
  toneMatch?: number;
}

export const PRESET_IDS = ['clean', 'balanced', 'loud'] as const;
export type PresetId = (typeof PRESET_IDS)[number];

export interface Preset {
  id: PresetId;
  name: string;
  settings: MasteringSettings;
  description: string;
  /** Integrated loudness the master is brought to, in LUFS. */
  targetLufs: number;
  /** Default "Tone match" amount, 0-100 % (Clean flatter: it moves the track least). */
  toneMatch: number;
  /** The preset's turn of the target tonal curve around 1 kHz, dB per octave (Loud brighter). */
  toneTiltDbPerOctave: number;
}

export const PRESETS: Record<PresetId, Preset> = {
  clean: {
    id: 'clean',
    name: 'Clean',
    settings: { compression: 15, brightness: 40, warmth: 60, stereoWidth: 45, loudness: 30 },
    description:
      'Minimal processing that preserves dynamics. Ideal for acoustic, classical and jazz recordings.',
    targetLufs: -16,
    toneMatch: 40,
    toneTiltDbPerOctave: 0,
  },
  balanced: {
    id: 'balanced',
    name: 'Balanced',
    settings: { compression: 45, brightness: 60, warmth: 40, stereoWidth: 55, loudness: 65 },
    description: 'Moderate loudness that suits most genres and streaming platforms.',
    targetLufs: -14,
    toneMatch: 70,
    toneTiltDbPerOctave: 0,
  },
  loud: {
    id: 'loud',
    name: 'Loud',
    settings: { compression: 75, brightness: 70, warmth: 30, stereoWidth: 65, loudness: 85 },
    description: 'Maximum loudness for EDM, rock, hip-hop and commercial pop.',
    targetLufs: -9,
    toneMatch: 85,
    toneTiltDbPerOctave: 0.5,
  },
};

export const DEFAULT_CUSTOM_SETTINGS: MasteringSettings = {
  compression: 40,
  brightness: 55,
  warmth: 45,
  stereoWidth: 55,
  loudness: 60,
};

/** Manual mode: the loudness slider maps linearly from -20 LUFS (0) to -8 LUFS (100). */
export const manualTargetLufs = (loudness: number): number => -20 + (loudness / 100) * 12;

/** True-peak ceiling of every master, in dBTP. */
export const TRUE_PEAK_CEILING_DBTP = -1;

export const MASTERING_MODES = ['automatic', 'manual'] as const;
export type MasteringMode = (typeof MASTERING_MODES)[number];
