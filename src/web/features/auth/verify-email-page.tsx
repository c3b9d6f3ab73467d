import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { Link, useSearchParams } from 'react-router';
import type { MessageResponse } from '../../../shared/api/user';
import { MESSAGES } from '../../../shared/messages';
import { useAuth } from '../../app/auth-context';
import { buttonClasses } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { LoadingScreen, Spinner } from '../../components/ui/spinner';
import { apiJson, userMessage } from '../../lib/api-client';
import { USER_QUERY_KEY } from '../../lib/query-client';
import { usePageTitle } from '../../lib/use-page-title';
import { LoginForm } from './login-form';

function Outcome({ title, text, ok }: { title: string; text: string; ok: boolean }) {
  return (
    <div className="grid gap-4 text-center" data-state="ready" data-outcome={ok ? 'confirmed' : 'failed'}>
      <h1 className="text-2xl font-bold text-zinc-50">{title}</h1>
      <p className="text-zinc-300">{text}</p>
      <Link to="/settings" className={buttonClasses(ok ? 'primary' : 'outline')}>
        Go to Settings
      </Link>
    </div>
  );
}

/** Redeems the token once the account it was mailed for is signed in (decision 093). */
function Confirm({ token }: { token: string }) {
  const queryClient = useQueryClient();
  const confirm = useMutation({
    mutationFn: () => apiJson<MessageResponse>('POST', '/api/auth/verify-email', { token }),
    // Confirmation may have made the account an admin: the user JSON is read again.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: USER_QUERY_KEY }),
  });
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    confirm.mutate();
  }, [confirm]);

  if (confirm.isSuccess) return <Outcome ok title="Email address confirmed" text={confirm.data.message} />;
  if (confirm.isError) {
    const text = userMessage(confirm.error, MESSAGES.verifyLinkInvalid);
    return <Outcome ok={false} title="Could not confirm your email address" text={text} />;
  }
  return (
    <div role="status" className="flex flex-col items-center gap-3 py-6" data-state="loading">
      <Spinner className="size-8" />
      <p className="text-sm text-zinc-300">Confirming your email address...</p>
    </div>
  );
}

export function VerifyEmailPage() {
  usePageTitle('Confirm your email address');
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const { user, isLoading } = useAuth();
  if (isLoading) return <LoadingScreen />;
  return (
    <div className="mx-auto max-w-md px-4 py-16">
      <Card>
        {!token ? (
          <Outcome ok={false} title="Invalid confirmation link" text={MESSAGES.verifyLinkInvalid} />
        ) : user ? (
          <Confirm token={token} />
        ) : (
          <div className="grid gap-6" data-state="ready">
            <div>
              <h1 className="text-2xl font-bold text-zinc-50">Log in to confirm your email address</h1>
              <p className="mt-2 text-sm text-zinc-300">
                The link confirms the account it was sent for: log in to that account and it is confirmed at
                once. If you never created an account with us, use "Forgot your password?" instead.
              </p>
            </div>
            <LoginForm />
          </div>
        )}
      </Card>
    </div>
  );
}
