import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { invoiceFor, payCheckout, renew } from './stripe-stand-in-billing';
import { checkoutRoutes } from './stripe-stand-in-checkout-routes';
import { paymentRoutes } from './stripe-stand-in-payment-routes';
import {
  type Answer,
  newId,
  notFound,
  type Obj,
  type StandIn,
  type StandInContext,
  type StandInRequest,
} from './stripe-stand-in-store';
import { subscriptionRoutes } from './stripe-stand-in-subscription-routes';

export type { StandIn } from './stripe-stand-in-store';

/**
 * A small local HTTP stand-in for the parts of the Stripe API the adapter calls, so the real Stripe SDK
 * can be exercised offline: the SDK is pointed at it through STRIPE_API_URL. It keeps customers, prices,
 * checkout sessions, subscriptions, invoices, payment intents and cards in memory, and lets a test play
 * the customer's side (paying a checkout, renewing a cycle). Test support only, never used by the app.
 *
 * This file is its HTTP side (form parsing, API key, idempotent requests); the routes and Stripe's own
 * doings are in the stripe-stand-in-*.ts files beside it, sharing one context (stripe-stand-in-store.ts).
 */

/** Stripe's form encoding: a[b][0][c]=v becomes {a: {b: {0: {c: v}}}}. */
function parseForm(body: string): Obj {
  const out: Obj = {};
  for (const [key, value] of new URLSearchParams(body)) {
    const parts = key.split(/[[\]]+/).filter(Boolean);
    let node = out;
    parts.forEach((part, i) => {
      if (i === parts.length - 1) {
        node[part] = value;
        return;
      }
      node[part] ??= {};
      node = node[part] as Obj;
    });
  }
  return out;
}

export async function startStripeStandIn(): Promise<StandIn> {
  const prices = {
    pro: { id: 'price_pro_test', object: 'price', lookup_key: 'pro_plan', unit_amount: 999, active: true },
    unlimited: {
      id: 'price_unl_test',
      object: 'price',
      lookup_key: 'unlimited_plan',
      unit_amount: 2999,
      active: true,
    },
  };
  const state: StandIn = {
    url: '',
    prices,
    customers: new Map(),
    sessions: new Map(),
    subscriptions: new Map(),
    invoices: new Map(),
    paymentIntents: new Map(),
    refunds: new Map(),
    requests: [],
    declineNextCharge: false,
    failNext: { cancel: 0, refund: 0 },
    invoiceFor: (sub, amount, reason) => invoiceFor(ctx, sub, amount, reason),
    payCheckout: (sessionId) => payCheckout(ctx, sessionId),
    renew: (subscriptionId) => renew(ctx, subscriptionId),
    close: () => new Promise((r) => server.close(() => r())),
  };
  const ctx: StandInContext = { state, cards: new Map() };

  const route = (method: string, path: string, p: Obj): Answer => {
    const r: StandInRequest = { method, path, seg: path.split('/').filter(Boolean), p };
    return checkoutRoutes(ctx, r) ?? subscriptionRoutes(ctx, r) ?? paymentRoutes(ctx, r) ?? notFound(path);
  };

  /**
   * Stripe's idempotent requests: a POST repeated with its Idempotency-Key gets the first answer and does
   * nothing again; the key with other parameters is refused. (Requests are handled one at a time here, so
   * concurrent repeats simply find the first answer.)
   */
  const answers = new Map<string, { body: string; out: Answer }>();
  const idempotent = (key: string, body: string, run: () => Answer): Answer => {
    const earlier = answers.get(key);
    if (earlier && earlier.body !== body) {
      return {
        status: 400,
        body: {
          error: {
            type: 'idempotency_error',
            message: `Keys for idempotent requests can only be used with the same parameters they were first used with.`,
          },
        },
      };
    }
    if (earlier) return earlier.out;
    // A copy: later changes of the objects do not change the saved answer.
    const out = JSON.parse(JSON.stringify(run())) as Answer;
    // An outage is a request that never reached Stripe: nothing is saved under its key.
    if (!out.noRetry) answers.set(key, { body, out });
    return out;
  };

  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const u = new URL(req.url ?? '/', 'http://stand-in');
      const params =
        req.method === 'GET' || req.method === 'DELETE' ? parseForm(u.search.slice(1)) : parseForm(body);
      const key = req.headers['idempotency-key']?.toString();
      state.requests.push({ method: req.method ?? 'GET', path: u.pathname, params, idempotencyKey: key });
      const auth = req.headers.authorization ?? '';
      const out = !auth.startsWith('Bearer sk_test_')
        ? {
            status: 401,
            body: { error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } },
          }
        : req.method === 'POST' && key
          ? idempotent(key, body, () => route('POST', u.pathname, params))
          : route(req.method ?? 'GET', u.pathname, params);
      res.writeHead(out.status, {
        'content-type': 'application/json',
        'request-id': newId('req'),
        ...(out.noRetry ? { 'stripe-should-retry': 'false' } : {}),
      });
      res.end(JSON.stringify(out.body));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return state;
}
