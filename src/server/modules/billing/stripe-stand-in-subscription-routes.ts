import { cycleFromNow, invoiceFor, itemOf } from './stripe-stand-in-billing';
import {
  type Answer,
  cardError,
  MONTH,
  notFound,
  nowSec,
  type Obj,
  outage,
  priceById,
  type StandInContext,
  type StandInRequest,
  values,
} from './stripe-stand-in-store';

/** The stand-in's subscriptions (list, read, update, cancel) and the upcoming-invoice preview. */
export function subscriptionRoutes(ctx: StandInContext, r: StandInRequest): Answer | undefined {
  const { method, path, seg, p } = r;
  const { state } = ctx;
  const { subscriptions, invoices } = state;
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
    if (!sub) return notFound(path);
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
      const price = priceById(ctx, wantedPrice)!;
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
        invoiceFor(ctx, sub, change.amount_due, 'subscription_update', change.prorationLines);
      } else {
        item.price = price;
      }
    }
    return { status: 200, body: expand(sub) };
  }
  if (method === 'POST' && path === '/v1/invoices/create_preview') {
    const sub = subscriptions.get(p.subscription as string);
    if (!sub) return notFound(path);
    const details = (p.subscription_details ?? {}) as Obj;
    const price = priceById(ctx, (values(details.items)[0] as Obj | undefined)?.price);
    if (!price || (details.billing_cycle_anchor as Obj | undefined)?.type !== 'now') return notFound(path);
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
  return undefined;
}
