/**
 * Issue 31 items 3 and 4: the continuous record and its CUE sheet. Every track carries a marker at its
 * first sample, so where each one landed is read from the rendered buffer itself.
 */
import { describe, expect, it } from 'vitest';
import {
  planSequence,
  RecordBuilder,
  sequenceAlbum,
  trackSlices,
  transitionAudition,
} from './album-sequence';
import { cueSheet } from './cue-sheet';

const RATE = 44100;

/** A track of `frames` samples, stereo, value `level` with a marker (1) at its first sample. */
const track = (frames: number, level = 0.25): Float32Array[] =>
  [0, 1].map(() => {
    const c = new Float32Array(frames).fill(level);
    c[0] = 1;
    return c;
  });

/** Sample-for-sample equality (a loop: deep equality of long typed arrays is slow). */
const same = (a: Float32Array, b: Float32Array) => a.length === b.length && a.every((v, i) => v === b[i]);

/** The sample each INDEX 01 of a sheet names, at 588 samples per CUE frame (44.1 kHz). */
const cueStarts = (sheet: string): number[] =>
  [...sheet.matchAll(/INDEX 01 (\d+):(\d\d):(\d\d)/g)].map(
    ([, mm, ss, ff]) => ((Number(mm) * 60 + Number(ss)) * 75 + Number(ff)) * 588,
  );

describe('sequencing and CUE (issue 31)', () => {
  // Lengths that are not multiples of a CUE frame (588), so every join has to be placed.
  const lengths = [RATE * 3 + 17, RATE * 4 + 301, RATE * 2 + 5, RATE * 5 + 587];
  const tracks = lengths.map((n) => track(n));

  it('default 2 s gaps: every track starts on a CUE frame, its first sample exactly there', () => {
    const album = sequenceAlbum(tracks, RATE);
    expect(album.starts).toEqual(album.audioStarts);
    for (let i = 0; i < tracks.length; i++) {
      const start = album.starts[i]!;
      expect(start % 588).toBe(0);
      expect(album.channels[0]![start]).toBe(1);
      expect(album.channels[1]![start]).toBe(1);
      if (i > 0) {
        // Silence of at least 2 s and under 2 s + one frame before it.
        const gap = start - album.audioEnds[i - 1]!;
        expect(gap).toBeGreaterThanOrEqual(2 * RATE);
        expect(gap).toBeLessThan(2 * RATE + 588);
        expect(album.channels[0]!.subarray(album.audioEnds[i - 1]!, start).every((v) => v === 0)).toBe(true);
      }
    }
    expect(album.frames).toBe(album.audioEnds[3]);
    const sheet = cueSheet({
      fileName: 'Record.wav',
      title: 'Record',
      performer: 'The Band',
      sampleRate: RATE,
      tracks: album.starts.map((startSample, i) => ({
        title: `Song ${i + 1}`,
        startSample,
        isrc: i === 0 ? 'GB-AAA-26-00001' : undefined,
      })),
    });
    // The CUE's starts are the render's, to the sample.
    expect(cueStarts(sheet)).toEqual(album.starts);
    expect(sheet).toContain('FILE "Record.wav" WAVE\r\n');
    expect(sheet).toContain('  TRACK 01 AUDIO\r\n    TITLE "Song 1"\r\n    PERFORMER "The Band"\r\n');
    expect(sheet).toContain('    ISRC GBAAA2600001\r\n    INDEX 01 00:00:00\r\n');
  });

  it('gapless: the record is the tracks end to end, sample for sample; markers on the nearest frame', () => {
    const album = sequenceAlbum(tracks, RATE, { gapSeconds: 0 });
    expect(album.frames).toBe(lengths.reduce((a, b) => a + b, 0));
    let at = 0;
    tracks.forEach((t, i) => {
      expect(album.audioStarts[i]).toBe(at);
      expect(same(album.channels[0]!.subarray(at, at + t[0]!.length), t[0]!)).toBe(true);
      expect(Math.abs(album.starts[i]! - at)).toBeLessThanOrEqual(294);
      expect(album.starts[i]! % 588).toBe(0);
      at += t[0]!.length;
    });
    // Per-track files cut at the markers play back to back as the record, sample for sample.
    const slices = trackSlices(album);
    expect(slices.map((s) => s[0]!.length).reduce((a, b) => a + b, 0)).toBe(album.frames);
    slices.forEach((s, i) => {
      expect(
        same(s[1]!, album.channels[1]!.subarray(album.starts[i]!, album.starts[i]! + s[1]!.length)),
      ).toBe(true);
    });
    expect(
      cueStarts(
        cueSheet({
          fileName: 'r.wav',
          title: 'r',
          sampleRate: RATE,
          tracks: album.starts.map((s, i) => ({ title: String(i), startSample: s })),
        }),
      ),
    ).toEqual(album.starts);
  });

  it('an equal-power crossfade: the two gains square-sum to 1 at every sample of the overlap', () => {
    const a = [new Float32Array(RATE).fill(1)];
    const b = [new Float32Array(RATE).fill(1)];
    const silentB = [new Float32Array(RATE)];
    const silentA = [new Float32Array(RATE)];
    const options = { transitions: [{ crossfadeSeconds: 0.5 }] };
    const out = sequenceAlbum([a, silentB], RATE, options).channels[0]!;
    const inn = sequenceAlbum([silentA, b], RATE, options).channels[0]!;
    const layout = planSequence([RATE, RATE], RATE, options);
    expect(layout.audioStarts[1]).toBe(RATE / 2);
    expect(layout.frames).toBe(RATE * 1.5);
    for (let p = RATE / 2; p < RATE; p++) expect(out[p]! ** 2 + inn[p]! ** 2).toBeCloseTo(1, 6);
    // Outside the overlap, untouched.
    expect(out[RATE / 2 - 1]).toBe(1);
    expect(inn[RATE]).toBe(1);
  });

  it("a transition audition is the record's own samples: the last 10 s into the first 10 s", () => {
    const long = [RATE * 14 + 3, RATE * 12 + 99].map((n) => track(n));
    const options = { gapSeconds: 1.5 };
    const album = sequenceAlbum(long, RATE, options);
    const audition = transitionAudition(long, RATE, options, 0);
    const from = album.audioEnds[0]! - 10 * RATE;
    expect(audition.boundary).toBe(album.starts[1]! - from);
    expect(audition.channels[0]!.length).toBe(album.audioStarts[1]! + 10 * RATE - from);
    const expected = album.channels[0]!.subarray(from, album.audioStarts[1]! + 10 * RATE);
    expect(same(audition.channels[0]!, expected)).toBe(true);
    expect(audition.channels[0]![audition.boundary]).toBe(1);
    expect(() => transitionAudition(long, RATE, options, 1)).toThrow(RangeError);
  });

  it('48 kHz starts on 640-sample frames; 32 kHz (no whole frame) keeps the exact gap', () => {
    const at48 = planSequence([48000 * 3 + 11, 48000 * 2 + 7, 48000], 48000);
    for (const s of at48.starts) expect(s % 640).toBe(0);
    expect(at48.starts).toEqual(at48.audioStarts);
    const at32 = planSequence([32000 + 5, 32000], 32000);
    expect(at32.starts[1]).toBe(32000 + 5 + 2 * 32000);
  });

  it('a mono track plays in both channels of a stereo record', () => {
    const album = sequenceAlbum([track(100), [new Float32Array(50).fill(0.5)]], RATE, { gapSeconds: 0 });
    expect(album.channels).toHaveLength(2);
    expect(album.channels[0]![120]).toBe(0.5);
    expect(album.channels[1]![120]).toBe(0.5);
  });

  it('refuses a CUE with a bad ISRC or a first track not at 0', () => {
    const base = { fileName: 'r.wav', title: 'r', sampleRate: RATE };
    expect(() => cueSheet({ ...base, tracks: [{ title: 'a', startSample: 0, isrc: 'nope' }] })).toThrow(
      /ISRC/,
    );
    expect(() => cueSheet({ ...base, tracks: [{ title: 'a', startSample: 588 }] })).toThrow(/00:00:00/);
  });

  it("a record built a track at a time is sequenceAlbum's, sample for sample; out of turn it refuses", () => {
    const options = { gapSeconds: 0, transitions: [{}, { crossfadeSeconds: 1 }, { gapSeconds: 3 }] };
    const mixed = [tracks[0]!, [tracks[1]![0]!], tracks[2]!, tracks[3]!];
    const whole = sequenceAlbum(mixed, RATE, options);
    const builder = new RecordBuilder(lengths, 2, RATE, options);
    expect(() => builder.take()).toThrow('A track is missing from the record');
    for (const t of mixed) builder.add(t);
    const built = builder.take();
    expect(built.starts).toEqual(whole.starts);
    expect(built.audioEnds).toEqual(whole.audioEnds);
    for (let c = 0; c < 2; c++) expect(same(built.channels[c]!, whole.channels[c]!)).toBe(true);
    expect(() => builder.add(tracks[0]!)).toThrow('Every track is already in the record');
    expect(() => new RecordBuilder(lengths, 2, RATE).add(tracks[1]!)).toThrow(
      "A track's length differs from the layout's",
    );
    expect(() => new RecordBuilder(lengths, 1, RATE).add(tracks[0]!)).toThrow(
      'A track has more channels than the record',
    );
  });
});
