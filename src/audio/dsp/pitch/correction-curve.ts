/**
 * The correction curve (decision 201): from the tracked pitch, the pitch each voiced frame should have.
 *
 * - Each voiced run is cut into notes (stretches of steady pitch, vibrato included); a note's median is
 *   snapped to the nearest note of the scale, once for the whole note, so it cannot flap between two targets.
 * - Humanize keeps that share of the vibrato (the deviation from a ~190 ms moving average inside the note,
 *   which removes a 4-7 Hz vibrato from the centre) and of the glides between notes (which keep their sung
 *   shape, moved by the neighbouring notes' corrections).
 * - Retune speed is the time constant of a one-pole smoother on the shift: 0 ms is the hard step of the
 *   "robot" sound, larger values let the voice slide into the note.
 * - Amount scales the final shift (0 = no change at all).
 */
import type { PitchSettings } from '../../../shared/pitch-settings';
import { hzToMidi, type PitchTrack } from './pitch-track';

const MAJOR = [0, 2, 4, 5, 7, 9, 11];
const MINOR = [0, 2, 3, 5, 7, 8, 10];
/** Half-width of the centre's moving average, in frames (10 ms each). */
const CENTRE_HALF = 9;
/** Frames (10 ms) each side of a candidate note boundary whose mean pitches are compared. */
const STEP_FRAMES = 16;
/** A change of the mean pitch larger than this (semitones) starts a new note. */
const STEP_SEMITONES = 0.3;
/** Neighbouring stretches whose medians are closer than this are one note. */
const MERGE_SEMITONES = 0.3;
/** Frames each side of a boundary that belong to the transition. */
const TRANSITION_FRAMES = 3;
/** Shorter stretches (10 ms frames) are transitions between notes. */
const MIN_NOTE_FRAMES = 6;

export type ScaleKey = PitchSettings['key'];

/** Pitch classes of the scale (all twelve when chromatic). */
export const scalePitchClasses = (key: ScaleKey): number[] =>
  key ? (key.mode === 'major' ? MAJOR : MINOR).map((i) => (i + key.tonic) % 12) : [...Array(12).keys()];

/** Nearest note (MIDI number) of the scale to a fractional MIDI pitch. */
export const nearestScaleNote = (midi: number, classes: readonly number[]): number => {
  let best = Math.round(midi);
  let bestDist = Number.POSITIVE_INFINITY;
  const base = Math.floor(midi);
  for (let n = base - 2; n <= base + 3; n++) {
    if (!classes.includes(((n % 12) + 12) % 12)) continue;
    const d = Math.abs(n - midi);
    if (d < bestDist) {
      bestDist = d;
      best = n;
    }
  }
  return best;
};

export interface CorrectionCurve {
  /** Detected pitch per frame in MIDI (NaN where unvoiced). */
  detected: Float32Array;
  /** Target note per frame (NaN where unvoiced). */
  target: Float32Array;
  /** Pitch after correction per frame (NaN where unvoiced). */
  corrected: Float32Array;
  /** Pitch ratio to apply per frame (1 where unvoiced). */
  ratio: Float32Array;
}

export const buildCorrectionCurve = (track: PitchTrack, settings: PitchSettings): CorrectionCurve => {
  const n = track.f0.length;
  const detected = new Float32Array(n).fill(Number.NaN);
  const target = new Float32Array(n).fill(Number.NaN);
  const corrected = new Float32Array(n).fill(Number.NaN);
  const ratio = new Float32Array(n).fill(1);
  const classes = scalePitchClasses(settings.key);
  const amount = Math.min(Math.max(settings.amount, 0), 100) / 100;
  const keep = Math.min(Math.max(settings.humanize, 0), 100) / 100;
  const frameSeconds = track.hop / track.sampleRate;
  const retune = Math.max(0, settings.retuneMs) / 1000;
  const alpha = retune > 0 ? 1 - Math.exp(-frameSeconds / retune) : 1;

  for (let f = 0; f < n; f++) if (track.f0[f]! > 0) detected[f] = hzToMidi(track.f0[f]!);
  let f = 0;
  while (f < n) {
    if (!(track.f0[f]! > 0)) {
      f++;
      continue;
    }
    let end = f;
    while (end < n && track.f0[end]! > 0) end++;
    correctRun(f, end);
    f = end;
  }
  return { detected, target, corrected, ratio };

  function correctRun(start: number, end: number): void {
    const p = detected.subarray(start, end);
    const notes = segmentNotes(p);
    const len = p.length;
    const desired = new Float64Array(len);
    const isNote = new Uint8Array(len);
    for (const note of notes) {
      // The note's target from its median, its centre a moving average inside the note only (a window that
      // crossed into the next note would pull the centre, and the target, toward it).
      const sorted = Array.from(p.subarray(note.start, note.end)).sort((a, b) => a - b);
      const goal = nearestScaleNote(sorted[sorted.length >> 1]!, classes);
      const prefix = new Float64Array(note.end - note.start + 1);
      for (let i = note.start; i < note.end; i++)
        prefix[i - note.start + 1] = prefix[i - note.start]! + p[i]!;
      for (let i = note.start; i < note.end; i++) {
        const k = i - note.start;
        const half = Math.min(CENTRE_HALF, k, note.end - 1 - i);
        const c = (prefix[k + half + 1]! - prefix[k - half]!) / (2 * half + 1);
        desired[i] = goal + keep * (p[i]! - c) - p[i]!;
        target[start + i] = goal;
        isNote[i] = 1;
      }
    }
    // Glides and other frames between notes: the sung shape, moved by the neighbouring notes' corrections
    // (humanize's share), or snapped frame by frame to the nearest note (the rest).
    for (let i = 0; i < len; i++) {
      if (isNote[i]) continue;
      let a = i;
      while (a >= 0 && !isNote[a]) a--;
      let b = i;
      while (b < len && !isNote[b]) b++;
      const before = a >= 0 ? desired[a]! : b < len ? desired[b]! : 0;
      const after = b < len ? desired[b]! : before;
      const t = a >= 0 && b < len ? (i - a) / (b - a) : 0.5;
      const snapped = nearestScaleNote(p[i]!, classes);
      desired[i] = keep * (before + t * (after - before)) + (1 - keep) * (snapped - p[i]!);
      target[start + i] = snapped;
    }
    let shift = desired[0]!;
    for (let i = 0; i < len; i++) {
      shift += alpha * (desired[i]! - shift);
      const applied = amount * shift;
      corrected[start + i] = p[i]! + applied;
      ratio[start + i] = 2 ** (applied / 12);
    }
  }
};

interface NoteSpan {
  start: number;
  end: number;
}

/**
 * Notes of a voiced run, cut where the mean pitch of the next STEP_FRAMES differs from that of the last
 * STEP_FRAMES by more than STEP_SEMITONES (a local maximum of that step). Windows about one vibrato period
 * long average a vibrato out, so a wide vibrato stays one note while two notes 30 cents apart are two. The
 * frames right at a cut (and stretches shorter than MIN_NOTE_FRAMES) are transitions, not notes.
 */
export const segmentNotes = (p: ArrayLike<number>): NoteSpan[] => {
  const len = p.length;
  const prefix = new Float64Array(len + 1);
  for (let i = 0; i < len; i++) prefix[i + 1] = prefix[i]! + p[i]!;
  const mean = (a: number, b: number) => (prefix[b]! - prefix[a]!) / (b - a);
  const step = new Float64Array(len);
  for (let i = 1; i < len; i++) {
    const w = Math.min(STEP_FRAMES, i, len - i);
    step[i] = Math.abs(mean(i, i + w) - mean(i - w, i));
  }
  const cuts: number[] = [];
  for (let i = 1; i < len - 1; i++)
    if (step[i]! > STEP_SEMITONES && step[i]! >= step[i - 1]! && step[i]! > step[i + 1]!) cuts.push(i);
  const notes: NoteSpan[] = [];
  const bounds = [0, ...cuts, len];
  for (let k = 0; k + 1 < bounds.length; k++) {
    const a = bounds[k]! + (k > 0 ? TRANSITION_FRAMES : 0);
    const b = bounds[k + 1]! - (k + 2 < bounds.length ? TRANSITION_FRAMES : 0);
    if (b - a >= MIN_NOTE_FRAMES) notes.push({ start: a, end: b });
  }
  // A cut inside one sung note (a scoop into a vibrato, say) leaves two stretches with nearly the same
  // median: join them, so the note keeps one target.
  const median = (n: NoteSpan) => {
    const v = Array.from({ length: n.end - n.start }, (_, i) => p[n.start + i]!).sort((x, y) => x - y);
    return v[v.length >> 1]!;
  };
  for (let k = notes.length - 1; k > 0; k--) {
    const a = notes[k - 1]!;
    const b = notes[k]!;
    if (b.start - a.end <= 2 * TRANSITION_FRAMES && Math.abs(median(a) - median(b)) < MERGE_SEMITONES)
      notes.splice(k - 1, 2, { start: a.start, end: b.end });
  }
  return notes;
};
