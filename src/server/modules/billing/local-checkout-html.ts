import { formatCents, type Plan } from '../../../shared/plans';
import { TEST_CARD_NUMBERS } from './test-cards';

/**
 * The local test provider's hosted checkout pages, rendered on the server. No script at all (the app's CSP
 * allows only same-origin script files): plain forms posting to this app. Styles are inline, which the CSP
 * allows.
 */
const esc = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const STYLE = `
  *{box-sizing:border-box}
  body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#09090b;color:#f4f4f5}
  main{max-width:28rem;margin:3rem auto;padding:0 1rem}
  .card{background:#18181b;border:1px solid #27272a;border-radius:.75rem;padding:1.5rem}
  h1{font-size:1.5rem;margin:0 0 .25rem} p{color:#d4d4d8;line-height:1.5}
  .badge{display:inline-block;font-size:.75rem;background:#3f3f46;border-radius:999px;padding:.1rem .6rem;margin-bottom:1rem}
  .sum{display:flex;justify-content:space-between;border-top:1px solid #27272a;border-bottom:1px solid #27272a;padding:.75rem 0;margin:1rem 0;font-weight:600}
  label{display:block;font-size:.875rem;color:#d4d4d8;margin:.75rem 0 .25rem}
  input{width:100%;padding:.6rem .75rem;border-radius:.5rem;border:1px solid #3f3f46;background:#09090b;color:#f4f4f5;font-size:1rem}
  input:focus{outline:2px solid #8b5cf6;outline-offset:1px}
  .row{display:flex;gap:.75rem}.row>div{flex:1}
  button{width:100%;margin-top:1.25rem;padding:.75rem;border:0;border-radius:.5rem;background:#7c3aed;color:#fff;font-size:1rem;font-weight:600;cursor:pointer}
  button:focus-visible{outline:2px solid #c4b5fd;outline-offset:2px}
  button.secondary{background:#3f3f46}
  .error{background:#450a0a;border:1px solid #b91c1c;color:#fecaca;border-radius:.5rem;padding:.75rem;margin:1rem 0}
  a{color:#c4b5fd} small{color:#a1a1aa} ul{padding-left:1.2rem;color:#a1a1aa;font-size:.875rem}
`;

const page = (title: string, body: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${esc(title)} · Master Your Mix</title><style>${STYLE}</style></head>
<body><main>${body}</main></body></html>`;

const summary = (plan: Plan) =>
  `<div class="sum"><span>${esc(plan.name)} plan, billed monthly</span><span>${formatCents(plan.priceCents)} / ${plan.period}</span></div>`;

export function checkoutPage(o: { action: string; plan: Plan; cancelUrl: string; error?: string }): string {
  const error = o.error
    ? `<div class="error" role="alert" data-testid="checkout-error">${esc(o.error)}</div>`
    : '';
  return page(
    'Checkout',
    `<div class="card">
  <span class="badge">Test mode: no real money moves</span>
  <h1>Subscribe to ${esc(o.plan.name)}</h1>
  ${summary(o.plan)}
  ${error}
  <form method="post" action="${esc(o.action)}" aria-label="Card details">
    <label for="number">Card number</label>
    <input id="number" name="number" inputmode="numeric" autocomplete="cc-number" placeholder="4242 4242 4242 4242" required maxlength="23">
    <div class="row">
      <div><label for="expiry">Expiry (MM/YY)</label>
      <input id="expiry" name="expiry" autocomplete="cc-exp" placeholder="12/34" required maxlength="7"></div>
      <div><label for="cvc">CVC</label>
      <input id="cvc" name="cvc" inputmode="numeric" autocomplete="cc-csc" placeholder="123" required maxlength="4"></div>
    </div>
    <label for="name">Name on card</label>
    <input id="name" name="name" autocomplete="cc-name" maxlength="100">
    <button type="submit">Pay ${formatCents(o.plan.priceCents)}</button>
  </form>
  <p><small>Test cards: ${TEST_CARD_NUMBERS.success} succeeds, ${TEST_CARD_NUMBERS.decline} is declined,
  ${TEST_CARD_NUMBERS.threeDSecure} asks for a 3-D Secure confirmation. Any future expiry, any CVC.</small></p>
  <p><a href="${esc(o.cancelUrl)}">Cancel and go back</a></p>
</div>`,
  );
}

export function authenticatePage(o: { action: string; plan: Plan; last4: string }): string {
  return page(
    '3-D Secure',
    `<div class="card">
  <span class="badge">Test mode: 3-D Secure</span>
  <h1>Confirm this payment</h1>
  <p>Your bank asks you to confirm the payment of ${formatCents(o.plan.priceCents)} with the card ending in
  ${esc(o.last4)}.</p>
  ${summary(o.plan)}
  <form method="post" action="${esc(o.action)}">
    <button type="submit" name="decision" value="approve">Complete authentication</button>
    <button type="submit" name="decision" value="fail" class="secondary">Fail authentication</button>
  </form>
</div>`,
  );
}

export function messagePage(title: string, text: string, link: { href: string; label: string }): string {
  return page(
    title,
    `<div class="card"><h1>${esc(title)}</h1><p>${esc(text)}</p><p><a href="${esc(link.href)}">${esc(link.label)}</a></p></div>`,
  );
}
