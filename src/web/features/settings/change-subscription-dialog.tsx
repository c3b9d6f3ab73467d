import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { MessageResponse } from '../../../shared/api/user';
import type { PlanId } from '../../../shared/plans';
import { Button } from '../../components/ui/button';
import { Dialog, DialogClose, DialogContent } from '../../components/ui/dialog';
import { toast } from '../../components/ui/use-toast';
import { apiJson, userMessage } from '../../lib/api-client';
import { cn } from '../../lib/cn';
import { USER_QUERY_KEY } from '../../lib/query-client';
import { changeSubscriptionBody, type SubscriptionOption, subscriptionOptions } from './subscription-options';

export function ChangeSubscriptionDialog({ current }: { current: PlanId }) {
  const queryClient = useQueryClient();
  const options = subscriptionOptions(current);
  const [open, setOpen] = useState(false);
  const [choice, setChoice] = useState<SubscriptionOption['type']>(options[0]?.type ?? 'cancel');
  const selected = options.find((o) => o.type === choice);

  const change = useMutation({
    mutationFn: (option: SubscriptionOption) =>
      apiJson<MessageResponse>('POST', '/api/auth/change-subscription', changeSubscriptionBody(option)),
    onSuccess: async (res) => {
      await queryClient.invalidateQueries({ queryKey: USER_QUERY_KEY });
      toast({ title: 'Subscription updated', description: res.message });
      setOpen(false);
    },
    onError: (err) =>
      toast({
        title: 'Error',
        description: userMessage(err, 'Failed to change subscription'),
        variant: 'destructive',
      }),
  });

  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <Button variant="secondary" onClick={() => setOpen(true)}>
        Change Subscription
      </Button>
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
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <DialogClose asChild>
            <Button variant="outline">Keep current plan</Button>
          </DialogClose>
          <Button
            variant={choice === 'cancel' ? 'destructive' : 'primary'}
            disabled={!selected || change.isPending}
            onClick={() => selected && change.mutate(selected)}
          >
            {change.isPending ? 'Updating...' : selected ? selected.label : 'Confirm'}
          </Button>
        </div>
      </DialogContent>
    </Dialog>
  );
}
