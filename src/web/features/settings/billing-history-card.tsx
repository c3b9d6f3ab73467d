import { useQuery } from '@tanstack/react-query';
import type { BillingHistoryResponse } from '../../../shared/api/billing';
import { formatCents } from '../../../shared/plans';
import { Card, CardDescription, CardTitle } from '../../components/ui/card';
import { Spinner } from '../../components/ui/spinner';

/** The payments table's kinds in the words of a receipt. */
const KIND_LABELS: Record<string, string> = {
  subscription_create: 'Subscription',
  subscription_cycle: 'Renewal',
  subscription_update: 'Upgrade to Unlimited (prorated)',
  crowns: 'Crowns',
  refund: 'Refund',
};

/** A refund is a negative row: "-$29.99", not "$-29.99". */
const money = (cents: number) => (cents < 0 ? `-${formatCents(-cents)}` : formatCents(cents));

const day = (iso: string) =>
  new Date(iso).toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric' });

/** What was charged and when (GET /api/billing/payments): a charge can be checked against what was shown. */
export function BillingHistoryCard() {
  const query = useQuery<BillingHistoryResponse>({ queryKey: ['/api/billing/payments'], staleTime: 0 });
  const rows = query.data?.payments ?? [];
  return (
    <Card>
      <CardTitle>Billing History</CardTitle>
      <CardDescription className="mt-1">What was charged or refunded, newest first.</CardDescription>
      <div className="mt-4" data-state={query.isLoading ? 'loading' : 'ready'} data-testid="billing-history">
        {query.isLoading ? (
          <Spinner />
        ) : query.isError ? (
          <p className="text-sm text-red-300">Billing history could not be loaded right now.</p>
        ) : rows.length === 0 ? (
          <p className="text-sm text-zinc-300">No payments yet.</p>
        ) : (
          <ul className="grid gap-2">
            {rows.map((p, i) => (
              <li
                // Rows have no id of their own here; their order is fixed (newest first).
                // biome-ignore lint/suspicious/noArrayIndexKey: a list that is only ever replaced whole
                key={i}
                className="flex items-center justify-between gap-3 rounded-lg border border-zinc-800 px-4 py-3 text-sm"
              >
                <span>
                  <span className="block font-medium text-zinc-50">{KIND_LABELS[p.kind] ?? p.kind}</span>
                  <span className="block text-zinc-400">{day(p.createdAt)}</span>
                </span>
                <span className="font-medium text-zinc-50 tabular-nums">{money(p.amountCents)}</span>
              </li>
            ))}
          </ul>
        )}
      </div>
    </Card>
  );
}
