/// <reference types="node" />
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { musicLike } from '../dsp/test-signals';
import { encodeMp3Frames, MP3_HEADROOM_DB } from './mp3-encoder';
import { mp3FrameOffsets, mp3SideInfo, PartBytes } from './mp3-frames';
import { lameInfoFrame } from './mp3-info-tag';
import {
  joinMp3Segments,
  MP3_PARALLEL_MIN_SECONDS,
  type Mp3EncodedSegment,
  Mp3SeamError,
  planMp3Segments,
  WARMUP_FRAMES,
} from './mp3-parallel';

const require = createRequire(import.meta.url);
const wasm = readFileSync(require.resolve('wasm-media-encoders/wasm/mp3'));
const dir = mkdtempSync(join(tmpdir(), 'mp3-parallel-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const hasFfmpeg = existsSync('/usr/bin/ffmpeg');

const SR = 44_100;
const FRAME = 1152;

/** The file: Info tag, then the frames. */
const file = (name: string, parts: readonly Uint8Array[], inputFrames: number) => {
  const path = join(dir, name);
  writeFileSync(path, Buffer.concat([lameInfoFrame(parts, inputFrames, 320), ...parts]));
  return path;
};

/** ffmpeg's decode as one Float32Array per channel. */
const decode = (path: string, channels: number): Float32Array[] => {
  const raw = execFileSync('/usr/bin/ffmpeg', ['-v', 'error', '-i', path, '-f', 'f32le', '-'], {
    maxBuffer: 1 << 28,
  });
  const all = new Float32Array(raw.buffer, raw.byteOffset, raw.length / 4);
  return Array.from({ length: channels }, (_, c) =>
    Float32Array.from({ length: all.length / channels }, (_, i) => all[i * channels + c]!),
  );
};

const encodeSegments = async (input: Float32Array[], sampleRate: number, workers: number) => {
  const plan = planMp3Segments(input[0]!.length, sampleRate, workers);
  if (!plan) throw new Error('expected a split');
  const segments: Mp3EncodedSegment[] = [];
  for (const s of plan) {
    // Each worker gets only its own samples, as the client sends them.
    const own = input.map((c) => c.slice(s.start, s.end));
    segments.push({ parts: await encodeMp3Frames(own, sampleRate, { wasm }), firstFrame: s.firstFrame });
  }
  return { plan, segments };
};

/** Peak and RMS of a - b over [from, to) in every channel (b scaled by `gain`). */
const residual = (a: Float32Array[], b: Float32Array[], from: number, to: number, gain = 1) => {
  let peak = 0;
  let sum = 0;
  let n = 0;
  for (let c = 0; c < a.length; c++) {
    for (let i = Math.max(0, from); i < Math.min(to, a[c]!.length); i++) {
      const d = a[c]![i]! - gain * b[c]![i]!;
      peak = Math.max(peak, Math.abs(d));
      sum += d * d;
      n++;
    }
  }
  return { peak, rms: Math.sqrt(sum / n) };
};

describe('planMp3Segments', () => {
  it('splits only long inputs at MPEG-1 rates LAME does not resample, at frame boundaries', () => {
    expect(planMp3Segments(SR * (MP3_PARALLEL_MIN_SECONDS - 1), SR, 2)).toBeNull();
    expect(planMp3Segments(SR * 240, SR, 1)).toBeNull();
    expect(planMp3Segments(96_000 * 240, 96_000, 2)).toBeNull(); // resampled to 48 kHz by LAME
    expect(planMp3Segments(22_050 * 240, 22_050, 2)).toBeNull(); // MPEG-2: one granule per frame
    const length = SR * 240 + 123;
    const plan = planMp3Segments(length, SR, 2)!;
    expect(plan).toHaveLength(2);
    expect(plan[0]).toMatchObject({ start: 0, firstFrame: 0 });
    expect(plan[1]!.start).toBe(plan[1]!.firstFrame * FRAME);
    expect(plan[1]!.end).toBe(length);
    // The first segment runs past the second's warm-up and seam candidates.
    expect(plan[0]!.end).toBeGreaterThan(plan[1]!.start + (WARMUP_FRAMES + 8) * FRAME);
    // Equal shares of work, within a frame.
    const work = plan.map((s) => s.end - s.start);
    expect(Math.abs(work[0]! - work[1]!)).toBeLessThanOrEqual(FRAME);
    expect(planMp3Segments(48_000 * 600, 48_000, 3)).toHaveLength(3);
  });
});

/** Partials and a little noise, steady: LAME keeps its bit reservoir busy, so seams reach back into it. */
const steady = (seconds: number, sampleRate: number): Float32Array[] => {
  let state = 7;
  const noise = () => {
    state = (state * 1_664_525 + 1_013_904_223) >>> 0;
    return state / 4_294_967_296 - 0.5;
  };
  return [1, 1.01].map((detune) =>
    Float32Array.from({ length: seconds * sampleRate }, (_, i) => {
      const t = (i / sampleRate) * detune;
      return (
        (0.6 + 0.4 * Math.sin(Math.PI * t)) *
          (0.3 * Math.sin(2 * Math.PI * 110 * t) + 0.15 * Math.sin(2 * Math.PI * 221 * t)) +
        0.08 * Math.sin(2 * Math.PI * 553 * t) +
        0.02 * noise()
      );
    }),
  );
};

/**
 * Encodes `input` serially and split over `workers`, decodes both with ffmpeg, and checks the joined file:
 * the serial frame count, exactly the input's length, identical to the serial file before the first seam,
 * and around every seam (two frames either side, in input samples: LAME's delay is 576) different from the
 * serial file only by the codec's own noise, the size of the serial encode's own error there.
 */
const checkParallel = async (name: string, input: Float32Array[], sampleRate: number, workers: number) => {
  const gain = 10 ** (-MP3_HEADROOM_DB / 20);
  const length = input[0]!.length;
  const serialParts = await encodeMp3Frames(input, sampleRate, { wasm });
  const { segments } = await encodeSegments(input, sampleRate, workers);
  const { parts, seams } = joinMp3Segments(segments);
  expect(seams).toHaveLength(workers - 1);
  const frames = (p: readonly Uint8Array[]) => mp3FrameOffsets(new PartBytes(p)).length - 1;
  expect(frames(parts)).toBe(frames(serialParts));
  const serial = decode(file(`${name}-serial.mp3`, serialParts, length), input.length);
  const parallel = decode(file(`${name}-parallel.mp3`, parts, length), input.length);
  expect(serial[0]!.length).toBe(length);
  expect(parallel).toHaveLength(input.length);
  expect(parallel[0]!.length).toBe(length);
  const window = (seam: number) => [seam * FRAME - 576 - 2 * FRAME, seam * FRAME - 576 + 2 * FRAME] as const;
  expect(residual(parallel, serial, 0, window(seams[0]!)[0]).peak).toBe(0);
  const codecPeaks: number[] = [];
  for (const seam of seams) {
    const [from, to] = window(seam);
    const near = residual(parallel, serial, from, to);
    const codec = residual(serial, input, from, to, gain);
    expect(near.peak).toBeLessThan(1.5 * codec.peak);
    expect(near.rms).toBeLessThan(1.5 * codec.rms);
    codecPeaks.push(codec.peak);
  }
  const bytes = new PartBytes(parts);
  const offsets = mp3FrameOffsets(bytes);
  const reach = seams.map((seam) => mp3SideInfo(bytes, offsets[seam]!).mainDataBegin);
  return { segments, serial, seams, reach, codecPeaks, window, path: join(dir, `${name}-parallel.mp3`) };
};

describe.runIf(hasFfmpeg)('parallel MP3 encode joined at a frame', () => {
  it('drums, bass and chords (block switching): no click at the seam', async () => {
    const input = musicLike({ seconds: 30, sampleRate: SR, seed: 5 });
    const r = await checkParallel('music', input, SR, 2);
    const probe = JSON.parse(
      execFileSync('/usr/bin/ffprobe', ['-v', 'error', '-show_streams', '-of', 'json', r.path], {
        encoding: 'utf8',
      }),
    ).streams[0];
    expect(probe).toMatchObject({ codec_name: 'mp3', channels: 2, sample_rate: '44100', bit_rate: '320000' });
  });

  it('a steady track: the seam frame reaches into the reservoir (bytes moved); a seam a frame off is caught', async () => {
    const input = steady(30, SR);
    const r = await checkParallel('steady', input, SR, 2);
    expect(r.reach[0]).toBeGreaterThan(0);
    // The same measure catches a join a frame off (as a wrong delay or frame index would make).
    const [first, second] = r.segments as [Mp3EncodedSegment, Mp3EncodedSegment];
    const shifted = joinMp3Segments([first, { ...second, firstFrame: second.firstFrame + 1 }]);
    const wrong = decode(file('shifted.mp3', shifted.parts, input[0]!.length), 2);
    const [from, to] = r.window(shifted.seams[0]!);
    expect(residual(wrong, r.serial, from, to).peak).toBeGreaterThan(5 * r.codecPeaks[0]!);
  });

  it('three segments, and mono at 48 kHz', async () => {
    await checkParallel('three', musicLike({ seconds: 40, sampleRate: SR, seed: 9 }), SR, 3);
    await checkParallel('mono', [steady(25, 48_000)[0]!], 48_000, 2);
  });

  it('refuses segments that do not overlap', async () => {
    const { segments } = await encodeSegments(steady(25, SR), SR, 2);
    const late = { ...segments[1]!, firstFrame: segments[1]!.firstFrame + 200 };
    expect(() => joinMp3Segments([segments[0]!, late])).toThrow(Mp3SeamError);
  });
});
