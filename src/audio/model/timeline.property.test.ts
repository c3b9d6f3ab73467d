import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { clipEnd, TRACK_TYPES, type TrackType } from './clip';
import {
  beginGesture,
  commit,
  createHistory,
  type EditHistory,
  endGesture,
  redo,
  reload,
  undo,
} from './history';
import { clipsFromSaved } from './saved-clips';
import {
  clearSelection,
  createTimeline,
  cutAt,
  deleteSelected,
  loadSource,
  moveClip,
  resetClips,
  selectClip,
  type Timeline,
  timelineLength,
} from './timeline';

type Op =
  | { kind: 'load'; track: TrackType; seconds: number }
  | { kind: 'loadSaved'; track: TrackType; seconds: number; saved: [number, number, number][] }
  | { kind: 'select'; index: number }
  | { kind: 'clear' }
  | { kind: 'cut'; fraction: number }
  | { kind: 'move'; index: number; seconds: number }
  | { kind: 'drag'; index: number; steps: number[] }
  | { kind: 'delete' }
  | { kind: 'reset' }
  | { kind: 'undo' }
  | { kind: 'redo' };

const anySeconds = fc.double({ min: -1e4, max: 1e4, noNaN: true });
const track = fc.constantFrom(...TRACK_TYPES);
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    kind: fc.constant('load' as const),
    track,
    seconds: fc.double({ min: 0.001, max: 300, noNaN: true }),
  }),
  fc.record({
    kind: fc.constant('loadSaved' as const),
    track,
    seconds: fc.double({ min: 0.001, max: 300, noNaN: true }),
    saved: fc.array(fc.tuple(anySeconds, anySeconds, anySeconds), { maxLength: 5 }),
  }),
  fc.record({ kind: fc.constant('select' as const), index: fc.nat(10) }),
  fc.record({ kind: fc.constant('clear' as const) }),
  fc.record({ kind: fc.constant('cut' as const), fraction: fc.double({ min: -0.2, max: 1.2, noNaN: true }) }),
  fc.record({ kind: fc.constant('move' as const), index: fc.nat(10), seconds: anySeconds }),
  fc.record({
    kind: fc.constant('drag' as const),
    index: fc.nat(10),
    steps: fc.array(anySeconds, { maxLength: 6 }),
  }),
  fc.record({ kind: fc.constant('delete' as const) }),
  fc.record({ kind: fc.constant('reset' as const) }),
  fc.record({ kind: fc.constant('undo' as const) }),
  fc.record({ kind: fc.constant('redo' as const) }),
);

const clipAt = (t: Timeline, index: number) => t.clips[index % Math.max(t.clips.length, 1)];

const apply = (h: EditHistory, o: Op): EditHistory => {
  const t = h.present;
  const sr = t.sampleRate;
  switch (o.kind) {
    case 'load':
      return reload(h, loadSource(t, o.track, Math.max(1, Math.round(o.seconds * sr))));
    case 'loadSaved': {
      const length = Math.max(1, Math.round(o.seconds * sr));
      const saved = o.saved.map(([startTime, endTime, position], i) => ({
        id: `s${i}`,
        trackType: o.track,
        startTime,
        endTime,
        position,
        selected: false,
      }));
      return reload(h, loadSource(t, o.track, length, clipsFromSaved(saved, o.track, length, sr)));
    }
    case 'select': {
      const c = clipAt(t, o.index);
      return c ? commit(h, selectClip(t, c.id)) : h;
    }
    case 'clear':
      return commit(h, clearSelection(t));
    case 'cut':
      return commit(h, cutAt(t, o.fraction * timelineLength(t)));
    case 'move': {
      const c = clipAt(t, o.index);
      return c ? commit(h, moveClip(t, c.id, o.seconds)) : h;
    }
    case 'drag': {
      const c = clipAt(t, o.index);
      if (!c) return h;
      let g = beginGesture(h);
      for (const s of o.steps) g = commit(g, moveClip(g.present, c.id, s));
      return endGesture(g);
    }
    case 'delete':
      return commit(h, deleteSelected(t));
    case 'reset':
      return commit(h, resetClips(t));
    case 'undo':
      return undo(h);
    case 'redo':
      return redo(h);
  }
};

const checkInvariants = (t: Timeline) => {
  const ids = new Set<string>();
  for (const c of t.clips) {
    const source = t.sources[c.trackType];
    expect(source).toBeDefined();
    for (const n of [c.sourceStart, c.sourceEnd, c.position]) expect(Number.isInteger(n)).toBe(true);
    expect(c.sourceStart).toBeGreaterThanOrEqual(0);
    expect(c.sourceEnd).toBeGreaterThan(c.sourceStart);
    expect(c.sourceEnd).toBeLessThanOrEqual(source!);
    expect(c.position).toBeGreaterThanOrEqual(0);
    expect(clipEnd(c)).toBeLessThanOrEqual(timelineLength(t));
    expect(ids.has(c.id)).toBe(false);
    ids.add(c.id);
  }
  if (t.selectedId !== null) expect(t.clips.find((c) => c.id === t.selectedId)?.trackType).toBe('vocals');
};

describe('timeline properties', () => {
  it('never produces a clip outside its source or before 0', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(22_050, 44_100, 48_000, 96_000),
        fc.array(op, { maxLength: 40 }),
        (sr, ops) => {
          let h = createHistory(createTimeline(sr));
          for (const o of ops) {
            h = apply(h, o);
            checkInvariants(h.present);
          }
        },
      ),
      { numRuns: 400 },
    );
  });

  it('keeps the sample count of a clip when it is cut in two', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 1, max: 200, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (s, f) => {
          const sr = 44_100;
          const t = selectClip(loadSource(createTimeline(sr), 'vocals', Math.round(s * sr)), 'vocals-clip');
          const cut = cutAt(t, f * t.clips[0]!.sourceEnd);
          const total = cut.clips.reduce((n, c) => n + c.sourceEnd - c.sourceStart, 0);
          expect(total).toBe(t.clips[0]!.sourceEnd);
          if (cut !== t) expect(clipEnd(cut.clips[0]!)).toBe(cut.clips[1]!.position);
        },
      ),
    );
  });

  it('rounds every in-range drag to the 0.01 s grid', () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 30, noNaN: true }), (s) => {
        const sr = 48_000;
        const t = loadSource(createTimeline(sr), 'vocals', 30 * sr);
        const moved = moveClip(t, 'vocals-clip', s);
        const p = moved.clips[0]!.position;
        expect(p % (sr / 100)).toBe(0);
        expect(Math.abs(p / sr - s)).toBeLessThanOrEqual(0.005 + 1e-9);
      }),
    );
  });
});
