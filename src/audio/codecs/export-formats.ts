import { EXPORT_MESSAGES, ExportError } from './export-errors';

/**
 * The formats a download can produce, in the order they are produced. 'wav' (16-bit, TPDF dither) and
 * 'mp3' (320 kbps) are the spec's; the others are the studio formats behind "More formats".
 */
export const EXPORT_FORMATS = ['wav', 'mp3', 'wav24', 'wav32f', 'flac16', 'flac24'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** The spec's two formats: the ones the dialog shows at first sight, and the mixer's only ones. */
export type SpecFormat = 'wav' | 'mp3';
export const isSpecFormat = (format: ExportFormat): format is SpecFormat =>
  format === 'wav' || format === 'mp3';

/** Output sample rate: the source's (default) or a fixed one, reached by the polyphase resampler. */
export const EXPORT_RATES = ['source', 44_100, 48_000] as const;
export type ExportRate = (typeof EXPORT_RATES)[number];

export const MIME_TYPES: Record<ExportFormat, string> = {
  wav: 'audio/wav',
  mp3: 'audio/mpeg',
  wav24: 'audio/wav',
  wav32f: 'audio/wav',
  flac16: 'audio/flac',
  flac24: 'audio/flac',
};

/** Extension and the suffix that keeps two WAVs (or two FLACs) of one download apart. */
const FILE_PARTS: Record<ExportFormat, { suffix: string; ext: string }> = {
  wav: { suffix: '', ext: 'wav' },
  mp3: { suffix: '', ext: 'mp3' },
  wav24: { suffix: '-24bit', ext: 'wav' },
  wav32f: { suffix: '-32float', ext: 'wav' },
  flac16: { suffix: '-16bit', ext: 'flac' },
  flac24: { suffix: '-24bit', ext: 'flac' },
};

/**
 * The formats to produce, in a fixed order and without repeats. Unknown names are skipped (spec 8, mix
 * download); an empty choice is refused.
 */
export const chosenFormats = (formats: readonly string[]): ExportFormat[] => {
  const chosen = EXPORT_FORMATS.filter((f) => formats.includes(f));
  if (chosen.length === 0) throw new ExportError(EXPORT_MESSAGES.noFormat);
  return chosen;
};

/**
 * Spec 9 file names: 'Mixdown.wav' / 'Mixdown.mp3' for mixes, 'mastered-{preset}-{timestamp}.{ext}' for
 * masters; the studio formats add their depth ('mastered-loud-1700000000000-24bit.flac').
 */
export const exportFileName = (
  format: ExportFormat,
  source: { kind: 'mix' } | { kind: 'master'; preset: string; timestamp: number; version?: string },
): string => {
  const { suffix, ext } = FILE_PARTS[format];
  if (source.kind === 'mix') return `Mixdown${suffix}.${ext}`;
  // Issue 18: a version of a mix's master adds its name ('mastered-loud-1700000000000-acappella.wav').
  const version = source.version ? `-${source.version}` : '';
  return `mastered-${source.preset}-${source.timestamp}${version}${suffix}.${ext}`;
};
