import type { SpendCreditBody } from '../../../shared/api/billing';

/**
 * Issue 29: what one download's spend was for. An idempotency key is bound to it: the same key sent again
 * with the same request answers the stored result, with any other request 409 and nothing spent (before,
 * a key first spent on a mastering download answered a mix download with success and charged nothing).
 * Lists compare as sets: the same versions and formats in another order are the same download.
 */
export interface SpendRequest {
  type: SpendCreditBody['type'];
  trackId: number | null;
  versions: string[] | null;
  formats: string[] | null;
}

/** The request of a spend body. A mastering download naming formats without versions delivers the Main. */
export function spendRequestOf(body: SpendCreditBody): SpendRequest {
  const delivers = body.type === 'mastering' && Boolean(body.versions || body.formats);
  return {
    type: body.type,
    trackId: body.trackId ?? null,
    versions: delivers ? (body.versions ?? ['main']) : null,
    formats: delivers ? (body.formats ?? []) : null,
  };
}

/** The ledger row's `delivered` column (issue 18) of a request: its versions and formats, or null. */
export const deliveredOf = (r: SpendRequest) =>
  r.versions && r.formats ? { versions: r.versions, formats: r.formats } : null;

const sorted = (list: string[] | null) => (list ? [...list].sort() : null);
const canonical = (r: SpendRequest) =>
  JSON.stringify([r.type, r.trackId, sorted(r.versions), sorted(r.formats)]);

export const sameSpendRequest = (a: SpendRequest, b: SpendRequest) => canonical(a) === canonical(b);
