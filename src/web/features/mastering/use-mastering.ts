import { useQueryClient } from '@tanstack/react-query';
import { createContext, useContext, useEffect, useState, useSyncExternalStore } from 'react';
import type { PublicUser } from '../../../shared/api/user';
import { useAuth } from '../../app/auth-context';
import { toast } from '../../components/ui/use-toast';
import { getQueryFn, USER_QUERY_KEY } from '../../lib/query-client';
import { devCredits, subscribeDevCredits } from './credits/dev-credits';
import { type Credits, isPreviewMode } from './mastering-rules';
import type { MasteringState } from './mastering-state';
import { MasteringStore } from './mastering-store';
import type { Notice } from './mastering-texts';

export const notify = (n: Notice): void => {
  toast({
    title: n.title,
    description: n.description,
    variant: n.destructive ? 'destructive' : 'default',
    duration: n.duration,
  });
};

export interface Access {
  user: PublicUser | null;
  devMode: boolean;
  credits: Credits | null;
  previewMode: boolean;
}

/** Who is mastering and with what: the server's user, or the local store in developer mode. */
export const useAccess = (devMode: boolean): Access => {
  const { user } = useAuth();
  const local = useSyncExternalStore(subscribeDevCredits, devCredits);
  const credits = devMode ? local : user;
  return { user, devMode, credits, previewMode: isPreviewMode(user, credits) };
};

/**
 * Issue 30: the store (source, masters, workers) outlives a visit to the screen, so Mastering → Settings →
 * Mastering shows the track and its masters, not an empty drop zone. Leaving stops the sound; another
 * user gets a new store. `access` is read through the kept ref, which each visit points at its own.
 */
let kept: { owner: number | null; access: { current: Access }; store: MasteringStore } | null = null;

export const useCreateStore = (access: Access): MasteringStore => {
  const queryClient = useQueryClient();
  const owner = access.user?.id ?? null;
  const [entry] = useState(() => {
    // Signed out while the page loads is nobody yet: the kept work waits for its owner's visit.
    if (kept && (kept.owner === owner || owner === null)) return kept;
    kept?.store.dispose();
    const ref = { current: access };
    kept = {
      owner,
      access: ref,
      store: new MasteringStore({
        notify,
        user: () => ref.current.user,
        previewMode: () => ref.current.previewMode,
        refreshUser: () =>
          queryClient.fetchQuery<PublicUser | null>({
            queryKey: USER_QUERY_KEY,
            queryFn: getQueryFn<PublicUser>({ on401: 'returnNull' }),
            staleTime: 0,
          }),
      }),
    };
    return kept;
  });
  entry.access.current = access;
  const { isLoading } = useAuth();
  useEffect(() => {
    // Signed out, or signed in as someone else than the kept work's owner: theirs is cleared, not shown.
    if (isLoading || entry.owner === owner) return;
    if (entry.owner !== null) entry.store.clear();
    entry.owner = owner;
  }, [owner, isLoading, entry]);
  useEffect(() => () => entry.store.playback.stop(), [entry]);
  return entry.store;
};

export const StoreContext = createContext<MasteringStore | null>(null);

export const useStore = (): MasteringStore => {
  const store = useContext(StoreContext);
  if (!store) throw new Error('useStore must be used inside the mastering screen');
  return store;
};

export const useMasteringState = (): MasteringState => {
  const store = useStore();
  return useSyncExternalStore(store.subscribe, store.getState);
};
