import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { changeEmailBody } from '../../../shared/api/auth';
import type { MessageResponse } from '../../../shared/api/user';
import { FormField, PasswordField } from '../../components/form-field';
import { Button } from '../../components/ui/button';
import { Card, CardDescription, CardTitle } from '../../components/ui/card';
import { toast } from '../../components/ui/use-toast';
import { apiJson, userMessage } from '../../lib/api-client';

type Errors = Partial<Record<'newEmail' | 'password', string>>;

/**
 * A new address for the account: confirmed by a link mailed to it (opened signed in), and the old address
 * is told once it is done. The current password is asked for, so a session left open is not enough.
 */
export function EmailChangeCard({ email }: { email: string }) {
  const [newEmail, setNewEmail] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [sent, setSent] = useState<string | null>(null);

  const change = useMutation({
    mutationFn: (body: { newEmail: string; password: string }) =>
      apiJson<MessageResponse>('POST', '/api/auth/email-change', body),
    onSuccess: (res) => {
      setSent(res.message);
      setPassword('');
      toast({ title: 'Confirmation link sent', description: res.message });
    },
    onError: (err) =>
      toast({
        title: 'Could not change your email address',
        description: userMessage(err, 'Please try again later'),
        variant: 'destructive',
      }),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = changeEmailBody.safeParse({ newEmail, password });
    if (!parsed.success) {
      const found: Errors = {};
      for (const issue of parsed.error.issues) {
        const field = issue.path[0] as keyof Errors;
        found[field] ??= issue.message;
      }
      setErrors(found);
      return;
    }
    setErrors({});
    setSent(null);
    change.mutate(parsed.data);
  };

  return (
    <Card>
      <CardTitle>Email address</CardTitle>
      <CardDescription className="mt-1">
        You sign in with {email}. We mail a link to the new address; the change is made when you open it while
        signed in. Your old address is then told, and your other devices are signed out.
      </CardDescription>
      <form
        onSubmit={submit}
        noValidate
        className="mt-4 grid gap-3 sm:max-w-md"
        aria-label="Change email address"
      >
        <FormField
          label="New email address"
          type="email"
          autoComplete="email"
          value={newEmail}
          error={errors.newEmail}
          onChange={(e) => setNewEmail(e.target.value)}
        />
        <PasswordField
          label="Current password"
          autoComplete="current-password"
          value={password}
          error={errors.password}
          onChange={(e) => setPassword(e.target.value)}
        />
        <Button type="submit" variant="secondary" className="justify-self-start" disabled={change.isPending}>
          {change.isPending ? 'Sending...' : 'Change email address'}
        </Button>
        {sent ? (
          <p role="status" className="text-sm text-emerald-200">
            {sent}
          </p>
        ) : null}
      </form>
    </Card>
  );
}
