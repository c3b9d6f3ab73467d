import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import { BILLING_MESSAGES } from '../../../shared/api/billing';
import { PLANS, type PlanId } from '../../../shared/plans';
import { authenticatePage, checkoutPage, messagePage } from './local-checkout-html';
import { LOCAL_CHECKOUT_PATH, type LocalProvider, type LocalSession } from './local-provider';

/** Where the provider sends the browser after a paid checkout (the page shows what the server granted). */
export const CHECKOUT_SUCCESS_PATH = '/settings?checkout=success';

const cardForm = z.object({
  number: z.string().max(40).default(''),
  expiry: z.string().max(10).default(''),
  cvc: z.string().max(10).default(''),
  name: z.string().max(100).optional(),
});
const decisionForm = z.object({ decision: z.enum(['approve', 'fail']).optional() });

/**
 * The local test provider's hosted checkout, served by this app in its own plugin scope (the only place
 * that parses HTML form posts). The unguessable session id in the address is what authorises the page,
 * as with a provider's hosted checkout; the app's CSRF guard still refuses cross-site posts that carry
 * our cookie.
 */
export async function localCheckoutRoutes(app: FastifyInstance, d: { local: LocalProvider }) {
  await app.register(async (scope) => {
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 4096 },
      (_req, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
    );

    // The app's default Referrer-Policy (no-referrer) makes browsers send `Origin: null` with form posts,
    // which the CSRF guard refuses; same-origin keeps our own origin on posts to ourselves and still sends
    // nothing to other sites.
    const html = (reply: FastifyReply, status: number, body: string) =>
      reply
        .code(status)
        .header('Cache-Control', 'no-store')
        .header('Referrer-Policy', 'same-origin')
        .type('text/html; charset=utf-8')
        .send(body);

    const planOf = (s: LocalSession) => PLANS[s.plan as PlanId];
    const actionOf = (s: LocalSession) => `${LOCAL_CHECKOUT_PATH}/${s.id}`;
    const cancelOf = (s: LocalSession) => `/checkout?plan=${s.plan}`;
    const notFoundPage = (reply: FastifyReply) =>
      html(
        reply,
        404,
        messagePage('Checkout not found', BILLING_MESSAGES.checkoutExpired, {
          href: '/pricing',
          label: 'Pricing',
        }),
      );
    const donePage = (reply: FastifyReply) =>
      reply.code(303).header('Location', CHECKOUT_SUCCESS_PATH).send();

    scope.get<{ Params: { id: string } }>(`${LOCAL_CHECKOUT_PATH}/:id`, async (req, reply) => {
      const session = await d.local.session(req.params.id);
      if (!session) return notFoundPage(reply);
      if (session.status === 'complete') {
        return html(
          reply,
          200,
          messagePage('Payment complete', 'This checkout is already paid.', {
            href: CHECKOUT_SUCCESS_PATH,
            label: 'Go to your account',
          }),
        );
      }
      return html(
        reply,
        200,
        checkoutPage({ action: actionOf(session), plan: planOf(session), cancelUrl: cancelOf(session) }),
      );
    });

    scope.post<{ Params: { id: string } }>(`${LOCAL_CHECKOUT_PATH}/:id`, async (req, reply) => {
      const session = await d.local.session(req.params.id);
      if (!session) return notFoundPage(reply);
      const form = cardForm.safeParse(req.body ?? {});
      const result = form.success
        ? await d.local.submitCard(session, form.data)
        : ({ kind: 'declined', field: 'form', message: BILLING_MESSAGES.cardNumberIncorrect } as const);
      if (result.kind === 'complete') return donePage(reply);
      if (result.kind === 'requires_action') {
        return reply
          .code(303)
          .header('Location', `${actionOf(session)}/authenticate`)
          .send();
      }
      return html(
        reply,
        402,
        checkoutPage({
          action: actionOf(session),
          plan: planOf(session),
          cancelUrl: cancelOf(session),
          error: result.message,
        }),
      );
    });

    scope.get<{ Params: { id: string } }>(`${LOCAL_CHECKOUT_PATH}/:id/authenticate`, async (req, reply) => {
      const session = await d.local.session(req.params.id);
      if (!session) return notFoundPage(reply);
      if (session.status === 'complete') return donePage(reply);
      if (session.status !== 'requires_action' || !session.cardLast4) {
        return reply.code(303).header('Location', actionOf(session)).send();
      }
      return html(
        reply,
        200,
        authenticatePage({
          action: `${actionOf(session)}/authenticate`,
          plan: planOf(session),
          last4: session.cardLast4,
        }),
      );
    });

    scope.post<{ Params: { id: string } }>(`${LOCAL_CHECKOUT_PATH}/:id/authenticate`, async (req, reply) => {
      const session = await d.local.session(req.params.id);
      if (!session) return notFoundPage(reply);
      const form = decisionForm.safeParse(req.body ?? {});
      const approve = form.success && form.data.decision === 'approve';
      const result = await d.local.authenticate(session, approve);
      if (result.kind === 'complete') return donePage(reply);
      return html(
        reply,
        402,
        checkoutPage({
          action: actionOf(session),
          plan: planOf(session),
          cancelUrl: cancelOf(session),
          error: result.kind === 'declined' ? result.message : BILLING_MESSAGES.authenticationFailed,
        }),
      );
    });
  });
}
