import { type FormEvent, useState } from 'react';
import { usernameFromEmail } from '../../../shared/api/auth';
import { useAuth } from '../../app/auth-context';
import { FormField, PasswordField } from '../../components/form-field';
import { Button } from '../../components/ui/button';
import { toast } from '../../components/ui/use-toast';
import { checkRegister } from './validation';

export function RegisterForm() {
  const { registerMutation } = useAuth();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const problem = checkRegister({ email, password, confirm });
    if (problem) {
      toast({ ...problem, variant: 'destructive' });
      return;
    }
    const address = email.trim();
    registerMutation.mutate({ email: address, username: usernameFromEmail(address), password });
  };

  return (
    <form onSubmit={submit} noValidate className="grid gap-4" aria-label="Register">
      <FormField
        label="Email"
        type="email"
        autoComplete="email"
        value={email}
        onChange={(e) => setEmail(e.target.value)}
      />
      <PasswordField
        label="Password"
        autoComplete="new-password"
        value={password}
        onChange={(e) => setPassword(e.target.value)}
      />
      <PasswordField
        label="Confirm Password"
        autoComplete="new-password"
        value={confirm}
        onChange={(e) => setConfirm(e.target.value)}
      />
      <p className="text-xs text-zinc-400">
        At least 6 characters. Your username is the part of your email before the @.
      </p>
      <Button type="submit" disabled={registerMutation.isPending}>
        {registerMutation.isPending ? 'Creating account...' : 'Create Account'}
      </Button>
    </form>
  );
}
