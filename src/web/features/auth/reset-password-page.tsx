import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import type { MessageResponse } from '../../../shared/api/user';
import { MESSAGES } from '../../../shared/messages';
import { PasswordField } from '../../components/form-field';
import { Button, buttonClasses } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { toast } from '../../components/ui/use-toast';
import { apiJson, userMessage } from '../../lib/api-client';
import { usePageTitle } from '../../lib/use-page-title';
import { checkResetPassword } from './validation';

const invalidLinkToast = () =>
  toast({ title: 'Invalid reset link', description: MESSAGES.resetLinkInvalid, variant: 'destructive' });

function InvalidLink() {
  useEffect(() => {
    invalidLinkToast();
  }, []);
  return (
    <div className="grid gap-4 text-center">
      <h1 className="text-2xl font-bold text-zinc-50">Invalid reset link</h1>
      <p className="text-zinc-300">{MESSAGES.resetLinkInvalid}</p>
      <Link to="/forgot-password" className={buttonClasses('primary')}>
        Request new reset link
      </Link>
      <Link to="/auth" className={buttonClasses('outline')}>
        Back to login
      </Link>
    </div>
  );
}

function ResetForm({ token }: { token: string }) {
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<{ password?: string; confirm?: string }>({});
  const reset = useMutation({
    mutationFn: () =>
      apiJson<MessageResponse>('POST', '/api/auth/reset-password', { token, newPassword: password }),
    onSuccess: (res) => toast({ title: 'Password reset successful', description: res.message }),
    onError: (err) =>
      toast({
        title: 'Error',
        description: userMessage(err, 'Failed to reset password'),
        variant: 'destructive',
      }),
  });

  if (reset.isSuccess) {
    return (
      <div className="grid gap-4 text-center">
        <h1 className="text-2xl font-bold text-zinc-50">Password reset successful</h1>
        <p className="text-zinc-300">{reset.data.message || MESSAGES.resetDone}</p>
        <Link to="/auth" className={buttonClasses('primary')}>
          Continue to login
        </Link>
      </div>
    );
  }

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!token) {
      invalidLinkToast();
      return;
    }
    const found = checkResetPassword({ password, confirm });
    setErrors(found);
    if (!found.password && !found.confirm) reset.mutate();
  };

  return (
    <form onSubmit={submit} noValidate className="grid gap-4">
      <div>
        <h1 className="text-2xl font-bold text-zinc-50">Reset your password</h1>
        <p className="mt-1 text-sm text-zinc-400">Choose a new password of at least 6 characters.</p>
      </div>
      <PasswordField
        label="New Password"
        autoComplete="new-password"
        value={password}
        error={errors.password}
        onChange={(e) => setPassword(e.target.value)}
      />
      <PasswordField
        label="Confirm Password"
        autoComplete="new-password"
        value={confirm}
        error={errors.confirm}
        onChange={(e) => setConfirm(e.target.value)}
      />
      <Button type="submit" disabled={reset.isPending}>
        {reset.isPending ? 'Resetting...' : 'Reset password'}
      </Button>
      <Link to="/auth" className="text-center text-sm text-violet-300 underline-offset-4 hover:underline">
        Back to login
      </Link>
    </form>
  );
}

export function ResetPasswordPage() {
  usePageTitle('Reset password');
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  return (
    <div className="mx-auto max-w-md px-4 py-16" data-state="ready">
      <Card>{token ? <ResetForm token={token} /> : <InvalidLink />}</Card>
    </div>
  );
}
