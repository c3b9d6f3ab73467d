import {
  type Answer,
  newId,
  notFound,
  nowSec,
  type StandInContext,
  type StandInRequest,
  values,
} from './stripe-stand-in-store';

/** The stand-in's prices, customers, Checkout Sessions and saved cards; undefined for other routes. */
export function checkoutRoutes(ctx: StandInContext, r: StandInRequest): Answer | undefined {
  const { method, path, seg, p } = r;
  const { prices, customers, sessions } = ctx.state;
  if (method === 'GET' && path === '/v1/prices') {
    const keys = values(p.lookup_keys) as unknown as string[];
    return {
      status: 200,
      body: {
        object: 'list',
        has_more: false,
        data: Object.values(prices).filter((x) => keys.includes(x.lookup_key as string)),
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
    return c ? { status: 200, body: c } : notFound(path);
  }
  if (seg[1] === 'customers' && seg[2] && !seg[3] && method === 'POST') {
    const c = customers.get(seg[2]);
    if (!c) return notFound(path);
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
    if (!s) return notFound(path);
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
      url: `${ctx.state.url}/pay/${id}`,
      status: 'open',
      created: nowSec(),
    };
    sessions.set(id, s);
    return { status: 200, body: s };
  }
  if (method === 'GET' && path === '/v1/payment_methods') {
    return {
      status: 200,
      body: { object: 'list', has_more: false, data: ctx.cards.get(p.customer as string) ?? [] },
    };
  }
  return undefined;
}
