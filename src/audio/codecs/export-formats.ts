import { EXPORT_MESSAGES, ExportError } from './export-errors';

export const EXPORT_FORMATS = ['wav', 'mp3'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export const MIME_TYPES: Record<ExportFormat, string> = { wav: 'audio/wav', mp3: 'audio/mpeg' };

/**
 * The formats to produce, in a fixed order and without repeats. Unknown names are skipped (spec 8, mix
 * download); an empty choice is refused.
 */
export const chosenFormats = (formats: readonly string[]): ExportFormat[] => {
  const chosen = EXPORT_FORMATS.filter((f) => formats.includes(f));
  if (chosen.length === 0) throw new ExportError(EXPORT_MESSAGES.noFormat);
  return chosen;
};

/** Spec 9 file names: 'Mixdown.wav' / 'Mixdown.mp3' for mixes, 'mastered-{preset}-{timestamp}.{ext}' for masters. */
export const exportFileName = (
  format: ExportFormat,
  source: { kind: 'mix' } | { kind: 'master'; preset: string; timestamp: number },
): string =>
  source.kind === 'mix' ? `Mixdown.${format}` : `mastered-${source.preset}-${source.timestamp}.${format}`;
