import { describe, expect, it } from 'vitest';
import { TOAST_LIMIT, type ToastItem, toastReducer } from './toast-store';

const item = (id: string): ToastItem => ({ id, open: true, title: id });

describe('toastReducer', () => {
  it('keeps only the newest toast (spec 9: one at a time)', () => {
    expect(TOAST_LIMIT).toBe(1);
    const next = toastReducer(toastReducer([], { type: 'add', toast: item('a') }), {
      type: 'add',
      toast: item('b'),
    });
    expect(next.map((t) => t.id)).toEqual(['b']);
  });

  it('dismiss closes without removing; remove drops it', () => {
    const open = [item('a')];
    const closed = toastReducer(open, { type: 'dismiss', id: 'a' });
    expect(closed).toEqual([{ ...item('a'), open: false }]);
    expect(toastReducer(closed, { type: 'remove', id: 'a' })).toEqual([]);
  });

  it('dismiss without an id closes every toast; other ids are untouched', () => {
    expect(toastReducer([item('a')], { type: 'dismiss' })[0]?.open).toBe(false);
    expect(toastReducer([item('a')], { type: 'dismiss', id: 'z' })[0]?.open).toBe(true);
  });
});
