/**
 * Pitch correction of a vocal source as one call: track (once per source), build the curve from the
 * settings, shift with PSOLA. Amount 0 returns the very input channels, so the mixdown is bit-identical to one
 * made without correction.
 */
import type { PitchSettings } from '../../../shared/pitch-settings';
import { buildCorrectionCurve, type CorrectionCurve } from './correction-curve';
import { monoOf, type PitchTrack, trackPitch } from './pitch-track';
import { type PsolaRun, psolaRuns, psolaShift } from './psola';

export interface PitchJobOptions {
  signal?: AbortSignal;
  /** 0..1 over tracking and shifting. */
  onProgress?: (fraction: number) => void;
  /** The tracking's checkpoints (TrackOptions). */
  checkpoint?: () => void;
}

export interface PitchCorrection {
  channels: Float32Array[];
  track: PitchTrack;
  curve: CorrectionCurve;
}

/** Correction is off when the amount is 0 (or the settings are absent). */
export const pitchCorrectionActive = (
  settings: PitchSettings | null | undefined,
): settings is PitchSettings => !!settings && settings.amount > 0;

/** Tracks are kept per source channel array: the tracker runs once per decoded vocal, not once per render. */
const trackCache = new WeakMap<Float32Array, PitchTrack>();

export const trackSource = async (
  channels: readonly Float32Array[],
  sampleRate: number,
  options: PitchJobOptions = {},
): Promise<PitchTrack> => {
  const key = channels[0]!;
  const cached = trackCache.get(key);
  if (cached && cached.sampleRate === sampleRate) return cached;
  const track = await trackPitch(monoOf(channels), sampleRate, options);
  trackCache.set(key, track);
  return track;
};

/** The shifter's runs and marks, kept per source beside its track: the live path asks for them per curve. */
const runsCache = new WeakMap<PitchTrack, PsolaRun[]>();

export const runsOfSource = (channels: readonly Float32Array[], track: PitchTrack): PsolaRun[] => {
  let runs = runsCache.get(track);
  if (!runs) {
    runs = psolaRuns(monoOf(channels), track);
    runsCache.set(track, runs);
  }
  return runs;
};

export const correctPitch = async (
  channels: readonly Float32Array[],
  sampleRate: number,
  settings: PitchSettings,
  options: PitchJobOptions = {},
): Promise<PitchCorrection> => {
  const report = options.onProgress;
  const track = await trackSource(channels, sampleRate, {
    signal: options.signal,
    onProgress: (f) => report?.(0.6 * f),
  });
  const curve = buildCorrectionCurve(track, settings);
  if (!pitchCorrectionActive(settings)) {
    report?.(1);
    return { channels: [...channels], track, curve };
  }
  options.signal?.throwIfAborted();
  const shifted = psolaShift(
    channels,
    monoOf(channels),
    track,
    curve.ratio,
    (done, total) => report?.(0.6 + (0.4 * done) / Math.max(1, total)),
    runsOfSource(channels, track),
  );
  return { channels: shifted, track, curve };
};
