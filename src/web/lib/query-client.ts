import { QueryClient, type QueryFunction } from '@tanstack/react-query';
import { ApiError, apiRequest, readBody } from './api-client';

type On401 = 'returnNull' | 'throw';

/** Query keys are API paths: ['/api/auth/user'] fetches GET /api/auth/user. */
export const getQueryFn =
  <T>({ on401 }: { on401: On401 }): QueryFunction<T | null> =>
  async ({ queryKey }) => {
    try {
      const res = await apiRequest('GET', queryKey.join('/'));
      return (await readBody(res)) as T;
    } catch (error) {
      if (on401 === 'returnNull' && error instanceof ApiError && error.status === 401) return null;
      throw error;
    }
  };

/** Spec 7: no retry, no refetch on focus, no polling, never stale. */
export const createQueryClient = (): QueryClient =>
  new QueryClient({
    defaultOptions: {
      queries: {
        queryFn: getQueryFn({ on401: 'throw' }),
        retry: false,
        refetchOnWindowFocus: false,
        refetchInterval: false,
        staleTime: Number.POSITIVE_INFINITY,
      },
      mutations: { retry: false },
    },
  });

export const USER_QUERY_KEY = ['/api/auth/user'] as const;
export const CONFIG_QUERY_KEY = ['/api/config'] as const;
