import { describe, expect, it } from 'vitest';
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
  timelineDurationSeconds,
  timelineLength,
  toSpecClips,
} from './timeline';

const SR = 48_000;
const loaded = () => loadSource(loadSource(createTimeline(SR), 'vocals', 30 * SR), 'instrumental', 90 * SR);

describe('timeline', () => {
  it('is 60 s long when empty, whatever the sample rate', () => {
    expect(timelineDurationSeconds(createTimeline(SR))).toBe(60);
    expect(timelineLength(createTimeline(22_050))).toBe(60 * 22_050);
  });

  it('lasts max(clip ends, source lengths, 60 s)', () => {
    const t = loaded();
    expect(timelineLength(t)).toBe(90 * SR);
    const short = loadSource(createTimeline(SR), 'vocals', 10 * SR);
    expect(timelineLength(short)).toBe(60 * SR);
  });

  it('gives each loaded track one full-length clip at 0', () => {
    const spec = toSpecClips(loaded());
    expect(spec.vocals).toEqual([
      { id: 'vocals-clip', trackType: 'vocals', startTime: 0, endTime: 30, position: 0, selected: false },
    ]);
    expect(spec.instrumental[0]).toMatchObject({ startTime: 0, endTime: 90, position: 0 });
  });

  it('selects vocal clips only', () => {
    const t = loaded();
    expect(selectClip(t, 'instrumental-clip')).toBe(t);
    expect(selectClip(t, 'vocals-clip').selectedId).toBe('vocals-clip');
    expect(clearSelection(selectClip(t, 'vocals-clip')).selectedId).toBeNull();
  });

  it('cuts the selected clip strictly inside it into {id}-1 and {id}-2', () => {
    const t = selectClip(loaded(), 'vocals-clip');
    const cut = cutAt(t, 12 * SR);
    const vocals = toSpecClips(cut).vocals;
    expect(vocals.map((c) => [c.id, c.startTime, c.endTime, c.position])).toEqual([
      ['vocals-clip-1', 0, 12, 0],
      ['vocals-clip-2', 12, 30, 12],
    ]);
    expect(cut.selectedId).toBeNull();
  });

  it('does not cut at the clip edges, outside it, or without a selection', () => {
    const t = selectClip(loaded(), 'vocals-clip');
    expect(cutAt(t, 0)).toBe(t);
    expect(cutAt(t, 30 * SR)).toBe(t);
    expect(cutAt(t, 40 * SR)).toBe(t);
    expect(cutAt(loaded(), 10 * SR).clips).toHaveLength(2);
  });

  it('moves clips rounded to 0.01 s and clamped to the timeline', () => {
    const t = loaded();
    const moved = moveClip(t, 'vocals-clip', 12.3456);
    expect(toSpecClips(moved).vocals[0]!.position).toBeCloseTo(12.35, 10);
    expect(moved.clips.find((c) => c.id === 'vocals-clip')!.position).toBe(Math.round(12.35 * SR));
    // 30 s clip on a 90 s timeline: it can start no later than 60 s.
    expect(toSpecClips(moveClip(t, 'vocals-clip', 75)).vocals[0]!.position).toBe(60);
    expect(toSpecClips(moveClip(t, 'vocals-clip', -5)).vocals[0]!.position).toBe(0);
    expect(moveClip(t, 'instrumental-clip', 5)).toBe(t);
  });

  it('does not let a drag stretch the timeline', () => {
    const t = loadSource(createTimeline(SR), 'vocals', 50 * SR);
    const moved = moveClip(t, 'vocals-clip', 1000);
    expect(timelineLength(moved)).toBe(60 * SR);
    expect(moved.clips[0]!.position).toBe(10 * SR);
  });

  it('deletes the selected clip', () => {
    const t = deleteSelected(selectClip(loaded(), 'vocals-clip'));
    expect(toSpecClips(t).vocals).toEqual([]);
    expect(t.selectedId).toBeNull();
  });

  it('resets to one full-length clip per loaded track', () => {
    let t = selectClip(loaded(), 'vocals-clip');
    t = cutAt(t, 5 * SR);
    t = moveClip(t, 'vocals-clip-2', 40);
    t = selectClip(t, 'vocals-clip-1');
    t = resetClips(t);
    expect(t.selectedId).toBeNull();
    expect(t.clips.map((c) => [c.id, c.sourceStart, c.sourceEnd, c.position])).toEqual([
      ['vocals-clip', 0, 30 * SR, 0],
      ['instrumental-clip', 0, 90 * SR, 0],
    ]);
  });

  it('restores saved clips inside their source', () => {
    const saved = [
      { id: 'a', trackType: 'vocals' as const, startTime: 1, endTime: 5, position: 2, selected: true },
      { id: 'b', trackType: 'vocals' as const, startTime: 25, endTime: 45, position: -3, selected: false },
      { id: 'c', trackType: 'vocals' as const, startTime: 40, endTime: 50, position: 0, selected: false },
    ];
    const clips = clipsFromSaved(saved, 'vocals', 30 * SR, SR);
    expect(clips).toEqual([
      { id: 'a', trackType: 'vocals', sourceStart: SR, sourceEnd: 5 * SR, position: 2 * SR },
      { id: 'b', trackType: 'vocals', sourceStart: 25 * SR, sourceEnd: 30 * SR, position: 0 },
    ]);
    const t = loadSource(createTimeline(SR), 'vocals', 30 * SR, clips);
    expect(t.clips.map((c) => c.id)).toEqual(['a', 'b']);
  });
});
