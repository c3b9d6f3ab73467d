import type { SpendCreditBody, SpendCreditResponse } from '../../shared/api/billing';
import { apiJson } from './api-client';

/**
 * Spends one credit (mix) or crown (mastering) for a download on the server, with a fresh idempotency key:
 * one call per download, whatever the number of formats, and a retried request spends once.
 */
export const spendCredit = (
  type: SpendCreditBody['type'],
  /**
   * What the download delivers, recorded with the one spend and bound to its key: the saved track it is
   * of (issue 29) and, for a mastering download, its versions and formats (issue 18).
   */
  delivered?: Pick<SpendCreditBody, 'versions' | 'formats' | 'trackId'>,
  /** Issue 30: the caller may choose the key, to name the spend afterwards (a kept master). */
  idempotencyKey: string = crypto.randomUUID(),
): Promise<SpendCreditResponse> =>
  apiJson<SpendCreditResponse>('POST', '/api/spend-credit', {
    type,
    idempotencyKey,
    ...delivered,
  });
