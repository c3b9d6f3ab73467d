/**
 * The continuous record (issue 31): mastered tracks joined with silence (default 2 s, 0 = gapless) or an
 * equal-power crossfade, every track's start known to the sample. One layout serves the full render, the
 * preview's playhead and the transition auditions, so what is auditioned is what is delivered.
 */
import type { SequencedAlbum, SequenceLayout, SequenceOptions, TransitionAudition } from './album-api';
import { AUDITION_SECONDS, DEFAULT_GAP_SECONDS } from './album-api';
import { CUE_FRAMES_PER_SECOND } from './cue-sheet';

/** The layout plus what the render needs: each transition's crossfade length, samples. */
interface Layout extends SequenceLayout {
  crossfades: number[];
}

/** Samples per CUE frame when whole (44.1 kHz: 588), else null (such a rate cannot be exact). */
const cueFrameSamples = (sampleRate: number): number | null =>
  Number.isInteger(sampleRate / CUE_FRAMES_PER_SECOND) ? sampleRate / CUE_FRAMES_PER_SECOND : null;

const layoutOf = (lengths: readonly number[], sampleRate: number, options: SequenceOptions): Layout => {
  if (lengths.length === 0) throw new RangeError('A sequence needs at least one track');
  const frame = options.cueAligned === false ? null : cueFrameSamples(sampleRate);
  const gapDefault = options.gapSeconds ?? DEFAULT_GAP_SECONDS;
  const starts: number[] = [];
  const audioStarts: number[] = [];
  const audioEnds: number[] = [];
  const crossfades: number[] = [];
  let at = 0;
  lengths.forEach((length, i) => {
    if (!Number.isInteger(length) || length < 0) throw new RangeError('Track lengths are whole samples');
    if (i > 0) {
      const t = options.transitions?.[i - 1];
      const prevEnd = audioEnds[i - 1]!;
      const wanted = Math.round(Math.max(0, t?.crossfadeSeconds ?? 0) * sampleRate);
      // A crossfade cannot be longer than either track it joins.
      const fade = Math.min(wanted, lengths[i - 1]!, length);
      let marker: number;
      if (fade > 0) {
        at = prevEnd - fade;
        marker = frame ? Math.round(at / frame) * frame : at;
      } else {
        const gap = Math.round(Math.max(0, t?.gapSeconds ?? gapDefault) * sampleRate);
        at = prevEnd + gap;
        // A gap grows by under one frame so the next track's first sample is on a CUE frame; a gapless
        // join keeps its audio (moving it would open a gap) and rounds only its marker.
        if (frame && gap > 0) at = Math.ceil(at / frame) * frame;
        marker = frame && gap === 0 ? Math.round(at / frame) * frame : at;
      }
      crossfades.push(fade);
      starts.push(Math.max(marker, starts[i - 1]! + 1));
    } else starts.push(0);
    audioStarts.push(at);
    audioEnds.push(at + length);
  });
  return {
    sampleRate,
    frames: Math.max(...audioEnds),
    starts,
    audioStarts,
    audioEnds,
    crossfades,
  };
};

/** The layout of a record of tracks of these lengths (samples), without audio: playhead and track list. */
export const planSequence = (
  lengths: readonly number[],
  sampleRate: number,
  options: SequenceOptions = {},
): SequenceLayout => {
  const { crossfades: _, ...layout } = layoutOf(lengths, sampleRate, options);
  return layout;
};

/**
 * Adds track `i` of the layout, with its fades, into `out` (samples [from, to) of the record): equal power
 * (cos/sin), so a join of uncorrelated material keeps its loudness; the gain at sample n of an N-sample fade
 * is taken at (n + 0.5) / N, so the two fades sum to exactly 1 in power at every sample. The record's samples
 * are the tracks added in order, 0 first.
 */
const addTrack = (
  out: readonly Float32Array[],
  layout: Layout,
  i: number,
  track: readonly Float32Array[],
  from: number,
  to: number,
): void => {
  const start = layout.audioStarts[i]!;
  const end = layout.audioEnds[i]!;
  const lo = Math.max(from, start);
  const hi = Math.min(to, end);
  if (hi <= lo) return;
  const fadeIn = i > 0 ? layout.crossfades[i - 1]! : 0;
  const fadeOut = i < layout.audioStarts.length - 1 ? layout.crossfades[i]! : 0;
  for (let c = 0; c < out.length; c++) {
    // A mono track plays in every channel of a stereo record.
    const input = track[Math.min(c, track.length - 1)]!;
    const output = out[c]!;
    for (let p = lo; p < hi; p++) {
      const n = p - start;
      let g = 1;
      if (n < fadeIn) g = Math.sin((Math.PI / 2) * ((n + 0.5) / fadeIn));
      const left = end - 1 - p;
      if (left < fadeOut) g *= Math.sin((Math.PI / 2) * ((left + 0.5) / fadeOut));
      output[p - from] = output[p - from]! + g * input[n]!;
    }
  }
};

/** Samples [from, to) of the record. */
const renderRange = (
  tracks: readonly (readonly Float32Array[])[],
  layout: Layout,
  from: number,
  to: number,
): Float32Array[] => {
  const count = Math.max(...tracks.map((t) => t.length));
  const out = Array.from({ length: count }, () => new Float32Array(to - from));
  tracks.forEach((track, i) => {
    addTrack(out, layout, i, track, from, to);
  });
  return out;
};

const checkTracks = (tracks: readonly (readonly Float32Array[])[]) => {
  for (const t of tracks) {
    if (t.length === 0) throw new RangeError('A track has no channels');
    if (t.some((c) => c.length !== t[0]!.length)) throw new RangeError("A track's channels differ in length");
  }
};

/** The whole record as one buffer, with each track's start. */
export const sequenceAlbum = (
  tracks: readonly (readonly Float32Array[])[],
  sampleRate: number,
  options: SequenceOptions = {},
): SequencedAlbum => {
  checkTracks(tracks);
  const layout = layoutOf(
    tracks.map((t) => t[0]!.length),
    sampleRate,
    options,
  );
  const { crossfades: _, ...view } = layout;
  return { ...view, channels: renderRange(tracks, layout, 0, layout.frames) };
};

/**
 * The record built a track at a time, so a caller never holds every track's copy at once (the encoder worker
 * does this for the album's delivery, decision 320): `add` the tracks in order, then `take` the record, which
 * holds exactly sequenceAlbum's samples.
 */
export class RecordBuilder {
  readonly #layout: Layout;
  readonly #channels: Float32Array[];
  #next = 0;

  /** `lengths`: each track's samples; `channels`: the record's (the most any track has). */
  constructor(
    lengths: readonly number[],
    channels: number,
    sampleRate: number,
    options: SequenceOptions = {},
  ) {
    if (!Number.isInteger(channels) || channels < 1)
      throw new RangeError('A record has at least one channel');
    this.#layout = layoutOf(lengths, sampleRate, options);
    this.#channels = Array.from({ length: channels }, () => new Float32Array(this.#layout.frames));
  }

  /** Adds the next track (its channels as long as its length in the layout, at most the record's count). */
  add(track: readonly Float32Array[]): void {
    const i = this.#next;
    if (i >= this.#layout.audioStarts.length) throw new RangeError('Every track is already in the record');
    checkTracks([track]);
    if (track.length > this.#channels.length)
      throw new RangeError('A track has more channels than the record');
    if (track[0]!.length !== this.#layout.audioEnds[i]! - this.#layout.audioStarts[i]!)
      throw new RangeError("A track's length differs from the layout's");
    addTrack(this.#channels, this.#layout, i, track, 0, this.#layout.frames);
    this.#next++;
  }

  /** The finished record (every track added). */
  take(): SequencedAlbum {
    if (this.#next < this.#layout.audioStarts.length)
      throw new RangeError('A track is missing from the record');
    const { crossfades: _, ...view } = this.#layout;
    return { ...view, channels: this.#channels };
  }
}

/**
 * The transition from track `index` into the next, as the record plays it: the last `seconds` of the one
 * (from its marker at the earliest) into the first `seconds` of the next (to its end at the latest).
 */
export const transitionAudition = (
  tracks: readonly (readonly Float32Array[])[],
  sampleRate: number,
  options: SequenceOptions,
  index: number,
  seconds: number = AUDITION_SECONDS,
): TransitionAudition => {
  checkTracks(tracks);
  if (!Number.isInteger(index) || index < 0 || index >= tracks.length - 1)
    throw new RangeError('A transition joins a track to the next one');
  const layout = layoutOf(
    tracks.map((t) => t[0]!.length),
    sampleRate,
    options,
  );
  const span = Math.round(seconds * sampleRate);
  const from = Math.max(layout.starts[index]!, layout.audioEnds[index]! - span);
  const to = Math.min(layout.audioEnds[index + 1]!, layout.audioStarts[index + 1]! + span);
  return {
    channels: renderRange(tracks, layout, from, to),
    sampleRate,
    boundary: layout.starts[index + 1]! - from,
  };
};

/**
 * The record cut at its track starts (views, no copies): per-track files that play back to back as the record
 * does, to the sample (a gap stays at the end of the track before it; a gapless join is cut at its marker).
 */
export const trackSlices = (album: SequencedAlbum): Float32Array[][] =>
  album.starts.map((start, i) =>
    album.channels.map((c) => c.subarray(start, album.starts[i + 1] ?? album.frames)),
  );
