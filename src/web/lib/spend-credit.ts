import type { SpendCreditBody, SpendCreditResponse } from '../../shared/api/billing';
import { apiJson } from './api-client';

/**
 * Spends one credit (mix) or crown (mastering) for a download on the server, with a fresh idempotency key:
 * one call per download, whatever the number of formats, and a retried request spends once.
 */
export const spendCredit = (
  type: SpendCreditBody['type'],
  /** Issue 18: what a mastering download delivers (versions and formats), recorded with the one spend. */
  delivered?: Pick<SpendCreditBody, 'versions' | 'formats'>,
): Promise<SpendCreditResponse> =>
  apiJson<SpendCreditResponse>('POST', '/api/spend-credit', {
    type,
    idempotencyKey: crypto.randomUUID(),
    ...delivered,
  });
