import type { ExportFormat, ExportRate } from '../engine/engine-api';
import { TEXT } from '../mastering-texts';

export interface FormatOption {
  format: ExportFormat;
  label: string;
  caption: string;
}

/** The spec's dialog, shown at first sight. */
export const SPEC_OPTIONS: FormatOption[] = [
  { format: 'wav', label: 'WAV', caption: TEXT.wavCaption },
  { format: 'mp3', label: 'MP3', caption: TEXT.mp3Caption },
];

/** The studio formats, behind the "More formats" disclosure. */
export const MORE_OPTIONS: FormatOption[] = [
  { format: 'wav24', label: 'WAV 24-bit', caption: TEXT.wav24Caption },
  { format: 'wav32f', label: 'WAV 32-bit float', caption: TEXT.wav32fCaption },
  { format: 'flac16', label: 'FLAC 16-bit', caption: TEXT.flac16Caption },
  { format: 'flac24', label: 'FLAC 24-bit', caption: TEXT.flac24Caption },
];

export const RATE_OPTIONS: { rate: ExportRate; label: (source: number) => string }[] = [
  { rate: 'source', label: TEXT.rateSource },
  { rate: 44_100, label: () => '44.1 kHz' },
  { rate: 48_000, label: () => '48 kHz' },
];
