/** Export limits and their user-facing messages (spec 5, Mastering; spec 9). */
export const EXPORT_MAX_BYTES = 100 * 1024 * 1024;
export const EXPORT_MAX_CHANNELS = 2;

export const EXPORT_MESSAGES = {
  tooLarge: 'Audio file too large for export',
  emptyBuffer: 'Invalid or empty audio buffer',
  noFormat: 'Select at least one format',
} as const;

/** An export that cannot be made; `message` is the user-facing text. */
export class ExportError extends Error {
  override name = 'ExportError';
}

/**
 * The channels to export: at most two (a surround source keeps its front left/right), all of one length,
 * at least one sample. Throws the spec's 'Invalid or empty audio buffer' otherwise.
 */
export const exportChannels = (channels: readonly Float32Array[]): Float32Array[] => {
  const kept = channels.slice(0, EXPORT_MAX_CHANNELS);
  const length = kept[0]?.length ?? 0;
  if (length === 0 || kept.some((c) => c.length !== length))
    throw new ExportError(EXPORT_MESSAGES.emptyBuffer);
  return kept;
};

export const validSampleRate = (sampleRate: number): number => {
  if (!Number.isInteger(sampleRate) || sampleRate < 1 || sampleRate > 768_000) {
    throw new ExportError(EXPORT_MESSAGES.emptyBuffer);
  }
  return sampleRate;
};
