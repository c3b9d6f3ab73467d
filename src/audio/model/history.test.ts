import { describe, expect, it } from 'vitest';
import { beginGesture, canUndo, commit, createHistory, endGesture, redo, undo } from './history';
import { createTimeline, cutAt, loadSource, moveClip, selectClip } from './timeline';

const SR = 44_100;
const start = () => createHistory(loadSource(createTimeline(SR), 'vocals', 20 * SR));

describe('edit history', () => {
  it('undoes and redoes a cut; selection alone is no step', () => {
    let h = start();
    h = commit(h, selectClip(h.present, 'vocals-clip'));
    expect(canUndo(h)).toBe(false);
    h = commit(h, cutAt(h.present, 5 * SR));
    expect(h.present.clips).toHaveLength(2);
    h = undo(h);
    expect(h.present.clips.map((c) => c.id)).toEqual(['vocals-clip']);
    h = redo(h);
    expect(h.present.clips.map((c) => c.id)).toEqual(['vocals-clip-1', 'vocals-clip-2']);
  });

  it('records one whole drag as one step', () => {
    let h = beginGesture(start());
    for (const s of [1, 2.5, 3.333, 7]) h = commit(h, moveClip(h.present, 'vocals-clip', s));
    expect(canUndo(h)).toBe(false);
    h = endGesture(h);
    expect(h.past).toHaveLength(1);
    expect(h.present.clips[0]!.position).toBe(7 * SR);
    h = undo(h);
    expect(h.present.clips[0]!.position).toBe(0);
    expect(canUndo(h)).toBe(false);
  });

  it('records no step for a drag that ends where it began', () => {
    let h = beginGesture(start());
    h = commit(h, moveClip(h.present, 'vocals-clip', 0.001));
    h = endGesture(h);
    expect(h.past).toHaveLength(0);
  });

  it('drops the redo future on a new edit', () => {
    let h = start();
    h = commit(h, moveClip(h.present, 'vocals-clip', 3));
    h = undo(h);
    h = commit(h, moveClip(h.present, 'vocals-clip', 4));
    expect(redo(h)).toBe(h);
  });
});
