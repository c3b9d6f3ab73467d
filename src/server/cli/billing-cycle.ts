/**
 * npm run billing:cycle -- <email>
 * Starts the next billing cycle of a user on the local test provider, as a renewal would: a cancellation
 * ends the subscription, a scheduled downgrade takes effect, and the cycle's allowance is granted (through
 * the same fulfilment as the provider's events). Works on the configured database (DATABASE_URL, or the
 * PGlite folder in DATA_DIR: stop the server first, only one process may open that folder). With Stripe
 * configured, Stripe runs the cycles (use a Stripe test clock).
 */
import { sql } from 'drizzle-orm';
import { loadConfig } from '../config';
import { openDatabase } from '../db/client';
import { users } from '../db/schema';
import { createFulfilment } from '../modules/billing/fulfilment';
import { createLocalProvider, type LocalProvider } from '../modules/billing/local-provider';
import type { ProviderEvent } from '../modules/billing/payment-provider';

const [email] = process.argv.slice(2);
if (!email) {
  console.error('Usage: npm run billing:cycle -- <email>');
  process.exit(2);
}
const config = loadConfig();
if (config.stripe) {
  console.error(
    'Stripe is configured (STRIPE_SECRET_KEY): Stripe runs the billing cycles; use a Stripe test clock.',
  );
  process.exit(2);
}
const database = await openDatabase(config);
try {
  const db = database.db;
  const [user] = await db
    .select()
    .from(users)
    .where(sql`lower(${users.email}) = ${email.toLowerCase()}`)
    .limit(1);
  if (!user) {
    console.error(`No user with the email ${email}`);
    process.exitCode = 1;
  } else {
    const fulfilment = createFulfilment(db);
    const deliver = (event: ProviderEvent) => fulfilment.applyEvent(local, event);
    const local: LocalProvider = createLocalProvider({ db, publicOrigin: config.publicOrigin, deliver });
    const result = await local.advanceCycle(user.id);
    const [after] = await db.select().from(users).where(sql`${users.id} = ${user.id}`);
    console.log(
      result.ended
        ? `${email}: the subscription ended; the account is on the free trial now.`
        : `${email}: new ${result.plan} cycle until ${after?.currentPeriodEnd?.toISOString()}; balances mix ${after?.mixCredits}, mastering ${after?.masteringCredits}, crowns ${after?.crowns}.`,
    );
  }
} catch (err) {
  console.error(err instanceof Error ? err.message : err);
  process.exitCode = 1;
} finally {
  await database.close();
}
