/**
 * An MP3 encode split over several LAME encoders (one per worker) and joined into one gapless stream that
 * decodes like the serial encode.
 *
 * Segment i (i > 0) starts at input sample k_i * 1152, a frame boundary of the serial encode: LAME's delay
 * (576 samples) is the same in every segment, so its frame n is frame k_i + n of the serial stream. Its
 * first WARMUP_FRAMES frames are dropped (the psychoacoustic model, block switching and bit reservoir
 * start from silence there); segment i - 1 encodes past that point, so both encoders cover a run of
 * SEAM_CANDIDATES frames, and the seam is put at the first of them where
 *  - the block types of both encoders agree on the frames either side of the seam, so the window
 *    sequence stays valid and the MDCT overlap-add across the seam cancels its aliasing as usual, and
 *  - the bit reservoir fits: the later segment's seam frame starts its main data main_data_begin bytes back
 *    (into its own dropped frames). Those bytes are copied into the earlier segment's last kept frames,
 *    over slot bytes that hold none of its main data (checked: they are the reservoir it left unused).
 *    Every later frame's main data starts at or after that point, so the rest of the later segment is
 *    kept byte for byte.
 * Both encoders then quantize the same MDCT spectra around the seam; the difference from a serial encode
 * is the codec's own quantization noise, not a click. The joined stream has exactly the serial frame count,
 * so the LAME Info tag's delay and padding stay right.
 */
import { mp3FrameOffsets, mp3SideInfo, PartBytes } from './mp3-frames';

/** Samples per MPEG-1 Layer III frame. */
const FRAME = 1152;
/** Frames of a later segment dropped before the first possible seam (~0.4 s at 44.1 kHz). */
export const WARMUP_FRAMES = 16;
/** Frames at which a seam may fall. */
export const SEAM_CANDIDATES = 32;
/** Frames the earlier segment encodes past the last candidate (LAME looks ahead ~1 frame; its flush is dropped). */
export const LOOKAHEAD_FRAMES = 4;
/** Shorter inputs are encoded by one encoder: the split costs a fixed overlap and a second worker. */
export const MP3_PARALLEL_MIN_SECONDS = 20;

/** One encoder's share: the input samples [start, end), whose frame 0 is `firstFrame` of the serial stream. */
export interface Mp3Segment {
  start: number;
  end: number;
  firstFrame: number;
}

/**
 * How to split an encode of `length` samples over `count` encoders, or null when it should not be split:
 * too short, one encoder, or a rate LAME would resample (frames would not line up with input samples)
 * or one with MPEG-2's single-granule frames.
 */
export const planMp3Segments = (length: number, sampleRate: number, count: number): Mp3Segment[] | null => {
  if (count < 2 || ![32_000, 44_100, 48_000].includes(sampleRate)) return null;
  if (length < MP3_PARALLEL_MIN_SECONDS * sampleRate) return null;
  const overlap = WARMUP_FRAMES + SEAM_CANDIDATES + LOOKAHEAD_FRAMES;
  const frames = Math.ceil(length / FRAME);
  // Every segment but the last also encodes the overlap: equal shares of the work.
  const span = (frames - overlap * (count - 1)) / count;
  if (span < 2 * overlap) return null;
  const starts = Array.from({ length: count }, (_, i) => Math.round(i * span));
  return starts.map((k, i) => ({
    start: k * FRAME,
    end: i === count - 1 ? length : Math.min(length, (starts[i + 1]! + overlap) * FRAME),
    firstFrame: k,
  }));
};

/** A segment's encoded frames: its Blob parts and the serial frame index of its frame 0. */
export interface Mp3EncodedSegment {
  parts: readonly Uint8Array[];
  firstFrame: number;
}

/** No seam candidate passed the checks (the caller encodes serially instead). */
export class Mp3SeamError extends Error {
  override name = 'Mp3SeamError';
}

interface Stream {
  bytes: PartBytes;
  offsets: Float64Array;
  firstFrame: number;
}

const open = (parts: readonly Uint8Array[], firstFrame: number): Stream => {
  const bytes = new PartBytes(parts);
  return { bytes, offsets: mp3FrameOffsets(bytes), firstFrame };
};

/** Frames in a stream. */
const frameCount = (s: Stream) => s.offsets.length - 1;

/** The file ranges of the last `n` main-data slot bytes before frame `frame`'s slots. */
const slotTail = (s: Stream, frame: number, n: number): [number, number][] => {
  const ranges: [number, number][] = [];
  let left = n;
  for (let f = frame - 1; left > 0; f--) {
    if (f < 0) throw new Mp3SeamError('main_data_begin points before the stream');
    const begin = s.offsets[f]!;
    const slots = begin + mp3SideInfo(s.bytes, begin).header.sideEnd;
    const end = s.offsets[f + 1]!;
    const take = Math.min(left, end - slots);
    ranges.unshift([end - take, end]);
    left -= take;
  }
  return ranges;
};

const sameBlocks = (a: number[], b: number[]) => a.length === b.length && a.every((t, i) => t === b[i]);

/** The seam (a serial frame index) between `a` and `b`, or -1 when no candidate passes. */
const findSeam = (a: Stream, b: Stream): number => {
  const from = b.firstFrame + WARMUP_FRAMES;
  for (let seam = from; seam < from + SEAM_CANDIDATES; seam++) {
    const ia = seam - a.firstFrame;
    const ib = seam - b.firstFrame;
    if (ia + 1 > frameCount(a) || ib + 1 > frameCount(b)) break;
    const aBefore = mp3SideInfo(a.bytes, a.offsets[ia - 1]!);
    const aSeam = mp3SideInfo(a.bytes, a.offsets[ia]!);
    const bBefore = mp3SideInfo(b.bytes, b.offsets[ib - 1]!);
    const bSeam = mp3SideInfo(b.bytes, b.offsets[ib]!);
    if (!sameBlocks(aBefore.blockTypes, bBefore.blockTypes)) continue;
    if (!sameBlocks(aSeam.blockTypes, bSeam.blockTypes)) continue;
    // Slot bytes after a's last kept main data: its frame ia - 1's data ends that far before frame ia.
    const capacity = a.offsets[ia]! - a.offsets[ia - 1]! - aBefore.header.sideEnd;
    const unused = aBefore.mainDataBegin + capacity - Math.ceil(aBefore.mainDataBits / 8);
    if (bSeam.mainDataBegin <= unused) return seam;
  }
  return -1;
};

/** `a` up to the seam, then `b` from it, with b's reservoir bytes moved into a's unused tail. */
const joinTwo = (a: Stream, b: Stream): { parts: Uint8Array[]; seam: number } => {
  const seam = findSeam(a, b);
  if (seam < 0) throw new Mp3SeamError('No MP3 frame to join the segments at');
  const ia = seam - a.firstFrame;
  const ib = seam - b.firstFrame;
  const reach = mp3SideInfo(b.bytes, b.offsets[ib]!).mainDataBegin;
  const aEnd = a.offsets[ia]!;
  let parts: Uint8Array[];
  if (reach === 0) {
    parts = a.bytes.views(0, aEnd);
  } else {
    const into = slotTail(a, ia, reach);
    const from = slotTail(b, ib, reach);
    // Copy a's frames from the first one touched (a frame or two) and write b's bytes into their slots.
    let patchStart = 0;
    while (a.offsets[patchStart + 1]! <= into[0]![0]) patchStart++;
    const patchAt = a.offsets[patchStart]!;
    const patch = a.bytes.copy(patchAt, aEnd);
    const moved = new Uint8Array(reach);
    let at = 0;
    for (const [s, e] of from) {
      moved.set(b.bytes.copy(s, e), at);
      at += e - s;
    }
    at = 0;
    for (const [s, e] of into) {
      patch.set(moved.subarray(at, at + e - s), s - patchAt);
      at += e - s;
    }
    parts = [...a.bytes.views(0, patchAt), patch];
  }
  parts.push(...b.bytes.views(b.offsets[ib]!, b.bytes.length));
  return { parts, seam };
};

/**
 * The segments' frames joined into the serial stream's frames (no Info tag), as Blob parts that are
 * mostly views of the segments' own parts. Throws Mp3SeamError when a pair cannot be joined.
 */
export const joinMp3Segments = (
  segments: readonly Mp3EncodedSegment[],
): { parts: Uint8Array[]; seams: number[] } => {
  if (segments.length === 0) throw new Error('No MP3 segments to join');
  let joined = open(segments[0]!.parts, segments[0]!.firstFrame);
  let parts = [...segments[0]!.parts];
  const seams: number[] = [];
  for (const next of segments.slice(1)) {
    const result = joinTwo(joined, open(next.parts, next.firstFrame));
    seams.push(result.seam);
    parts = result.parts;
    joined = open(parts, segments[0]!.firstFrame);
  }
  return { parts, seams };
};
