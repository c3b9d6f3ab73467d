import { useQueryClient } from '@tanstack/react-query';
import { createContext, useContext, useEffect, useRef, useState, useSyncExternalStore } from 'react';
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

/** One store per visit of the screen; its workers and audio context go when the screen does. */
export const useCreateStore = (access: Access): MasteringStore => {
  const queryClient = useQueryClient();
  const accessRef = useRef(access);
  accessRef.current = access;
  const [store] = useState(
    () =>
      new MasteringStore({
        notify,
        user: () => accessRef.current.user,
        previewMode: () => accessRef.current.previewMode,
        refreshUser: () =>
          queryClient.fetchQuery<PublicUser | null>({
            queryKey: USER_QUERY_KEY,
            queryFn: getQueryFn<PublicUser>({ on401: 'returnNull' }),
            staleTime: 0,
          }),
      }),
  );
  useEffect(() => () => store.dispose(), [store]);
  return store;
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
