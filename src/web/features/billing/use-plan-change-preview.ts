import { useQuery } from '@tanstack/react-query';
import type { PlanChangePreview } from '../../../shared/api/billing';
import { apiJson } from '../../lib/api-client';
import { previewUrl, type SubscriptionOption } from '../settings/subscription-options';

export const PLAN_CHANGE_PREVIEW_KEY = ['plan-change-preview'] as const;

/**
 * The server's figure for an upgrade (decision 250), asked for whenever it is about to be shown: never
 * kept as fresh (the unused part of the Pro period shrinks as time passes), and fetched again after a
 * refused confirm. Downgrade and cancel cost nothing now, so they ask for nothing.
 */
export function usePlanChangePreview(option: SubscriptionOption | undefined, enabled: boolean) {
  const query = useQuery<PlanChangePreview>({
    queryKey: [...PLAN_CHANGE_PREVIEW_KEY, option?.type, option?.plan],
    queryFn: () => apiJson<PlanChangePreview>('GET', previewUrl(option!)),
    enabled: enabled && option?.type === 'upgrade',
    staleTime: 0,
    gcTime: 0,
  });
  return { data: query.data, failed: query.isError, refetch: query.refetch };
}
