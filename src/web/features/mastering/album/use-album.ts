import { useQueryClient } from '@tanstack/react-query';
import { createContext, useContext, useEffect, useState, useSyncExternalStore } from 'react';
import type { PublicUser } from '../../../../shared/api/user';
import { getQueryFn, USER_QUERY_KEY } from '../../../lib/query-client';
import { type Access, notify } from '../use-mastering';
import type { AlbumState } from './album-state';
import { AlbumStore } from './album-store';

/**
 * The album's store lives as long as the screen shows it; `access` (the user, developer mode) is read
 * through a ref so the store always sees the current one.
 */
export const useCreateAlbumStore = (access: Access): AlbumStore => {
  const queryClient = useQueryClient();
  const [entry] = useState(() => {
    const ref = { current: access };
    const store = new AlbumStore({
      notify,
      user: () => ref.current.user,
      devMode: () => ref.current.devMode,
      previewMode: () => ref.current.previewMode,
      refreshUser: () =>
        queryClient.fetchQuery<PublicUser | null>({
          queryKey: USER_QUERY_KEY,
          queryFn: getQueryFn<PublicUser>({ on401: 'returnNull' }),
          staleTime: 0,
        }),
    });
    return { ref, store };
  });
  entry.ref.current = access;
  useEffect(() => () => entry.store.dispose(), [entry]);
  return entry.store;
};

export const AlbumContext = createContext<AlbumStore | null>(null);

export const useAlbumStore = (): AlbumStore => {
  const store = useContext(AlbumContext);
  if (!store) throw new Error('useAlbumStore must be used inside the album view');
  return store;
};

export const useAlbumState = (): AlbumState => {
  const store = useAlbumStore();
  return useSyncExternalStore(store.subscribe, store.getState);
};
