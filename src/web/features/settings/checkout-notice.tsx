import { useQueryClient } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { Button } from '../../components/ui/button';
import { USER_QUERY_KEY } from '../../lib/query-client';

/**
 * Hosted checkout sends the user back to /settings?checkout=success. The plan itself changes only when the
 * payment provider's event arrives, so this says so and offers to look again rather than claiming success.
 */
export function CheckoutNotice({ subscribed }: { subscribed: boolean }) {
  const [params] = useSearchParams();
  const queryClient = useQueryClient();
  if (params.get('checkout') !== 'success') return null;
  return (
    <div
      role="status"
      className="flex flex-col gap-3 rounded-xl border border-emerald-500/40 bg-emerald-950/40 p-4 sm:flex-row sm:items-center sm:justify-between"
    >
      <p className="text-sm text-emerald-100">
        {subscribed
          ? 'Thank you! Your subscription is active.'
          : 'Payment received. Your plan appears here as soon as the payment provider confirms it.'}
      </p>
      {subscribed ? null : (
        <Button
          size="sm"
          variant="secondary"
          onClick={() => queryClient.invalidateQueries({ queryKey: USER_QUERY_KEY })}
        >
          Check again
        </Button>
      )}
    </div>
  );
}
