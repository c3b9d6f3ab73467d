import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import type { PublicUser } from '../../../shared/api/user';
import { FormField } from '../../components/form-field';
import { QrCode } from '../../components/qr-code';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Card, CardDescription, CardTitle } from '../../components/ui/card';
import { toast } from '../../components/ui/use-toast';
import { apiJson, userMessage } from '../../lib/api-client';
import { USER_QUERY_KEY } from '../../lib/query-client';
import { ACCOUNT_SESSIONS_KEY } from './sessions-card';
import { RecoveryCodes, TurnOffForm } from './two-factor-parts';

interface Setup {
  secret: string;
  otpauthUrl: string;
}

const failed = (err: unknown) =>
  toast({ title: 'Error', description: userMessage(err, 'Please try again'), variant: 'destructive' });

/** TOTP two-factor authentication: set-up with an authenticator app, recovery codes, turning it off. */
export function TwoFactorCard({ user }: { user: PublicUser }) {
  const queryClient = useQueryClient();
  const [setup, setSetup] = useState<Setup | null>(null);
  const [code, setCode] = useState('');
  const [codes, setCodes] = useState<string[] | null>(null);
  // Turning it on or off ends the account's other sessions (server side): the list is read again too.
  const refreshUser = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: USER_QUERY_KEY }),
      queryClient.invalidateQueries({ queryKey: ACCOUNT_SESSIONS_KEY }),
    ]);

  const start = useMutation({
    mutationFn: () => apiJson<Setup>('POST', '/api/auth/2fa/setup'),
    onSuccess: setSetup,
    onError: failed,
  });
  const enable = useMutation({
    mutationFn: (otp: string) =>
      apiJson<{ recoveryCodes: string[] }>('POST', '/api/auth/2fa/enable', { code: otp }),
    onSuccess: async (res) => {
      setCodes(res.recoveryCodes);
      setSetup(null);
      setCode('');
      toast({ title: 'Two-factor authentication is on' });
      await refreshUser();
    },
    onError: failed,
  });

  const confirm = (event: FormEvent) => {
    event.preventDefault();
    enable.mutate(code.replace(/\s/g, ''));
  };

  return (
    <Card>
      <div className="flex items-center justify-between gap-3">
        <CardTitle>Two-factor authentication</CardTitle>
        {user.twoFactorEnabled ? <Badge tone="green">On</Badge> : <Badge tone="zinc">Off</Badge>}
      </div>
      <CardDescription className="mt-1">
        Ask for a code from an authenticator app at every login. Turning it on or off signs out your other
        devices.
        {user.isAdmin ? ' Required for the admin dashboard.' : ''}
      </CardDescription>

      {codes ? <RecoveryCodes codes={codes} onDone={() => setCodes(null)} /> : null}

      {!codes && user.twoFactorEnabled ? <TurnOffForm onDone={refreshUser} /> : null}

      {!codes && !user.twoFactorEnabled && !setup ? (
        <Button
          variant="secondary"
          className="mt-4"
          disabled={start.isPending}
          onClick={() => start.mutate()}
        >
          {start.isPending ? 'Starting...' : 'Set up two-factor authentication'}
        </Button>
      ) : null}

      {setup ? (
        <form
          onSubmit={confirm}
          noValidate
          className="mt-4 grid gap-4"
          aria-label="Confirm two-factor set-up"
        >
          <p className="text-sm text-zinc-300">
            Scan this code with your authenticator app, or type the key (or{' '}
            <a href={setup.otpauthUrl} className="text-violet-300 underline underline-offset-4">
              open it in the app
            </a>
            ), then enter the 6-digit code it shows.
          </p>
          <div className="flex flex-col items-center gap-4 sm:flex-row sm:items-start">
            <QrCode
              value={setup.otpauthUrl}
              label="QR code of your two-factor key"
              className="size-52 shrink-0 rounded-lg"
            />
            <p
              className="w-full rounded-lg bg-zinc-950/70 p-3 font-mono text-sm tracking-wider break-all text-zinc-50"
              data-testid="totp-secret"
            >
              {setup.secret}
            </p>
          </div>
          <FormField
            label="Authentication code"
            inputMode="numeric"
            autoComplete="one-time-code"
            value={code}
            onChange={(e) => setCode(e.target.value)}
          />
          <div className="flex flex-wrap gap-3">
            <Button type="submit" disabled={enable.isPending || !code.trim()}>
              {enable.isPending ? 'Turning on...' : 'Turn on'}
            </Button>
            <Button variant="outline" onClick={() => setSetup(null)}>
              Cancel
            </Button>
          </div>
        </form>
      ) : null}
    </Card>
  );
}
