import { describe, expect, it } from 'vitest';
import type { TimelineClip } from '../model/clip';
import { CUT_FADE_SECONDS, organiseChannels, organiseStem, sourceAsStem } from './mix-organise';

const SR = 8000;
const ramp = (n: number) => Float32Array.from({ length: n }, (_, i) => (i + 1) / n);
const clip = (id: string, sourceStart: number, sourceEnd: number, position: number): TimelineClip => ({
  id,
  trackType: 'vocals',
  sourceStart,
  sourceEnd,
  position,
});

describe('organiseStem', () => {
  it('places clips at their positions and leaves gaps silent', () => {
    const src = ramp(1000);
    const [l, r] = organiseStem({ channels: [src], sampleRate: SR }, [clip('a', 0, 1000, 500)], SR, 0, 2000);
    expect(l.subarray(0, 500).every((v) => v === 0)).toBe(true);
    expect(Array.from(l.subarray(500, 1500))).toEqual(Array.from(src));
    expect(r).toEqual(l); // mono fills both sides
    expect(l.subarray(1500).every((v) => v === 0)).toBe(true);
  });

  it('fades only the cut edges, and crops to the window', () => {
    const src = new Float32Array(4000).fill(0.5);
    const clips = [clip('a-1', 0, 2000, 0), clip('a-2', 2000, 4000, 3000)];
    const fade = Math.round(CUT_FADE_SECONDS * SR);
    const [l] = organiseStem({ channels: [src], sampleRate: SR }, clips, SR, 1000, 4000);
    // Inside 'a-1' away from its cut end: untouched.
    expect(l[0]).toBe(0.5);
    expect(l[999 - fade]).toBe(0.5);
    // Its cut end fades towards 0, the start of 'a-2' fades in from 0.
    expect(l[999]!).toBeLessThan(0.05);
    expect(l[2000]!).toBeLessThan(0.05);
    expect(l[2000 + fade]).toBe(0.5);
    // The file's own end is not faded.
    expect(l[3999]).toBe(0.5);
  });

  it('reads a source at another rate through interpolation', () => {
    const sourceRate = 48_000;
    const timelineRate = 44_100;
    const f = 440;
    const src = Float32Array.from({ length: sourceRate }, (_, i) =>
      Math.sin((2 * Math.PI * f * i) / sourceRate),
    );
    const n = Math.round(timelineRate * 0.9);
    const [l] = organiseStem(
      { channels: [src], sampleRate: sourceRate },
      [clip('a', 0, n, 0)],
      timelineRate,
      0,
      n,
    );
    let err = 0;
    for (let i = 100; i < n - 100; i++)
      err = Math.max(err, Math.abs(l[i]! - Math.sin((2 * Math.PI * f * i) / timelineRate)));
    expect(err).toBeLessThan(1e-4);
  });

  it('adds overlapping clips and copies a clip over silence; one channel is the left side', () => {
    const src = ramp(1000);
    const clips = [clip('a', 0, 600, 0), clip('b', 200, 1000, 400)];
    const [l, r] = organiseStem({ channels: [src], sampleRate: SR }, clips, SR, 0, 1500);
    const expected = new Float32Array(1500);
    for (let t = 0; t < 600; t++) expected[t]! += src[t]!;
    for (let t = 400; t < 1200; t++) expected[t]! += src[t - 200]!;
    // Cut edges fade: compare away from them.
    const fade = Math.round(CUT_FADE_SECONDS * SR);
    for (const t of [0, 100, 399, 450, 580, 700, 1100, 1200 - fade - 1])
      expect(l[t], `sample ${t}`).toBe(expected[t]);
    expect(r).toEqual(l);
    const [one, ...rest] = organiseChannels({ channels: [src], sampleRate: SR }, clips, SR, 0, 1500, 1);
    expect(rest).toEqual([]);
    expect(one).toEqual(l);
  });

  it('reads a whole-file clip straight from its source, and only then', () => {
    const src = { channels: [ramp(1000), ramp(1000).reverse()], sampleRate: SR };
    const whole = [clip('a', 0, 1000, 0)];
    const stem = sourceAsStem(src, whole, SR, 0, 1000);
    expect(stem).toEqual(src.channels);
    expect(stem![0]).toBe(src.channels[0]);
    expect(organiseStem(src, whole, SR, 0, 1000)).toEqual(stem);
    for (const [clips, rate, start, length] of [
      [[clip('a', 0, 1000, 10)], SR, 0, 1000],
      [[clip('a', 1, 1000, 0)], SR, 0, 1000],
      [[clip('a', 0, 999, 0)], SR, 0, 1000],
      [[clip('a', 0, 1000, 0)], SR, 0, 1001],
      [[clip('a', 0, 1000, 0)], 44_100, 0, 1000],
      [[clip('a', 0, 500, 0), clip('b', 500, 1000, 500)], SR, 0, 1000],
      [[clip('a', 0, 1000, 0)], SR, 5, 1000],
    ] as const)
      expect(sourceAsStem(src, clips, rate, start, length)).toBeNull();
  });
});
