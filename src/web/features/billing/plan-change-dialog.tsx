import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { MessageResponse, PublicUser } from '../../../shared/api/user';
import type { PlanId } from '../../../shared/plans';
import { Button } from '../../components/ui/button';
import { Dialog, DialogClose, DialogContent } from '../../components/ui/dialog';
import { toast } from '../../components/ui/use-toast';
import { ApiError, apiJson, userMessage } from '../../lib/api-client';
import { cn } from '../../lib/cn';
import { USER_QUERY_KEY } from '../../lib/query-client';
import {
  changeSubscriptionBody,
  changeSummary,
  type SubscriptionOption,
  subscriptionOptions,
} from '../settings/subscription-options';
import { usePlanChangePreview } from './use-plan-change-preview';

interface PlanChangeDialogProps {
  user: PublicUser & { subscriptionType: PlanId };
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The change selected when the dialog opens (Pricing and Checkout open it on the plan chosen there). */
  initial?: SubscriptionOption['type'];
  onChanged?: () => void;
}

/**
 * The one plan-change flow (issue 30): Settings, Pricing and Checkout all open it, and it shows what the
 * change costs today (an upgrade: the server's prorated figure, decision 250) and what it gives before the
 * user confirms it.
 */
export function PlanChangeDialog({ user, open, onOpenChange, initial, onChanged }: PlanChangeDialogProps) {
  const queryClient = useQueryClient();
  const options = subscriptionOptions(user.subscriptionType);
  const first = options.find((o) => o.type === initial)?.type ?? options[0]?.type ?? 'cancel';
  const [choice, setChoice] = useState<SubscriptionOption['type']>(first);
  // Each opening starts on the change it was opened for.
  useEffect(() => {
    if (open) setChoice(first);
  }, [open, first]);
  const selected = options.find((o) => o.type === choice);
  const preview = usePlanChangePreview(selected, open);
  // An upgrade is confirmed only with the server's figure on screen, and carries it (decision 250).
  const awaitingFigure = selected?.type === 'upgrade' && !preview.data;

  const change = useMutation({
    mutationFn: (option: SubscriptionOption) =>
      apiJson<MessageResponse>(
        'POST',
        '/api/auth/change-subscription',
        changeSubscriptionBody(option, option.type === 'upgrade' ? preview.data?.amountDueCents : undefined),
      ),
    onSuccess: async (res) => {
      await queryClient.invalidateQueries({ queryKey: USER_QUERY_KEY });
      await queryClient.invalidateQueries({ queryKey: ['/api/billing/payments'] });
      toast({ title: 'Subscription updated', description: res.message });
      onOpenChange(false);
      onChanged?.();
    },
    onError: (err) => {
      toast({
        title: 'Error',
        description: userMessage(err, 'Failed to change subscription'),
        variant: 'destructive',
      });
      // The amount moved since the preview: nothing was charged; show the new figure to confirm.
      if (err instanceof ApiError && err.code === 'amount_changed') void preview.refetch();
    },
  });

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent title="Change Subscription" description="Choose how you want to change your plan.">
        <fieldset className="grid gap-3">
          <legend className="sr-only">Subscription change</legend>
          {options.map((option) => (
            <label
              key={option.type}
              className={cn(
                'flex cursor-pointer gap-3 rounded-lg border p-4 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-violet-400',
                choice === option.type ? 'border-violet-500 bg-violet-950/40' : 'border-zinc-700',
              )}
            >
              <input
                type="radio"
                name="subscription-change"
                value={option.type}
                checked={choice === option.type}
                onChange={() => setChoice(option.type)}
                className="mt-1 accent-violet-500"
              />
              <span>
                <span className="block font-medium text-zinc-50">{option.label}</span>
                <span className="mt-1 block text-sm text-zinc-300">{option.detail}</span>
              </span>
            </label>
          ))}
        </fieldset>
        {selected ? (
          <dl
            aria-label="What this change costs"
            aria-busy={awaitingFigure}
            data-state={awaitingFigure ? 'loading' : 'ready'}
            data-testid="plan-change-summary"
            className="grid gap-1.5 rounded-lg border border-zinc-700 bg-zinc-950/60 p-4 text-sm"
          >
            {changeSummary(selected, user, preview).map((row, i) => (
              <div
                key={row.label}
                className={cn('flex justify-between gap-4', i === 0 && 'text-base font-semibold')}
              >
                <dt className={cn('shrink-0', i === 0 ? 'text-zinc-100' : 'text-zinc-400')}>{row.label}</dt>
                <dd className="text-right text-zinc-50">{row.value}</dd>
              </div>
            ))}
          </dl>
        ) : null}
        {/* Sticky: on a phone the dialog scrolls, and the button that confirms stays in sight under the figures. */}
        <div className="sticky -bottom-6 -mx-6 -mb-6 flex flex-col-reverse gap-2 border-t border-zinc-800 bg-zinc-900 px-6 py-4 sm:flex-row sm:justify-end">
          <DialogClose asChild>
            <Button variant="outline">Keep current plan</Button>
          </DialogClose>
          <Button
            variant={choice === 'cancel' ? 'destructive' : 'primary'}
            disabled={!selected || change.isPending || awaitingFigure}
            onClick={() => selected && change.mutate(selected)}
          >
            {change.isPending ? 'Updating...' : selected ? selected.label : 'Confirm'}
          </Button>
        </div>
      </DialogContent>
    </Dialog>
  );
}

/** Narrows a signed-in user to a subscriber, whose plan the dialog changes. */
export const asSubscriber = (user: PublicUser | null): (PublicUser & { subscriptionType: PlanId }) | null =>
  user?.hasSubscription && user.subscriptionType ? (user as PublicUser & { subscriptionType: PlanId }) : null;
