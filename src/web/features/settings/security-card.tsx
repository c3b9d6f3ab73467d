import { useMutation } from '@tanstack/react-query';
import type { MessageResponse } from '../../../shared/api/user';
import { Button } from '../../components/ui/button';
import { Card, CardDescription, CardTitle } from '../../components/ui/card';
import { toast } from '../../components/ui/use-toast';
import { apiJson, userMessage } from '../../lib/api-client';

export function SecurityCard({ email }: { email: string | undefined }) {
  const send = useMutation({
    mutationFn: (address: string) =>
      apiJson<MessageResponse>('POST', '/api/auth/forgot-password', { email: address }),
    onSuccess: (res) => toast({ title: 'Reset link sent', description: res.message }),
    onError: (err) =>
      toast({
        title: 'Failed to send reset email',
        description: userMessage(err, 'Please try again later'),
        variant: 'destructive',
      }),
  });

  const sendReset = () => {
    if (!email) {
      toast({
        title: 'Failed to send reset email',
        description: 'Unable to send reset email. Please try logging out and back in.',
        variant: 'destructive',
      });
      return;
    }
    send.mutate(email);
  };

  return (
    <Card>
      <CardTitle>Security</CardTitle>
      <CardDescription className="mt-1">
        We will email you a link to choose a new password. Resetting signs you out on every device.
      </CardDescription>
      <Button variant="secondary" className="mt-4" disabled={send.isPending} onClick={sendReset}>
        {send.isPending ? 'Sending...' : 'Send password reset email'}
      </Button>
    </Card>
  );
}
