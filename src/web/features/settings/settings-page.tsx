import { Link } from 'react-router';
import type { PublicUser } from '../../../shared/api/user';
import { showsCredits } from '../../../shared/balances';
import { PLANS } from '../../../shared/plans';
import { useAuth } from '../../app/auth-context';
import { Badge } from '../../components/ui/badge';
import { buttonClasses } from '../../components/ui/button';
import { Card, CardTitle } from '../../components/ui/card';
import { formatDate } from '../../lib/format';
import { usePageTitle } from '../../lib/use-page-title';
import { BillingHistoryCard } from './billing-history-card';
import { ChangeSubscriptionDialog } from './change-subscription-dialog';
import { CheckoutNotice } from './checkout-notice';
import { DangerZone } from './danger-zone';
import { EmailChangeCard } from './email-change-card';
import { EmailConfirmation } from './email-confirmation';
import { PaymentMethodsCard } from './payment-methods-card';
import { SecurityCard } from './security-card';
import { SessionsCard } from './sessions-card';
import { TwoFactorCard } from './two-factor-card';

function Row({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="flex flex-col gap-1 border-b border-zinc-800 py-3 last:border-0 sm:flex-row sm:justify-between">
      <dt className="text-sm text-zinc-400">{label}</dt>
      <dd className="text-sm font-medium break-all text-zinc-50">{children}</dd>
    </div>
  );
}

function AccountCard({ user }: { user: PublicUser }) {
  return (
    <Card>
      <CardTitle>Account Information</CardTitle>
      <dl className="mt-3">
        <Row label="Email">{user.email}</Row>
        <Row label="Email status">
          <EmailConfirmation verified={user.emailVerified} />
        </Row>
        <Row label="Username">{user.username}</Row>
        <Row label="Account Status">
          {user.hasSubscription ? <Badge tone="green">Active</Badge> : <Badge tone="zinc">Inactive</Badge>}
        </Row>
        <Row label="Member since">{formatDate(user.createdAt)}</Row>
      </dl>
    </Card>
  );
}

function SubscriptionCard({ user }: { user: PublicUser }) {
  const plan = user.hasSubscription && user.subscriptionType ? PLANS[user.subscriptionType] : null;
  return (
    <Card>
      <CardTitle>Subscription Status</CardTitle>
      <dl className="mt-3">
        <Row label="Current plan">{plan ? `${plan.name} Plan` : 'Free Trial'}</Row>
        {/* Unlimited is shown with crowns only (spec 6) unless credits were kept from Pro: the header's
            account menu follows the same rule (src/shared/balances.ts). */}
        {!plan || showsCredits(user.subscriptionType, user) ? (
          <>
            <Row label="Mix credits">{user.mixCredits}</Row>
            <Row label="Mastering credits">{user.masteringCredits}</Row>
          </>
        ) : null}
        <Row label="Crowns">{user.crowns}</Row>
      </dl>
      <div className="mt-4 flex flex-wrap gap-3">
        {plan && user.subscriptionType ? (
          <>
            <ChangeSubscriptionDialog user={{ ...user, subscriptionType: user.subscriptionType }} />
            <Link to="/buy-crowns" className={buttonClasses('outline')}>
              Buy Crowns
            </Link>
          </>
        ) : (
          <Link to="/pricing" className={buttonClasses('primary')}>
            View Plans
          </Link>
        )}
      </div>
    </Card>
  );
}

export function SettingsPage() {
  usePageTitle('Settings');
  const { user } = useAuth();
  if (!user) {
    // Reached only through the developer bypass: the screen needs a real account.
    return (
      <div className="mx-auto max-w-md px-4 py-16 text-center" data-state="ready">
        <h1 className="text-2xl font-bold text-zinc-50">Settings</h1>
        <p className="mt-3 text-zinc-300">Please log in to access settings.</p>
        <Link to="/auth" className={buttonClasses('primary', 'md', 'mt-6')}>
          Log In
        </Link>
      </div>
    );
  }
  return (
    <div className="mx-auto grid max-w-4xl gap-6 px-4 py-12" data-state="ready">
      <h1 className="text-3xl font-bold text-zinc-50">Settings</h1>
      <CheckoutNotice subscribed={user.hasSubscription} />
      <div className="grid gap-6 md:grid-cols-2">
        <AccountCard user={user} />
        <SubscriptionCard user={user} />
      </div>
      <PaymentMethodsCard />
      <BillingHistoryCard />
      <SecurityCard email={user.email} />
      <EmailChangeCard email={user.email} />
      <TwoFactorCard user={user} />
      <SessionsCard />
      <DangerZone email={user.email} />
    </div>
  );
}
