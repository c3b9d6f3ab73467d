/**
 * CUE sheets for the continuous record (issue 31). A CUE time is mm:ss:ff with 75 frames a second (the CD's
 * sector rate): one frame is 588 samples at 44.1 kHz and 640 at 48 kHz, so a start is exact to the sample
 * only when it lies on a frame; album-sequence.ts puts the starts there (SequenceOptions.cueAligned).
 */
import type { CueSheetInput } from './album-api';

export const CUE_FRAMES_PER_SECOND = 75;

/** Whole CUE frames at `sample` (rounded to the nearest frame when the sample lies between two). */
export const cueFrames = (sample: number, sampleRate: number): number =>
  Math.round((sample * CUE_FRAMES_PER_SECOND) / sampleRate);

/** mm:ss:ff of a sample position (minutes run past 99 for records over 100 minutes, as players accept). */
export const cueTime = (sample: number, sampleRate: number): string => {
  const frames = cueFrames(sample, sampleRate);
  const ff = frames % CUE_FRAMES_PER_SECOND;
  const seconds = Math.floor(frames / CUE_FRAMES_PER_SECOND);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(Math.floor(seconds / 60))}:${pad(seconds % 60)}:${pad(ff)}`;
};

/** ISRC: country (2 letters), registrant (3 letters or digits), year (2 digits), designation (5 digits). */
const ISRC = /^[A-Z]{2}[A-Z0-9]{3}[0-9]{7}$/;
const normalIsrc = (isrc: string) => isrc.replace(/[-\s]/g, '').toUpperCase();
export const isValidIsrc = (isrc: string): boolean => ISRC.test(normalIsrc(isrc));

/** A quoted CUE string: double quotes cannot be escaped in the format, so they become single quotes. */
const quoted = (text: string) =>
  `"${text
    .replace(/"/g, "'")
    .replace(/[\r\n]+/g, ' ')
    .trim()}"`;

/** The sheet, CRLF line ends (what Windows rippers and players write and all readers accept). */
export const cueSheet = (input: CueSheetInput): string => {
  const lines: string[] = [];
  if (input.performer) lines.push(`PERFORMER ${quoted(input.performer)}`);
  lines.push(`TITLE ${quoted(input.title)}`);
  lines.push(`FILE ${quoted(input.fileName)} ${input.fileType ?? 'WAVE'}`);
  let previous = -1;
  input.tracks.forEach((track, i) => {
    const frames = cueFrames(track.startSample, input.sampleRate);
    if (frames <= previous) throw new RangeError(`Track ${i + 1} starts before or at the track before it`);
    if (i === 0 && frames !== 0) throw new RangeError('The first track starts at 00:00:00');
    previous = frames;
    lines.push(`  TRACK ${String(i + 1).padStart(2, '0')} AUDIO`);
    lines.push(`    TITLE ${quoted(track.title)}`);
    const performer = track.performer ?? input.performer;
    if (performer) lines.push(`    PERFORMER ${quoted(performer)}`);
    if (track.isrc) {
      if (!isValidIsrc(track.isrc)) throw new RangeError(`Track ${i + 1}: "${track.isrc}" is not an ISRC`);
      lines.push(`    ISRC ${normalIsrc(track.isrc)}`);
    }
    lines.push(`    INDEX 01 ${cueTime(track.startSample, input.sampleRate)}`);
  });
  return `${lines.join('\r\n')}\r\n`;
};
