import { useQuery } from '@tanstack/react-query';
import type { PublicConfig } from '../../shared/api/config';
import { CONFIG_QUERY_KEY } from '../lib/query-client';

/** The server's whitelisted public config (GET /api/config); read once per page load. */
export const useConfig = () => {
  const query = useQuery<PublicConfig>({ queryKey: CONFIG_QUERY_KEY });
  return { config: query.data, isLoading: query.isLoading, devMode: query.data?.devMode === true };
};
