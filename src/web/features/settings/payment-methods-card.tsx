import { useQuery } from '@tanstack/react-query';
import { Card, CardDescription, CardTitle } from '../../components/ui/card';
import { Spinner } from '../../components/ui/spinner';

interface PaymentMethod {
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
}

/** What the payment provider holds for the user (GET /api/billing/payment-methods), or none. */
export function PaymentMethodsCard() {
  const query = useQuery<{ methods: PaymentMethod[] }>({ queryKey: ['/api/billing/payment-methods'] });
  const methods = query.data?.methods ?? [];
  return (
    <Card>
      <CardTitle>Payment Methods</CardTitle>
      <CardDescription className="mt-1">
        Cards saved with our payment provider for your subscription.
      </CardDescription>
      <div className="mt-4" data-state={query.isLoading ? 'loading' : 'ready'}>
        {query.isLoading ? (
          <Spinner />
        ) : query.isError ? (
          <p className="text-sm text-red-300">Payment methods could not be loaded right now.</p>
        ) : methods.length === 0 ? (
          <p className="text-sm text-zinc-300">No payment methods on file.</p>
        ) : (
          <ul className="grid gap-2">
            {methods.map((m) => (
              <li
                key={`${m.brand}-${m.last4}-${m.expYear}-${m.expMonth}`}
                className="flex items-center justify-between rounded-lg border border-zinc-800 px-4 py-3 text-sm"
              >
                <span className="font-medium text-zinc-50 capitalize">
                  {m.brand} •••• {m.last4}
                </span>
                <span className="text-zinc-400">
                  Expires {String(m.expMonth).padStart(2, '0')}/{m.expYear}
                </span>
              </li>
            ))}
          </ul>
        )}
      </div>
    </Card>
  );
}
