import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link } from 'react-router';
import type { MessageResponse } from '../../../shared/api/user';
import { MESSAGES } from '../../../shared/messages';
import { FormField } from '../../components/form-field';
import { Button, buttonClasses } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { toast } from '../../components/ui/use-toast';
import { apiJson, userMessage } from '../../lib/api-client';
import { usePageTitle } from '../../lib/use-page-title';
import { checkForgotEmail } from './validation';

export function ForgotPasswordPage() {
  usePageTitle('Forgot password');
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | null>(null);
  const send = useMutation({
    mutationFn: (address: string) =>
      apiJson<MessageResponse>('POST', '/api/auth/forgot-password', { email: address }),
    onSuccess: (res) => toast({ title: 'Reset link sent', description: res.message }),
    onError: (err) =>
      toast({
        title: 'Error',
        description: userMessage(err, 'Failed to send reset email'),
        variant: 'destructive',
      }),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const problem = checkForgotEmail(email);
    setError(problem);
    if (!problem) send.mutate(email.trim());
  };

  return (
    <div className="mx-auto max-w-md px-4 py-16" data-state="ready">
      <Card>
        {send.isSuccess ? (
          <div className="grid gap-4 text-center">
            <h1 className="text-2xl font-bold text-zinc-50">Check your email</h1>
            <p className="text-zinc-300">{send.data.message || MESSAGES.resetSent}</p>
            <Link to="/auth" className={buttonClasses('primary')}>
              Back to login
            </Link>
          </div>
        ) : (
          <form onSubmit={submit} noValidate className="grid gap-4">
            <div>
              <h1 className="text-2xl font-bold text-zinc-50">Forgot your password?</h1>
              <p className="mt-1 text-sm text-zinc-400">
                Enter the email address of your account and we will send you a link to reset your password.
              </p>
            </div>
            <FormField
              label="Email"
              type="email"
              autoComplete="email"
              value={email}
              error={error}
              onChange={(e) => setEmail(e.target.value)}
            />
            <Button type="submit" disabled={send.isPending}>
              {send.isPending ? 'Sending...' : 'Send reset link'}
            </Button>
            <Link
              to="/auth"
              className="text-center text-sm text-violet-300 underline-offset-4 hover:underline"
            >
              Back to login
            </Link>
          </form>
        )}
      </Card>
    </div>
  );
}
