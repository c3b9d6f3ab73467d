import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A small local HTTP stand-in for the parts of the Stripe API the adapter calls, so the real Stripe SDK
 * can be exercised offline: the SDK is pointed at it through STRIPE_API_URL. It keeps customers, prices,
 * checkout sessions, subscriptions, invoices, payment intents and cards in memory, and lets a test play
 * the customer's side (paying a checkout, renewing a cycle). Test support only, never used by the app.
 */
type Obj = Record<string, unknown>;

const newId = (prefix: string) => `${prefix}_${randomBytes(8).toString('hex')}`;
const nowSec = () => Math.floor(Date.now() / 1000);
const MONTH = 30 * 24 * 3600;

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
const values = (v: unknown): Obj[] => (v && typeof v === 'object' ? (Object.values(v) as Obj[]) : []);

export interface StandIn {
  url: string;
  prices: { pro: Obj; unlimited: Obj };
  customers: Map<string, Obj>;
  sessions: Map<string, Obj>;
  subscriptions: Map<string, Obj>;
  invoices: Map<string, Obj>;
  paymentIntents: Map<string, Obj>;
  refunds: Map<string, Obj>;
  /** Every call the SDK made: method, path, parsed parameters and the Idempotency-Key header. */
  requests: Array<{ method: string; path: string; params: Obj; idempotencyKey?: string }>;
  /** The next charge of a saved card fails with card_declined. */
  declineNextCharge: boolean;
  /**
   * The next calls of this kind fail with a 500 that the SDK does not retry (an outage, or the process dying
   * before the answer): nothing is done at Stripe for them.
   */
  failNext: { cancel: number; refund: number };
  /** The customer pays the checkout at Stripe: subscription, card and first invoice now exist. */
  payCheckout(sessionId: string): { session: Obj; subscription: Obj; invoice: Obj };
  /** Stripe starts the next cycle of a subscription and pays its invoice. */
  renew(subscriptionId: string): Obj;
  invoiceFor(subscription: Obj, amount: number, reason: string): Obj;
  close(): Promise<void>;
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
  const priceById = (id: unknown) => Object.values(prices).find((p) => p.id === id);
  const customers = new Map<string, Obj>();
  const cards = new Map<string, Obj[]>();
  const sessions = new Map<string, Obj>();
  const subscriptions = new Map<string, Obj>();
  const invoices = new Map<string, Obj>();
  const paymentIntents = new Map<string, Obj>();
  const refunds = new Map<string, Obj>();
  const requests: StandIn['requests'] = [];
  let url = '';

  const itemOf = (sub: Obj) => (sub.items as { data: Obj[] }).data[0]!;

  const invoiceFor = (sub: Obj, amount: number, reason: string, prorationLines: Obj[] = []): Obj => {
    const price = itemOf(sub).price as Obj;
    const id = newId('in');
    // As at Stripe since 2025-03: the money of an invoice is a PaymentIntent, named by its invoice payments.
    const pi = {
      id: newId('pi'),
      object: 'payment_intent',
      amount,
      amount_received: amount,
      amount_refunded: 0,
      status: 'succeeded',
      customer: sub.customer,
      metadata: {},
    };
    paymentIntents.set(pi.id, pi);
    const invoice = {
      id,
      object: 'invoice',
      customer: sub.customer,
      subscription_id: sub.id,
      status: 'paid',
      amount_paid: amount,
      billing_reason: reason,
      payments: {
        object: 'list',
        data: [
          {
            id: newId('inpay'),
            object: 'invoice_payment',
            invoice: id,
            status: 'paid',
            amount_paid: amount,
            payment: { type: 'payment_intent', payment_intent: pi.id },
          },
        ],
      },
      parent: {
        type: 'subscription_details',
        subscription_details: { subscription: sub.id, metadata: sub.metadata },
      },
      lines: {
        object: 'list',
        data: [
          // As at Stripe: the credit for the unused old price comes first, marked as a proration.
          ...prorationLines,
          {
            amount: amount + prorationLines.reduce((sum, l) => sum - (l.amount as number), 0),
            pricing: { type: 'price_details', price_details: { price: price.id } },
            parent: { type: 'subscription_item_details', subscription_item_details: { proration: false } },
          },
        ],
      },
    };
    invoices.set(invoice.id, invoice);
    sub.latest_invoice = invoice.id;
    return invoice;
  };

  /**
   * A new cycle anchored at `at` on `price`: with always_invoice, Stripe credits the unused part of the old
   * price (seconds left over the period's length, to the cent) on the invoice it takes at once.
   */
  const cycleFromNow = (sub: Obj, price: Obj, at: number, behavior: string | undefined) => {
    const item = itemOf(sub);
    const start = item.current_period_start as number;
    const end = item.current_period_end as number;
    const old = item.price as Obj;
    const unused = Math.min(end - start, Math.max(0, end - at));
    const credit =
      behavior === 'always_invoice' ? Math.round(((old.unit_amount as number) * unused) / (end - start)) : 0;
    const prorationLines: Obj[] =
      credit > 0
        ? [
            {
              amount: -credit,
              period: { start: at, end },
              pricing: { type: 'price_details', price_details: { price: old.id } },
              parent: { type: 'subscription_item_details', subscription_item_details: { proration: true } },
            },
          ]
        : [];
    return { amount_due: Math.max(0, (price.unit_amount as number) - credit), prorationLines };
  };

  const state: StandIn = {
    url: '',
    prices,
    customers,
    sessions,
    subscriptions,
    invoices,
    paymentIntents,
    refunds,
    requests,
    declineNextCharge: false,
    failNext: { cancel: 0, refund: 0 },
    invoiceFor,
    payCheckout(sessionId) {
      const session = sessions.get(sessionId)!;
      if (session.status !== 'open') throw new Error(`checkout session ${sessionId} is ${session.status}`);
      const customer = session.customer as string;
      const card = {
        id: newId('pm'),
        object: 'payment_method',
        card: { brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2034 },
      };
      cards.set(customer, [card]);
      const price = priceById((values(session.line_items)[0] as Obj).price)!;
      const sub: Obj = {
        id: newId('sub'),
        object: 'subscription',
        customer,
        status: 'active',
        cancel_at_period_end: false,
        metadata: { ...((session.subscription_data as Obj | undefined)?.metadata as Obj) },
        items: {
          object: 'list',
          data: [
            { id: newId('si'), price, current_period_start: nowSec(), current_period_end: nowSec() + MONTH },
          ],
        },
        default_payment_method: card.id,
      };
      subscriptions.set(sub.id as string, sub);
      Object.assign(session, { status: 'complete', subscription: sub.id, payment_status: 'paid' });
      return {
        session,
        subscription: sub,
        invoice: invoiceFor(sub, price.unit_amount, 'subscription_create'),
      };
    },
    renew(subscriptionId) {
      const sub = subscriptions.get(subscriptionId)!;
      const item = itemOf(sub);
      item.current_period_start = item.current_period_end;
      item.current_period_end = (item.current_period_end as number) + MONTH;
      if (sub.cancel_at_period_end) {
        sub.status = 'canceled';
        return sub;
      }
      return invoiceFor(sub, (item.price as Obj).unit_amount as number, 'subscription_cycle');
    },
    close: () => new Promise((r) => server.close(() => r())),
  };

  const cardError = () => ({
    status: 402,
    body: {
      error: {
        type: 'card_error',
        code: 'card_declined',
        decline_code: 'generic_decline',
        message: 'Your card was declined.',
      },
    },
  });

  /** Stripe is down (or the answer never arrives): a 500 the SDK is told not to retry. */
  const outage = () => ({
    status: 500,
    noRetry: true,
    body: { error: { type: 'api_error', message: 'The stand-in was told to fail this call.' } },
  });

  const route = (
    method: string,
    path: string,
    p: Obj,
  ): { status: number; body: unknown; noRetry?: boolean } => {
    const seg = path.split('/').filter(Boolean); // ['v1', ...]
    const notFound = {
      status: 404,
      body: { error: { type: 'invalid_request_error', message: `No such route ${path}` } },
    };
    if (method === 'GET' && path === '/v1/prices') {
      const keys = values(p.lookup_keys) as unknown as string[];
      return {
        status: 200,
        body: {
          object: 'list',
          has_more: false,
          data: Object.values(prices).filter((x) => keys.includes(x.lookup_key)),
        },
      };
    }
    if (method === 'POST' && path === '/v1/customers') {
      const c = {
        id: newId('cus'),
        object: 'customer',
        email: p.email,
        metadata: p.metadata ?? {},
        invoice_settings: { default_payment_method: null },
      };
      customers.set(c.id, c);
      return { status: 200, body: c };
    }
    if (seg[1] === 'customers' && seg[2] && method === 'GET') {
      const c = customers.get(seg[2]);
      return c ? { status: 200, body: c } : notFound;
    }
    if (seg[1] === 'customers' && seg[2] && !seg[3] && method === 'POST') {
      const c = customers.get(seg[2]);
      if (!c) return notFound;
      if (p.email !== undefined) c.email = p.email;
      return { status: 200, body: c };
    }
    if (method === 'GET' && path === '/v1/checkout/sessions') {
      const data = [...sessions.values()].filter(
        (s) => (!p.customer || s.customer === p.customer) && (!p.status || s.status === p.status),
      );
      return { status: 200, body: { object: 'list', has_more: false, data } };
    }
    if (method === 'POST' && seg[1] === 'checkout' && seg[2] === 'sessions' && seg[4] === 'expire') {
      const s = sessions.get(seg[3]!);
      if (!s) return notFound;
      if (s.status !== 'open') {
        return {
          status: 400,
          body: {
            error: {
              type: 'invalid_request_error',
              message: `Only Checkout Sessions with a status in ["open"] can be expired.`,
            },
          },
        };
      }
      s.status = 'expired';
      return { status: 200, body: s };
    }
    if (method === 'POST' && path === '/v1/checkout/sessions') {
      const id = newId('cs_test');
      const s = {
        id,
        object: 'checkout.session',
        ...p,
        url: `${url}/pay/${id}`,
        status: 'open',
        created: nowSec(),
      };
      sessions.set(id, s);
      return { status: 200, body: s };
    }
    if (method === 'GET' && path === '/v1/subscriptions') {
      // Stripe lists all but canceled ones unless status=all is asked for.
      const data = [...subscriptions.values()].filter(
        (x) =>
          (!p.customer || x.customer === p.customer) &&
          (p.status === 'all' || (p.status ? x.status === p.status : x.status !== 'canceled')),
      );
      return { status: 200, body: { object: 'list', has_more: false, data } };
    }
    if (seg[1] === 'subscriptions' && seg[2]) {
      const sub = subscriptions.get(seg[2]);
      if (!sub) return notFound;
      const expand = (body: Obj) =>
        (values(p.expand) as unknown as string[]).includes('latest_invoice')
          ? { ...body, latest_invoice: invoices.get(body.latest_invoice as string) }
          : body;
      if (method === 'GET') return { status: 200, body: expand(sub) };
      if (method === 'DELETE') {
        if (state.failNext.cancel > 0) {
          state.failNext.cancel--;
          return outage();
        }
        if (sub.status === 'canceled') {
          return {
            status: 400,
            body: {
              error: {
                type: 'invalid_request_error',
                message: `A canceled subscription can only update its cancellation_details and metadata.`,
              },
            },
          };
        }
        sub.status = 'canceled';
        return { status: 200, body: sub };
      }
      // POST: an update.
      const item = itemOf(sub);
      const wantedPrice = (values(p.items)[0] as Obj | undefined)?.price;
      if (p.cancel_at_period_end !== undefined) sub.cancel_at_period_end = p.cancel_at_period_end === 'true';
      if (p.metadata) {
        const meta = { ...(sub.metadata as Obj) };
        for (const [k, v] of Object.entries(p.metadata as Obj)) {
          if (v === '') delete meta[k];
          else meta[k] = v;
        }
        sub.metadata = meta;
      }
      if (wantedPrice) {
        const price = priceById(wantedPrice)!;
        if ((p.billing_cycle_anchor as Obj | undefined)?.type === 'now') {
          if (state.declineNextCharge) {
            state.declineNextCharge = false;
            return cardError();
          }
          const at = p.proration_date ? Number(p.proration_date) : nowSec();
          const change = cycleFromNow(sub, price, at, p.proration_behavior as string | undefined);
          item.price = price;
          item.current_period_start = at;
          item.current_period_end = at + MONTH;
          invoiceFor(sub, change.amount_due, 'subscription_update', change.prorationLines);
        } else {
          item.price = price;
        }
      }
      return { status: 200, body: expand(sub) };
    }
    if (method === 'POST' && path === '/v1/invoices/create_preview') {
      const sub = subscriptions.get(p.subscription as string);
      if (!sub) return notFound;
      const details = (p.subscription_details ?? {}) as Obj;
      const price = priceById((values(details.items)[0] as Obj | undefined)?.price);
      if (!price || (details.billing_cycle_anchor as Obj | undefined)?.type !== 'now') return notFound;
      const at = details.proration_date ? Number(details.proration_date) : nowSec();
      const change = cycleFromNow(sub, price, at, details.proration_behavior as string | undefined);
      return {
        status: 200,
        body: {
          object: 'invoice',
          id: null,
          customer: sub.customer,
          amount_due: change.amount_due,
          lines: {
            object: 'list',
            has_more: false,
            data: [
              ...change.prorationLines,
              { amount: price.unit_amount, period: { start: at, end: at + MONTH } },
            ],
          },
        },
      };
    }
    if (method === 'GET' && path === '/v1/invoices') {
      const expanded = (values(p.expand) as unknown as string[]).includes('data.payments');
      const data = [...invoices.values()]
        .filter(
          (i) =>
            (!p.subscription || i.subscription_id === p.subscription) && (!p.status || i.status === p.status),
        )
        .map((i) => (expanded ? i : { ...i, payments: undefined }));
      return { status: 200, body: { object: 'list', has_more: false, data } };
    }
    if (method === 'GET' && path === '/v1/refunds') {
      const data = [...refunds.values()].filter(
        (r) => !p.payment_intent || r.payment_intent === p.payment_intent,
      );
      return { status: 200, body: { object: 'list', has_more: false, data } };
    }
    if (method === 'POST' && path === '/v1/refunds') {
      if (state.failNext.refund > 0) {
        state.failNext.refund--;
        return outage();
      }
      const pi = paymentIntents.get(p.payment_intent as string);
      if (!pi) return notFound;
      const left = (pi.amount_received as number) - (pi.amount_refunded as number);
      const amount = p.amount ? Number(p.amount) : left;
      if (left <= 0 || amount > left) {
        return {
          status: 400,
          body: {
            error: {
              type: 'invalid_request_error',
              code: 'charge_already_refunded',
              message: `Charge for ${pi.id} has already been refunded.`,
            },
          },
        };
      }
      pi.amount_refunded = (pi.amount_refunded as number) + amount;
      const refund = {
        id: newId('re'),
        object: 'refund',
        amount,
        currency: 'usd',
        payment_intent: pi.id,
        reason: p.reason ?? null,
        metadata: p.metadata ?? {},
        status: 'succeeded',
      };
      refunds.set(refund.id, refund);
      return { status: 200, body: refund };
    }
    if (method === 'POST' && path === '/v1/payment_intents') {
      if (state.declineNextCharge) {
        state.declineNextCharge = false;
        return cardError();
      }
      const amount = Number(p.amount);
      const pi = {
        id: newId('pi'),
        object: 'payment_intent',
        amount,
        amount_received: amount,
        status: 'succeeded',
        customer: p.customer,
        payment_method: p.payment_method,
        metadata: p.metadata ?? {},
      };
      paymentIntents.set(pi.id, pi);
      return { status: 200, body: pi };
    }
    if (method === 'GET' && path === '/v1/payment_methods') {
      return {
        status: 200,
        body: { object: 'list', has_more: false, data: cards.get(p.customer as string) ?? [] },
      };
    }
    return notFound;
  };

  /**
   * Stripe's idempotent requests: a POST repeated with its Idempotency-Key gets the first answer and does
   * nothing again; the key with other parameters is refused. (Requests are handled one at a time here, so
   * concurrent repeats simply find the first answer.)
   */
  type Answer = { status: number; body: unknown; noRetry?: boolean };
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
      requests.push({ method: req.method ?? 'GET', path: u.pathname, params, idempotencyKey: key });
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
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.url = url;
  return state;
}
