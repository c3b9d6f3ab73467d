/**
 * The mixdown's pitch-correction hook (issue 27): the vocal source is corrected before the vocal chain, so
 * the export and the previews (which share renderMix) hear the same correction. Corrections are kept per
 * decoded source and settings, so the previews and the mixdown do the work once.
 */
import type { PitchSettings } from '../../shared/pitch-settings';
import { correctPitch, pitchCorrectionActive } from '../dsp/pitch/correct-pitch';
import type { MixSource } from './mix-organise';

const corrected = new WeakMap<Float32Array, Map<string, MixSource>>();

/** The vocal source with its pitch corrected; the very same source when correction is off (amount 0). */
export const correctVocalSource = async (
  source: MixSource | null,
  pitch: PitchSettings | undefined,
  signal?: AbortSignal,
): Promise<MixSource | null> => {
  if (!source || !pitchCorrectionActive(pitch) || source.channels.length === 0) return source;
  const key = JSON.stringify(pitch);
  const hit = corrected.get(source.channels[0]!)?.get(key);
  if (hit) return hit;
  const result = await correctPitch(source.channels, source.sampleRate, pitch, { signal });
  const out: MixSource = { channels: result.channels, sampleRate: source.sampleRate };
  // One settled setting per source is enough: a slider drag must not pile up corrected copies.
  corrected.set(source.channels[0]!, new Map([[key, out]]));
  return out;
};
