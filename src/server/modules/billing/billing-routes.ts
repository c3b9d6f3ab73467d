import type { FastifyInstance } from 'fastify';
import {
  advanceCycleBody,
  changeSubscriptionBody,
  checkoutSessionBody,
  purchaseCrownsBody,
  spendAlbumBody,
  spendCreditBody,
} from '../../../shared/api/billing';
import { requireAdmin, requireUser } from '../../http/auth-context';
import { parse } from '../../http/validate';
import type { BillingService } from './billing-service';
import type { LedgerService } from './ledger-service';
import { spendRequestOf } from './spend-request';

/** The JSON API of billing (spec 7). Every rule is decided here on the server; the browser only displays. */
export async function billingRoutes(
  app: FastifyInstance,
  d: { billing: BillingService; ledger: LedgerService },
) {
  app.post('/api/spend-credit', async (req) => {
    const user = requireUser(req);
    const body = parse(spendCreditBody, req.body);
    return d.ledger.spend(user.id, spendRequestOf(body), body.idempotencyKey);
  });

  // Issue 31: one mastering credit or crown per track of an album, once for the whole download.
  app.post('/api/spend-album', async (req) => {
    const user = requireUser(req);
    return d.ledger.spendAlbum(user.id, parse(spendAlbumBody, req.body));
  });

  app.post('/api/purchase-crowns', async (req) => {
    const user = requireUser(req);
    const { amount, idempotencyKey } = parse(purchaseCrownsBody, req.body);
    return d.billing.purchaseCrowns(user, amount, idempotencyKey);
  });

  app.post('/api/create-checkout-session', async (req) => {
    const user = requireUser(req);
    const body = parse(checkoutSessionBody, req.body);
    return d.billing.createCheckout(user, body.lookup_key);
  });

  app.post('/api/auth/change-subscription', async (req) => {
    const user = requireUser(req);
    const body = parse(changeSubscriptionBody, req.body);
    return d.billing.changeSubscription(user, body);
  });

  app.get('/api/billing/payment-methods', async (req) => {
    const user = requireUser(req);
    return { methods: await d.billing.paymentMethods(user) };
  });

  app.post('/api/admin/billing/advance-cycle', async (req) => {
    requireAdmin(req);
    const { userId } = parse(advanceCycleBody, req.body);
    return d.billing.advanceCycle(userId);
  });
}
