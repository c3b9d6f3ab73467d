import type { Timeline } from './timeline';

/** How many edits Undo can walk back. */
export const HISTORY_LIMIT = 100;

/**
 * Undo/redo over timeline edits. A step is a change of the clips; selection alone is no step. A drag is a
 * gesture: every move inside it updates the present, and the whole gesture becomes one step when it ends.
 */
export interface EditHistory {
  readonly past: readonly Timeline[];
  readonly present: Timeline;
  readonly future: readonly Timeline[];
  /** The timeline as it was when the current gesture began, or null outside a gesture. */
  readonly gestureBase: Timeline | null;
}

export const createHistory = (present: Timeline): EditHistory => ({
  past: [],
  present,
  future: [],
  gestureBase: null,
});

const pushPast = (past: readonly Timeline[], t: Timeline): Timeline[] => [...past, t].slice(-HISTORY_LIMIT);

/** Apply the result of a model operation. */
export const commit = (h: EditHistory, next: Timeline): EditHistory => {
  if (next === h.present) return h;
  if (h.gestureBase !== null || next.clips === h.present.clips) return { ...h, present: next };
  return { past: pushPast(h.past, h.present), present: next, future: [], gestureBase: null };
};

/**
 * A source was loaded or removed: edits made on the old audio mean nothing for the new one, so the history
 * starts afresh from the new timeline (Undo never brings back clips cut from a file that is gone).
 */
export const reload = (h: EditHistory, next: Timeline): EditHistory =>
  next === h.present ? h : createHistory(next);

export const beginGesture = (h: EditHistory): EditHistory =>
  h.gestureBase !== null ? h : { ...h, gestureBase: h.present };

export const endGesture = (h: EditHistory): EditHistory => {
  const base = h.gestureBase;
  if (base === null) return h;
  if (base.clips === h.present.clips) return { ...h, gestureBase: null };
  return { past: pushPast(h.past, base), present: h.present, future: [], gestureBase: null };
};

/** Keep the current selection in a restored snapshot when its clip is still there. */
const restore = (snapshot: Timeline, current: Timeline): Timeline => {
  const selectedId = snapshot.clips.some((c) => c.id === current.selectedId) ? current.selectedId : null;
  return selectedId === snapshot.selectedId ? snapshot : { ...snapshot, selectedId };
};

export const canUndo = (h: EditHistory): boolean => h.past.length > 0 && h.gestureBase === null;
export const canRedo = (h: EditHistory): boolean => h.future.length > 0 && h.gestureBase === null;

export const undo = (h: EditHistory): EditHistory => {
  if (!canUndo(h)) return h;
  const previous = h.past[h.past.length - 1]!;
  return {
    past: h.past.slice(0, -1),
    present: restore(previous, h.present),
    future: [h.present, ...h.future],
    gestureBase: null,
  };
};

export const redo = (h: EditHistory): EditHistory => {
  if (!canRedo(h)) return h;
  const [next, ...rest] = h.future;
  return {
    past: pushPast(h.past, h.present),
    present: restore(next!, h.present),
    future: rest,
    gestureBase: null,
  };
};
