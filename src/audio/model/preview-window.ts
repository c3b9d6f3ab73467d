import { secondsToSamples } from './clip';

/** Spec 4/9: a preview plays 10 s starting at 20% of the vocal track's duration. */
export const PREVIEW_SECONDS = 10;
export const PREVIEW_START_FRACTION = 0.2;

export interface SampleWindow {
  readonly start: number;
  readonly length: number;
}

/** The preview window in timeline samples; it starts at 0 when no vocal is loaded. */
export const previewWindow = (vocalLengthSamples: number | undefined, sampleRate: number): SampleWindow => ({
  start: vocalLengthSamples ? Math.round(vocalLengthSamples * PREVIEW_START_FRACTION) : 0,
  length: secondsToSamples(PREVIEW_SECONDS, sampleRate),
});
