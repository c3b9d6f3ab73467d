import { sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { MESSAGES } from '../../../shared/messages';
import { client, describeEachDatabase, signedUpClient } from '../../test/harness';

const message = {
  name: 'Ada',
  email: 'ada@example.test',
  subject: 'Mastering question',
  message: 'How loud is Loud?',
};

const storedCount = async (ctx: {
  database: { db: { execute: (q: ReturnType<typeof sql>) => Promise<unknown> } };
}) =>
  (
    (await ctx.database.db.execute(sql`select count(*)::int as n from contact_messages`)) as {
      rows: Array<{ n: number }>;
    }
  ).rows[0]?.n;

describeEachDatabase('contact', (ctx) => {
  it('stores the message and mails support with the sender as reply-to', async () => {
    const res = await client(ctx.app).post('/api/contact', message);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: MESSAGES.contactSent });
    expect(await storedCount(ctx)).toBe(1);
    expect(ctx.mail).toHaveLength(1);
    expect(ctx.mail[0]).toMatchObject({
      to: 'support@example.test',
      replyTo: 'ada@example.test',
      subject: '[Contact] Mastering question',
    });
    expect(ctx.mail[0]?.text).toContain('How loud is Loud?');
  });

  it('links the message to the signed-in user', async () => {
    const { c, user } = await signedUpClient(ctx.app);
    await c.post('/api/contact', message);
    const rows = await ctx.database.db.execute(sql`select user_id from contact_messages`);
    expect((rows as unknown as { rows: Array<{ user_id: number }> }).rows[0]?.user_id).toBe(user.id);
  });

  it.each(['name', 'email', 'subject', 'message'] as const)(
    'requires %s, and stores nothing without it',
    async (field) => {
      const res = await client(ctx.app).post('/api/contact', { ...message, [field]: '   ' });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ message: MESSAGES.contactMissing });
      expect(await storedCount(ctx)).toBe(0);
      expect(ctx.mail).toHaveLength(0);
    },
  );

  it('limits lengths', async () => {
    const res = await client(ctx.app).post('/api/contact', { ...message, message: 'x'.repeat(5001) });
    expect(res.status).toBe(400);
    expect(await storedCount(ctx)).toBe(0);
  });

  it('rate limits one address', async () => {
    const c = client(ctx.app, '10.7.7.7');
    const statuses = [];
    for (let i = 0; i < 6; i++) statuses.push((await c.post('/api/contact', message)).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    expect(await storedCount(ctx)).toBe(5);
  });
});
