import { useMutation } from '@tanstack/react-query';
import type { MessageResponse } from '../../../shared/api/user';
import { Badge } from '../../components/ui/badge';
import { toast } from '../../components/ui/use-toast';
import { apiJson, userMessage } from '../../lib/api-client';

/**
 * Whether the account has proved its address, and a button to mail the link again (the server allows a few
 * an hour). Admin rights from the configuration wait for this (decision 094).
 */
export function EmailConfirmation({ verified }: { verified: boolean }) {
  const send = useMutation({
    mutationFn: () => apiJson<MessageResponse>('POST', '/api/auth/verify-email/send'),
    onSuccess: (res) => toast({ title: 'Confirmation link sent', description: res.message }),
    onError: (err) =>
      toast({
        title: 'Failed to send confirmation link',
        description: userMessage(err, 'Please try again later'),
        variant: 'destructive',
      }),
  });
  if (verified) return <Badge tone="green">Confirmed</Badge>;
  return (
    // Left-aligned under its label on a phone (the row stacks there), right-aligned beside it from sm up.
    <span className="flex flex-wrap items-center gap-x-3 gap-y-1 sm:justify-end">
      <Badge tone="amber">Not confirmed</Badge>
      <button
        type="button"
        className="text-violet-300 underline-offset-4 hover:underline focus-visible:outline-2 focus-visible:outline-violet-400 disabled:opacity-50"
        disabled={send.isPending}
        onClick={() => send.mutate()}
      >
        {send.isPending ? 'Sending...' : 'Send confirmation link'}
      </button>
    </span>
  );
}
