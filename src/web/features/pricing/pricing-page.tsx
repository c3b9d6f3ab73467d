import { useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { MESSAGES } from '../../../shared/messages';
import { formatCents, PLAN_IDS, PLANS } from '../../../shared/plans';
import { useAuth } from '../../app/auth-context';
import { useConfig } from '../../app/use-config';
import { FeatureIcon } from '../../components/feature-icon';
import { PlanCard } from '../../components/plan-card';
import { Button } from '../../components/ui/button';
import { usePageTitle } from '../../lib/use-page-title';
import { asSubscriber, PlanChangeDialog } from '../billing/plan-change-dialog';
import { buyCrownsTarget, planButton, subscribeTarget } from './pricing-actions';

export function PricingPage() {
  usePageTitle('Pricing');
  const { user } = useAuth();
  const { config } = useConfig();
  const navigate = useNavigate();
  const [crownHint, setCrownHint] = useState(false);
  const subscriber = asSubscriber(user);
  const [changeTo, setChangeTo] = useState<'upgrade' | 'downgrade' | null>(null);
  const plansRef = useRef<HTMLHeadingElement>(null);

  const buyCrowns = () => {
    const target = buyCrownsTarget(user);
    if (target) {
      navigate(target);
      return;
    }
    setCrownHint(true);
    plansRef.current?.scrollIntoView({ behavior: 'smooth', block: 'start' });
    plansRef.current?.focus();
  };

  return (
    <div className="mx-auto max-w-6xl px-4 py-14" data-state="ready">
      <header className="text-center">
        <h1 className="text-4xl font-bold text-zinc-50">Simple, transparent pricing</h1>
        <p className="mx-auto mt-3 max-w-2xl text-zinc-300">
          Try the mixer and mastering for free in preview mode. Subscribe to download your finished tracks.
        </p>
      </header>

      {config?.demoPayments ? (
        <p
          role="note"
          className="mx-auto mt-8 max-w-2xl rounded-lg border border-sky-500/40 bg-sky-950/50 p-4 text-center text-sky-100"
        >
          {MESSAGES.demoPaymentsBanner}
        </p>
      ) : null}
      <h2 ref={plansRef} tabIndex={-1} className="sr-only">
        Plans
      </h2>
      {crownHint ? (
        <p
          role="status"
          className="mx-auto mt-8 max-w-2xl rounded-lg border border-amber-500/40 bg-amber-950/50 p-4 text-center text-amber-100"
        >
          Crowns are available to subscribers. Choose the Pro or Unlimited plan below to start buying crowns.
        </p>
      ) : null}
      <div className="mx-auto mt-10 grid max-w-4xl gap-6 md:grid-cols-2">
        {PLAN_IDS.map((id) => {
          const plan = PLANS[id];
          const action = planButton(user, id);
          return (
            <PlanCard key={id} plan={plan} headingLevel="h3">
              <Button
                className="w-full"
                variant={plan.popular ? 'primary' : 'secondary'}
                disabled={action.kind === 'current'}
                aria-label={
                  action.kind === 'current'
                    ? `${plan.name}: your current plan`
                    : action.kind === 'subscribe'
                      ? `Subscribe to ${plan.name}`
                      : undefined
                }
                onClick={() =>
                  action.kind === 'change' ? setChangeTo(action.change) : navigate(subscribeTarget(user, id))
                }
              >
                {action.kind === 'subscribe' ? 'Subscribe' : action.label}
              </Button>
            </PlanCard>
          );
        })}
      </div>

      {subscriber ? (
        <PlanChangeDialog
          user={subscriber}
          open={changeTo !== null}
          onOpenChange={(open) => !open && setChangeTo(null)}
          initial={changeTo ?? undefined}
        />
      ) : null}

      <section
        aria-labelledby="crowns-heading"
        className="mx-auto mt-14 max-w-4xl rounded-xl border border-amber-500/30 bg-gradient-to-br from-amber-950/40 to-zinc-900 p-8"
      >
        <div className="flex flex-col gap-6 md:flex-row md:items-center md:justify-between">
          <div>
            <h2 id="crowns-heading" className="flex items-center gap-2 text-2xl font-bold text-zinc-50">
              <FeatureIcon name="crown" className="size-6 text-amber-300" />
              Universal Crowns
            </h2>
            <p className="mt-2 max-w-xl text-zinc-300">
              One crown pays for one download of a mix or a master, whatever formats you choose. Subscribers
              can top up any time: {formatCents(PLANS.pro.crownPriceCents)} per crown on Pro,{' '}
              {formatCents(PLANS.unlimited.crownPriceCents)} per crown on Unlimited. On every plan a download
              uses a matching credit first (credits you kept when upgrading included), then a crown.
            </p>
          </div>
          <Button variant="outline" className="border-amber-500/60 text-amber-100" onClick={buyCrowns}>
            Buy Crowns
          </Button>
        </div>
      </section>
    </div>
  );
}
