import { useMutation } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useNavigate } from 'react-router';
import type { MessageResponse } from '../../../shared/api/user';
import { useAuth } from '../../app/auth-context';
import { Button } from '../../components/ui/button';
import { Card, CardDescription, CardTitle } from '../../components/ui/card';
import { Dialog, DialogClose, DialogContent, DialogTrigger } from '../../components/ui/dialog';
import { Input, Label } from '../../components/ui/input';
import { toast } from '../../components/ui/use-toast';
import { apiJson, userMessage } from '../../lib/api-client';

/** Account deletion, confirmed by typing the account's email (the server checks it again). */
export function DangerZone({ email }: { email: string }) {
  const { clearLocalSession, leaveTo } = useAuth();
  const navigate = useNavigate();
  const inputId = useId();
  const [typed, setTyped] = useState('');
  const matches = typed.trim().toLowerCase() === email.toLowerCase();

  const remove = useMutation({
    mutationFn: () => apiJson<MessageResponse>('DELETE', '/api/auth/account', { confirm: typed.trim() }),
    // From here a user query may read null at any moment (the sessions go with the account): the page's
    // guard must then send the visitor home, where this flow goes, not to /auth.
    onMutate: () => leaveTo('/'),
    onSuccess: async (res) => {
      await navigate('/', { replace: true });
      await clearLocalSession();
      toast({ title: 'Account deleted', description: res.message });
    },
    onError: (err) => {
      leaveTo('/auth');
      toast({
        title: 'Error',
        description: userMessage(err, 'Failed to delete account'),
        variant: 'destructive',
      });
    },
  });

  return (
    <Card className="border-red-900/70">
      <CardTitle className="text-red-300">Danger Zone</CardTitle>
      <CardDescription className="mt-1">
        Deleting your account removes your saved mixes, tracks and audio files for good. An active
        subscription is cancelled first. This cannot be undone.
      </CardDescription>
      <Dialog onOpenChange={() => setTyped('')}>
        <DialogTrigger asChild>
          <Button variant="destructive" className="mt-4">
            Delete my account
          </Button>
        </DialogTrigger>
        <DialogContent
          title="Delete your account?"
          description={`This permanently deletes ${email}, its sessions, tracks and files. Type your email address to confirm.`}
        >
          <div className="grid gap-2">
            <Label htmlFor={inputId}>Type your email to confirm</Label>
            <Input id={inputId} value={typed} autoComplete="off" onChange={(e) => setTyped(e.target.value)} />
          </div>
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <DialogClose asChild>
              <Button variant="outline">Cancel</Button>
            </DialogClose>
            <Button
              variant="destructive"
              disabled={!matches || remove.isPending}
              onClick={() => remove.mutate()}
            >
              {remove.isPending ? 'Deleting...' : 'Delete my account'}
            </Button>
          </div>
        </DialogContent>
      </Dialog>
    </Card>
  );
}
