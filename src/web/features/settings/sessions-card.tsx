import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AccountSession, AccountSessionsResponse } from '../../../shared/api/auth';
import type { MessageResponse } from '../../../shared/api/user';
import { useAuth } from '../../app/auth-context';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Card, CardDescription, CardTitle } from '../../components/ui/card';
import { Dialog, DialogClose, DialogContent, DialogTrigger } from '../../components/ui/dialog';
import { Spinner } from '../../components/ui/spinner';
import { toast } from '../../components/ui/use-toast';
import { apiJson, userMessage } from '../../lib/api-client';
import { formatDate, formatLastSeen } from '../../lib/format';

export const ACCOUNT_SESSIONS_KEY = ['/api/auth/sessions'] as const;

const failed = (err: unknown) =>
  toast({ title: 'Error', description: userMessage(err, 'Please try again'), variant: 'destructive' });

function SessionItem({
  session,
  onSignOut,
  busy,
}: {
  session: AccountSession;
  onSignOut: () => void;
  busy: boolean;
}) {
  return (
    <li
      className="flex flex-col gap-3 rounded-lg border border-zinc-800 px-4 py-3 sm:flex-row sm:items-center sm:justify-between"
      data-session={session.current ? 'current' : 'other'}
    >
      <div className="grid gap-0.5 text-sm">
        <span className="flex flex-wrap items-center gap-2 font-medium text-zinc-50">
          {session.device}
          {session.current ? <Badge tone="green">This device</Badge> : null}
        </span>
        <span className="text-zinc-300">
          {session.address ? `From ${session.address}` : 'Address not recorded'} ·{' '}
          {session.current ? 'Active now' : formatLastSeen(session.lastSeenAt)}
        </span>
        <span className="text-xs text-zinc-400">Signed in {formatDate(session.createdAt)}</span>
      </div>
      {session.current ? null : (
        <Button
          variant="outline"
          size="sm"
          className="self-start sm:self-center"
          disabled={busy}
          onClick={onSignOut}
          aria-label={`Sign out ${session.device}${session.address ? ` from ${session.address}` : ''}`}
        >
          Sign out
        </Button>
      )}
    </li>
  );
}

/** "Sign out everywhere": every session of the account ends, this one too, after a confirmation. */
function SignOutEverywhere() {
  const { clearLocalSession } = useAuth();
  const everywhere = useMutation({
    mutationFn: () => apiJson<MessageResponse>('POST', '/api/auth/logout', { all: true }),
    onSuccess: async (res) => {
      await clearLocalSession();
      toast({ title: 'Signed out everywhere', description: res.message });
    },
    onError: failed,
  });
  return (
    <Dialog>
      <DialogTrigger asChild>
        <Button variant="destructive" className="mt-4">
          Sign out everywhere
        </Button>
      </DialogTrigger>
      <DialogContent
        title="Sign out everywhere?"
        description="Every device signed in to your account is signed out, this one included. You will need to log in again."
      >
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <DialogClose asChild>
            <Button variant="outline">Cancel</Button>
          </DialogClose>
          <Button variant="destructive" disabled={everywhere.isPending} onClick={() => everywhere.mutate()}>
            {everywhere.isPending ? 'Signing out...' : 'Sign out everywhere'}
          </Button>
        </div>
      </DialogContent>
    </Dialog>
  );
}

/**
 * The account's signed-in browsers (GET /api/auth/sessions): which device, from which address, when last
 * used; any but this one can be signed out, or all of them at once.
 */
export function SessionsCard() {
  const queryClient = useQueryClient();
  const query = useQuery<AccountSessionsResponse>({ queryKey: ACCOUNT_SESSIONS_KEY });
  const signOut = useMutation({
    mutationFn: (id: string) =>
      apiJson<MessageResponse>('DELETE', `/api/auth/sessions/${encodeURIComponent(id)}`),
    onSuccess: async (res) => {
      toast({ title: 'Session signed out', description: res.message });
      await queryClient.invalidateQueries({ queryKey: ACCOUNT_SESSIONS_KEY });
    },
    onError: failed,
  });
  const sessions = query.data?.sessions ?? [];
  return (
    <Card>
      <CardTitle>Active sessions</CardTitle>
      <CardDescription className="mt-1">
        Where your account is signed in. Sign out any device you do not recognise, then change your password.
        {query.data ? ` At most ${query.data.limit} at once: a new login ends the one unused longest.` : ''}
      </CardDescription>
      <div className="mt-4" data-state={query.isLoading ? 'loading' : 'ready'}>
        {query.isLoading ? (
          <Spinner />
        ) : query.isError ? (
          <p className="text-sm text-red-300">Your sessions could not be loaded right now.</p>
        ) : (
          <ul className="grid gap-2" aria-label="Active sessions">
            {sessions.map((s) => (
              <SessionItem
                key={s.id}
                session={s}
                busy={signOut.isPending}
                onSignOut={() => signOut.mutate(s.id)}
              />
            ))}
          </ul>
        )}
      </div>
      <SignOutEverywhere />
    </Card>
  );
}
