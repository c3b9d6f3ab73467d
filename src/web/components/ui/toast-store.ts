import type { ReactNode } from 'react';

/**
 * The toast queue of spec 9: at most one toast at a time; a dismissed toast stays mounted (closed) for
 * the removal delay so Radix can animate it out, and the newest toast always replaces the old one.
 */
export const TOAST_LIMIT = 1;
export const TOAST_REMOVE_DELAY = 1_000_000;

export type ToastVariant = 'default' | 'destructive';

export interface ToastInput {
  title?: ReactNode;
  description?: ReactNode;
  variant?: ToastVariant;
  /** Milliseconds; the provider's 5000 ms default applies when absent. */
  duration?: number;
}

export interface ToastItem extends ToastInput {
  id: string;
  open: boolean;
}

export type ToastAction =
  | { type: 'add'; toast: ToastItem }
  | { type: 'dismiss'; id?: string }
  | { type: 'remove'; id?: string };

/** Pure state transition, unit-tested. */
export const toastReducer = (state: ToastItem[], action: ToastAction): ToastItem[] => {
  switch (action.type) {
    case 'add':
      return [action.toast, ...state].slice(0, TOAST_LIMIT);
    case 'dismiss':
      return state.map((t) => (action.id === undefined || t.id === action.id ? { ...t, open: false } : t));
    case 'remove':
      return action.id === undefined ? [] : state.filter((t) => t.id !== action.id);
  }
};

type Listener = (toasts: ToastItem[]) => void;

let state: ToastItem[] = [];
let counter = 0;
const listeners = new Set<Listener>();
const removalTimers = new Map<string, ReturnType<typeof setTimeout>>();

const dispatch = (action: ToastAction): void => {
  state = toastReducer(state, action);
  for (const listener of listeners) listener(state);
};

const scheduleRemoval = (id: string): void => {
  if (removalTimers.has(id)) return;
  removalTimers.set(
    id,
    setTimeout(() => {
      removalTimers.delete(id);
      dispatch({ type: 'remove', id });
    }, TOAST_REMOVE_DELAY),
  );
};

export const dismissToast = (id?: string): void => {
  for (const t of state) if (id === undefined || t.id === id) scheduleRemoval(t.id);
  dispatch({ type: 'dismiss', id });
};

/** Shows a toast; callable from anywhere (event handlers, mutation callbacks). */
export const toast = (input: ToastInput): { id: string; dismiss: () => void } => {
  counter = (counter + 1) % Number.MAX_SAFE_INTEGER;
  const id = String(counter);
  dispatch({ type: 'add', toast: { ...input, id, open: true } });
  return { id, dismiss: () => dismissToast(id) };
};

export const subscribeToasts = (listener: Listener): (() => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

export const getToasts = (): ToastItem[] => state;
