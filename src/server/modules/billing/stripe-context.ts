import Stripe from 'stripe';
import type { PlanId } from '../../../shared/plans';
import type { Db } from '../../db/client';

export interface StripeSettings {
  secretKey: string;
  webhookSecret: string | undefined;
  /** A stand-in for the Stripe API (tests): the SDK is pointed at its host, port and protocol. */
  apiUrl: string | undefined;
}

export function stripeClient(s: StripeSettings): Stripe {
  const url = s.apiUrl ? new URL(s.apiUrl) : undefined;
  return new Stripe(s.secretKey, {
    ...(url
      ? {
          host: url.hostname,
          port: url.port || (url.protocol === 'http:' ? 80 : 443),
          protocol: url.protocol === 'http:' ? 'http' : 'https',
        }
      : {}),
    maxNetworkRetries: 2,
    timeout: 15_000,
  });
}

/**
 * What every part of the Stripe adapter shares (checkout, subscriptions, upgrade, payments, events): the
 * SDK client, our database and settings, and the price ids looked up once. Passed as one object instead of
 * one closure, so each part lives in a file of its own (assembled in stripe-provider.ts).
 */
export interface StripeContext {
  db: Db;
  settings: StripeSettings;
  publicOrigin: string;
  stripe: Stripe;
  /** Price ids by plan, once looked up (stripe-prices.ts); unset again after a failed lookup. */
  prices: { lookup?: Promise<Map<PlanId, string>> };
}

/** The id of an object Stripe sent either expanded or as its id. */
export const idOf = (v: string | { id: string } | null | undefined): string | null =>
  v == null ? null : typeof v === 'string' ? v : v.id;

export const firstItem = (sub: Stripe.Subscription) => {
  const item = sub.items.data[0];
  if (!item) throw new Error(`Stripe subscription ${sub.id} has no items`);
  return item;
};
