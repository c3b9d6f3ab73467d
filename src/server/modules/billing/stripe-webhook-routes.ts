import type { FastifyInstance } from 'fastify';
import type { Fulfilment } from './fulfilment';
import type { StripeProvider } from './stripe-provider';

/**
 * POST /api/stripe/webhook in its own plugin scope, whose only body parser keeps the raw bytes: the
 * signature is computed over exactly what Stripe sent, so the JSON must not be parsed and re-serialised
 * first. A missing, wrong or stale signature is a 400 and changes nothing.
 */
export async function stripeWebhookRoutes(
  app: FastifyInstance,
  d: { stripe: StripeProvider; fulfilment: Fulfilment },
) {
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 1024 * 1024 }, (_req, body, done) =>
      done(null, body),
    );

    scope.post('/api/stripe/webhook', async (req, reply) => {
      const signature = req.headers['stripe-signature'];
      if (typeof signature !== 'string' || signature.length === 0) {
        return reply.code(400).send({ message: 'Missing Stripe signature', code: 'bad_signature' });
      }
      if (!Buffer.isBuffer(req.body)) {
        return reply.code(400).send({ message: 'Missing body', code: 'bad_request' });
      }
      let event: ReturnType<StripeProvider['verify']>;
      try {
        event = d.stripe.verify(req.body, signature);
      } catch (err) {
        req.log.warn({ err: (err as Error).message }, 'stripe webhook rejected');
        return reply.code(400).send({ message: 'Invalid Stripe signature', code: 'bad_signature' });
      }
      const action = await d.stripe.toProviderEvent(event);
      if (!action) return { received: true, ignored: true };
      const outcome = await d.fulfilment.applyEvent(d.stripe, action);
      return { received: true, duplicate: outcome === 'duplicate' };
    });
  });
}
