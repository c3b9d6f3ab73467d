import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { formatCents, PLAN_IDS, PLANS, type PlanId } from '../../../shared/plans';
import { useAuth } from '../../app/auth-context';
import { useConfig } from '../../app/use-config';
import { FeatureIcon } from '../../components/feature-icon';
import { PlanCard } from '../../components/plan-card';
import { Button } from '../../components/ui/button';
import { Card, CardTitle } from '../../components/ui/card';
import { toast } from '../../components/ui/use-toast';
import { apiJson, userMessage } from '../../lib/api-client';
import { planFromQuery, planLabel } from '../../lib/format';
import { usePageTitle } from '../../lib/use-page-title';
import { planButton } from '../pricing/pricing-actions';
import { changeSummary, subscriptionOptions } from '../settings/subscription-options';
import { asSubscriber, PlanChangeDialog } from './plan-change-dialog';
import { usePlanChangePreview } from './use-plan-change-preview';

const statements = (provider: string | undefined) => [
  provider === 'stripe' ? 'Secure payment by Stripe' : 'Secure card payment through our payment provider',
  '30-day money-back guarantee',
  'Cancel or change your plan anytime',
  'Access to all features immediately',
  'Billed monthly',
];

export function CheckoutPage() {
  usePageTitle('Checkout');
  const { user } = useAuth();
  const { config } = useConfig();
  const [params] = useSearchParams();
  const [planId, setPlanId] = useState<PlanId>(() => planFromQuery(params.get('plan')));
  const plan = PLANS[planId];
  const subscriber = asSubscriber(user);
  const action = planButton(user, planId);
  const [changing, setChanging] = useState(false);
  // A subscriber's other plan is a plan change (issue 30): its summary is the one the dialog confirms.
  const change =
    action.kind === 'change' && subscriber
      ? subscriptionOptions(subscriber.subscriptionType).find((o) => o.type === action.change)
      : undefined;
  // The summary beside the plans shows the server's figure too; the dialog asks again when it opens.
  const preview = usePlanChangePreview(change, !changing);

  const checkout = useMutation({
    mutationFn: () =>
      apiJson<{ url: string }>('POST', '/api/create-checkout-session', { lookup_key: plan.lookupKey }),
    onSuccess: (res) => {
      // The provider's hosted checkout page takes it from here.
      window.location.assign(res.url);
    },
    onError: (err) =>
      toast({
        title: 'Checkout Failed',
        description: userMessage(err, 'Checkout failed'),
        variant: 'destructive',
      }),
  });

  return (
    <div className="mx-auto grid max-w-6xl gap-8 px-4 py-12" data-state="ready">
      <Link to="/pricing" className="text-sm text-violet-300 underline-offset-4 hover:underline">
        ← Back to Pricing
      </Link>
      <h1 className="text-3xl font-bold text-zinc-50">Checkout</h1>
      <div className="grid gap-8 lg:grid-cols-[1fr_22rem]">
        {/* min-w-0: a fieldset is never narrower than its content by default, which pushed the cards past the
            phone's margin; content-start keeps the cards their own height beside a taller summary. */}
        <fieldset className="grid min-w-0 content-start gap-6 md:grid-cols-2">
          <legend className="mb-4 text-lg font-semibold text-zinc-100">Choose your plan</legend>
          {PLAN_IDS.map((id) => (
            <label
              key={id}
              className="block cursor-pointer rounded-xl has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-4 has-[:focus-visible]:outline-violet-400"
            >
              <input
                type="radio"
                name="plan"
                value={id}
                checked={planId === id}
                onChange={() => setPlanId(id)}
                aria-label={`${PLANS[id].name} plan, ${formatCents(PLANS[id].priceCents)} per month`}
                className="sr-only"
              />
              <PlanCard plan={PLANS[id]} selected={planId === id} headingLevel="h2" />
            </label>
          ))}
        </fieldset>
        {/* minmax(0, 1fr): a long email in 'Your account' truncates instead of widening the column. */}
        <div className="grid min-w-0 grid-cols-[minmax(0,1fr)] content-start gap-6">
          <Card>
            <CardTitle>Order summary</CardTitle>
            {change && subscriber ? (
              <dl className="mt-4 grid gap-2 text-sm" data-testid="checkout-change-summary">
                {changeSummary(change, subscriber, preview).map((row, i) => (
                  <div
                    key={row.label}
                    className={
                      i === 0
                        ? 'flex justify-between border-b border-zinc-800 pb-2 text-base font-semibold'
                        : 'flex justify-between gap-3'
                    }
                  >
                    <dt className={i === 0 ? 'text-zinc-200' : 'text-zinc-400'}>{row.label}</dt>
                    <dd className="text-right text-zinc-50">{row.value}</dd>
                  </div>
                ))}
              </dl>
            ) : (
              <dl className="mt-4 grid gap-2 text-sm">
                <div className="flex justify-between">
                  <dt className="text-zinc-400">{plan.name} plan</dt>
                  <dd className="text-zinc-50">
                    {formatCents(plan.priceCents)} / {plan.period}
                  </dd>
                </div>
                <div className="flex justify-between border-t border-zinc-800 pt-2 text-base font-semibold">
                  <dt className="text-zinc-200">Due today</dt>
                  <dd className="text-zinc-50">
                    {action.kind === 'current' ? formatCents(0) : formatCents(plan.priceCents)}
                  </dd>
                </div>
              </dl>
            )}
            {action.kind === 'subscribe' ? (
              <Button
                size="lg"
                className="mt-5 w-full"
                disabled={checkout.isPending}
                onClick={() => checkout.mutate()}
              >
                {checkout.isPending ? 'Creating checkout...' : `Subscribe to ${plan.name}`}
              </Button>
            ) : action.kind === 'current' ? (
              <Button size="lg" className="mt-5 w-full" disabled>
                {`${plan.name}: your current plan`}
              </Button>
            ) : (
              <Button size="lg" className="mt-5 w-full" onClick={() => setChanging(true)}>
                {action.label}
              </Button>
            )}
            <ul className="mt-5 grid gap-2 text-sm text-zinc-300">
              {statements(config?.paymentProvider).map((s) => (
                <li key={s} className="flex gap-2">
                  <FeatureIcon name="check" className="mt-0.5 size-4 shrink-0 text-emerald-300" />
                  {s}
                </li>
              ))}
            </ul>
          </Card>
          {subscriber ? (
            <PlanChangeDialog
              user={subscriber}
              open={changing}
              onOpenChange={setChanging}
              initial={action.kind === 'change' ? action.change : undefined}
            />
          ) : null}
          <Card>
            <CardTitle>Your account</CardTitle>
            <dl className="mt-3 grid grid-cols-[minmax(0,1fr)] gap-2 text-sm">
              {/* The address on its own line under its label: whole, however long, never cut off. */}
              <div className="grid gap-0.5">
                <dt className="text-zinc-400">Email</dt>
                <dd className="break-all text-zinc-50">{user?.email ?? 'Not signed in'}</dd>
              </div>
              <div className="flex justify-between">
                <dt className="text-zinc-400">Current plan</dt>
                <dd className="text-zinc-50">
                  {planLabel(user?.hasSubscription ? user.subscriptionType : null)}
                </dd>
              </div>
            </dl>
          </Card>
        </div>
      </div>
    </div>
  );
}
