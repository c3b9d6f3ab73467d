import { useSyncExternalStore } from 'react';
import { AUTH_BYPASS_KEY, readStorage, removeStorage, writeStorage } from '../lib/storage';
import { useConfig } from './use-config';

/**
 * The developer bypass flag (spec 4). It lives in localStorage under authBypass, but only counts while the
 * server says developer mode is on; the API never trusts it, it only lets protected screens render.
 */
const listeners = new Set<() => void>();
const notify = () => {
  for (const listener of listeners) listener();
};
const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};
const readFlag = () => readStorage(AUTH_BYPASS_KEY) === 'true';

export const setBypassFlag = (): void => {
  writeStorage(AUTH_BYPASS_KEY, 'true');
  notify();
};

export const clearBypassFlag = (): void => {
  removeStorage(AUTH_BYPASS_KEY);
  notify();
};

export const useDevBypass = () => {
  const { devMode, isLoading } = useConfig();
  const flag = useSyncExternalStore(subscribe, readFlag, () => false);
  return { devMode, configLoading: isLoading, active: devMode && flag };
};

/** Removes `bypass` from a search string, keeping every other parameter (pure, unit-tested). */
export const withoutBypassParam = (search: string): string => {
  const params = new URLSearchParams(search);
  params.delete('bypass');
  const rest = params.toString();
  return rest ? `?${rest}` : '';
};
