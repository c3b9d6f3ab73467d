import { clipEnd, type TimelineClip } from '../model/clip';

/** A decoded source: its channels at its own rate (files are decoded at their own rate, DESIGN pitfalls). */
export interface MixSource {
  channels: Float32Array[];
  sampleRate: number;
}

/** Edge fade at cut points (not at the file's own start and end), so a cut never clicks. */
export const CUT_FADE_SECONDS = 0.002;

/**
 * Channels a track's stem needs: a mono source stays one channel (its stereo stem would hold the same
 * samples on both sides; the mixdown treats one channel as that stem until the reverb makes it stereo).
 */
export const stemChannelCount = (source: MixSource | null): 1 | 2 =>
  !source || source.channels.length < 2 ? 1 : 2;

/**
 * Stage 1, organise the session: one track's clips laid out at their positions into a stereo stem covering
 * timeline samples [windowStart, windowStart + length). Overlapping clips add. A mono source fills both sides.
 * A source at another rate than the timeline is read through cubic Hermite interpolation.
 */
export const organiseStem = (
  source: MixSource | null,
  clips: readonly TimelineClip[],
  timelineRate: number,
  windowStart: number,
  length: number,
): [Float32Array, Float32Array] =>
  organiseChannels(source, clips, timelineRate, windowStart, length, 2) as [Float32Array, Float32Array];

/**
 * The source's own channels when the stem would be exactly them (one clip of the whole file at the window's
 * start, same rate, same length, so no fade and no interpolation), else null. The mixdown then reads the
 * source instead of copying it; the caller must never write to them (the worker keeps its sources).
 */
export const sourceAsStem = (
  source: MixSource | null,
  clips: readonly TimelineClip[],
  timelineRate: number,
  windowStart: number,
  length: number,
): readonly Float32Array[] | null => {
  const clip = clips.length === 1 ? clips[0]! : null;
  const frames = source?.channels[0]?.length ?? 0;
  const whole =
    !!clip &&
    source!.sampleRate === timelineRate &&
    clip.position === windowStart &&
    clip.sourceStart === 0 &&
    clip.sourceEnd === frames &&
    frames === length;
  return whole ? source!.channels.slice(0, 2) : null;
};

/** organiseStem with `channelCount` output channels (1: the left side only, see stemChannelCount). */
export const organiseChannels = (
  source: MixSource | null,
  clips: readonly TimelineClip[],
  timelineRate: number,
  windowStart: number,
  length: number,
  channelCount: 1 | 2,
): Float32Array[] => {
  const out = Array.from({ length: channelCount }, () => new Float32Array(length));
  organiseInto(out, source, clips, timelineRate, windowStart);
  return out;
};

/**
 * organiseChannels into given arrays (zeroed first; their length is the window's): the live vocal
 * AudioWorklet lays out each 128-frame quantum with this very code, so it plays what the render organises.
 */
export const organiseInto = (
  out: readonly Float32Array[],
  source: MixSource | null,
  clips: readonly TimelineClip[],
  timelineRate: number,
  windowStart: number,
): void => {
  const length = out[0]?.length ?? 0;
  for (const target of out) target.fill(0);
  if (!source || source.channels.length === 0) return;
  const sourceLength = source.channels[0]!.length;
  const ratio = source.sampleRate / timelineRate;
  const fade = Math.max(1, Math.round(CUT_FADE_SECONDS * timelineRate));
  /** Timeline ranges already written: a clip over none of them is copied, not added. */
  const written: [number, number][] = [];
  for (const clip of clips) {
    const from = Math.max(clip.position, windowStart);
    const to = Math.min(clipEnd(clip), windowStart + length);
    if (to <= from) continue;
    const fresh = !written.some(([a, b]) => from < b && a < to);
    written.push([from, to]);
    for (let side = 0; side < out.length; side++) {
      const input = source.channels[Math.min(side, source.channels.length - 1)]!;
      const target = out[side]!;
      if (ratio === 1) {
        // Same rate: a straight add over the part of the clip the source really holds. Over silence that is a
        // copy, and set() is several times faster than adding into fresh memory (which is read, then written).
        const src = clip.sourceStart + (from - clip.position);
        const count = Math.min(to - from, sourceLength - src);
        const dst = from - windowStart;
        if (fresh && count > 0) target.set(input.subarray(src, src + count), dst);
        else for (let k = 0; k < count; k++) target[dst + k]! += input[src + k]!;
      } else {
        for (let t = from; t < to; t++) {
          target[t - windowStart]! += hermite(
            input,
            (clip.sourceStart + (t - clip.position)) * ratio,
            sourceLength,
          );
        }
      }
    }
    // Fades only where the clip was cut out of the file, over the part inside this window.
    const fadeIn = clip.sourceStart > 0;
    const fadeOut = Math.round(clip.sourceEnd * ratio) < sourceLength;
    for (let k = 0; k < fade; k++) {
      const g = 0.5 - 0.5 * Math.cos((Math.PI * (k + 0.5)) / fade);
      const a = clip.position + k - windowStart;
      const b = clipEnd(clip) - 1 - k - windowStart;
      for (const target of out) {
        if (fadeIn && a >= 0 && a < length && clip.position + k < to) target[a]! *= g;
        if (fadeOut && b >= 0 && b < length && clipEnd(clip) - 1 - k >= from) target[b]! *= g;
      }
    }
  }
};

/** Cubic Hermite (Catmull-Rom) interpolation of `x` at fractional index `pos`; zero outside the signal. */
const hermite = (x: Float32Array, pos: number, n: number): number => {
  const i = Math.floor(pos);
  const f = pos - i;
  const xm1 = i - 1 >= 0 && i - 1 < n ? x[i - 1]! : 0;
  const x0 = i >= 0 && i < n ? x[i]! : 0;
  const x1 = i + 1 < n && i + 1 >= 0 ? x[i + 1]! : 0;
  const x2 = i + 2 < n && i + 2 >= 0 ? x[i + 2]! : 0;
  const c1 = 0.5 * (x1 - xm1);
  const c2 = xm1 - 2.5 * x0 + 2 * x1 - 0.5 * x2;
  const c3 = 0.5 * (x2 - xm1) + 1.5 * (x0 - x1);
  return ((c3 * f + c2) * f + c1) * f + x0;
};
