import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import type { PublicUser } from '../../../shared/api/user';
import { CROWN_PURCHASE, formatCents, PLANS } from '../../../shared/plans';
import { useAuth } from '../../app/auth-context';
import { FeatureIcon } from '../../components/feature-icon';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Card, CardTitle } from '../../components/ui/card';
import { toast } from '../../components/ui/use-toast';
import { ApiError, apiJson, userMessage } from '../../lib/api-client';
import { USER_QUERY_KEY } from '../../lib/query-client';
import { usePageTitle } from '../../lib/use-page-title';
import { crownTotalCents } from './crown-quantity';
import { purchaseKeys } from './purchase-keys';
import { QuantityStepper } from './quantity-stepper';

/** totalCost is in integer cents, like every amount of money in this codebase (src/shared/plans.ts). */
interface PurchaseResponse {
  totalCost: number;
  user?: PublicUser;
}

export function BuyCrownsPage() {
  usePageTitle('Buy Crowns');
  const { user } = useAuth();
  const queryClient = useQueryClient();
  const [quantity, setQuantity] = useState<number>(CROWN_PURCHASE.default);
  const plan = user?.subscriptionType ? PLANS[user.subscriptionType] : null;

  const [keys] = useState(() => purchaseKeys());

  const purchase = useMutation({
    mutationFn: (body: { amount: number; idempotencyKey: string }) =>
      apiJson<PurchaseResponse>('POST', '/api/purchase-crowns', body),
    onSuccess: async (res, { amount }) => {
      keys.answered();
      if (res.user) queryClient.setQueryData(USER_QUERY_KEY, res.user);
      await queryClient.invalidateQueries({ queryKey: USER_QUERY_KEY });
      toast({
        title: 'Crowns Purchased Successfully',
        description: `You've purchased ${amount} crowns for ${formatCents(res.totalCost)}`,
      });
      setQuantity(CROWN_PURCHASE.default);
    },
    onError: (err) => {
      // No answer (the connection dropped) or a server failure: the purchase may have gone through, so
      // the next click repeats its key and the server answers it without charging twice.
      if (err instanceof ApiError && err.status < 500) keys.answered();
      toast({
        title: 'Purchase Failed',
        description: userMessage(err, 'Purchase failed'),
        variant: 'destructive',
      });
    },
  });

  const total = plan ? crownTotalCents(quantity, plan.crownPriceCents) : 0;

  return (
    <div className="mx-auto grid max-w-3xl grid-cols-[minmax(0,1fr)] gap-6 px-4 py-12" data-state="ready">
      <Link to="/settings" className="text-sm text-violet-300 underline-offset-4 hover:underline">
        ← Back to Settings
      </Link>
      <h1 className="flex items-center gap-2 text-3xl font-bold text-zinc-50">
        <FeatureIcon name="crown" className="size-7 text-amber-300" />
        Buy Crowns
      </h1>
      <Card className="flex flex-wrap items-center justify-between gap-4">
        <div>
          <p className="text-sm text-zinc-400">Your plan</p>
          <p className="flex items-center gap-2 text-lg font-semibold text-zinc-50">
            {plan ? `${plan.name} Plan` : 'No plan'}
            {plan ? <Badge tone="green">Active</Badge> : null}
          </p>
          {plan ? (
            <p className="text-sm text-zinc-300">{formatCents(plan.crownPriceCents)} per crown</p>
          ) : null}
        </div>
        {/* Right-aligned beside the plan; under it (the card wraps on a phone) it lines up on the left. */}
        <div className="sm:text-right">
          <p className="text-sm text-zinc-400">Crown balance</p>
          <p className="text-2xl font-bold text-amber-200">{user?.crowns ?? 0}</p>
        </div>
      </Card>
      <Card className="grid gap-6">
        <CardTitle>Choose an amount</CardTitle>
        <QuantityStepper value={quantity} onChange={setQuantity} />
        <dl className="grid gap-2 rounded-lg bg-zinc-950/60 p-4 text-sm">
          <div className="flex justify-between">
            <dt className="text-zinc-400">Price per crown</dt>
            <dd className="text-zinc-50">{plan ? formatCents(plan.crownPriceCents) : '—'}</dd>
          </div>
          <div className="flex justify-between">
            <dt className="text-zinc-400">Quantity</dt>
            <dd className="text-zinc-50">{quantity}</dd>
          </div>
          <div className="flex justify-between border-t border-zinc-800 pt-2 text-base font-semibold">
            <dt className="text-zinc-200">Total</dt>
            <dd className="text-zinc-50">{plan ? formatCents(total) : '—'}</dd>
          </div>
        </dl>
        {plan ? null : (
          <p className="text-sm text-amber-200">Log in with a subscribed account to buy crowns.</p>
        )}
        <Button
          size="lg"
          // Wraps on a phone: 'Purchase 1000 Crowns for $1000.00' is wider than the card at 375 px.
          className="h-auto min-h-12 py-2 text-center whitespace-normal"
          disabled={!plan || purchase.isPending}
          onClick={() => purchase.mutate({ amount: quantity, idempotencyKey: keys.forClick(quantity) })}
        >
          {purchase.isPending ? 'Processing...' : `Purchase ${quantity} Crowns for ${formatCents(total)}`}
        </Button>
        <p className="text-xs text-zinc-400">
          Charged to the card saved with your subscription. One crown pays for one download of a mix or a
          master.
        </p>
      </Card>
    </div>
  );
}
