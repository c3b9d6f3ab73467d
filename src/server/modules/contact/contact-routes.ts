import type { FastifyInstance } from 'fastify';
import { contactBody } from '../../../shared/api/contact';
import { MESSAGES } from '../../../shared/messages';
import type { Db } from '../../db/client';
import { contactMessages } from '../../db/schema';
import { clientKey } from '../../http/client-address';
import { parse } from '../../http/validate';
import type { Mailer } from '../../mail/mailer';
import { enforceLimit, type RateLimiter } from '../../rate-limit/limiter';

export interface ContactDeps {
  db: Db;
  mailer: Mailer;
  limiter: RateLimiter;
  supportEmail: string;
}

export async function contactRoutes(app: FastifyInstance, d: ContactDeps) {
  app.post('/api/contact', async (req) => {
    await enforceLimit(d.limiter, `contact:ip:${clientKey(req.ip)}`, 5, 10 * 60 * 1000);
    const body = parse(contactBody, req.body);
    await d.db.insert(contactMessages).values({ ...body, userId: req.user?.id ?? null });
    try {
      await d.mailer.send({
        to: d.supportEmail,
        replyTo: body.email,
        subject: `[Contact] ${body.subject}`,
        text: `From: ${body.name} <${body.email}>\n\n${body.message}\n`,
      });
    } catch (err) {
      // Queuing fails only with the database; the message row above stays for support either way.
      req.log.error({ err }, 'contact mail delivery failed');
    }
    return { message: MESSAGES.contactSent };
  });
}
